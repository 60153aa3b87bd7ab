#include "ops/DynamicSliceOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

#include <set>

namespace popart {

DynamicSliceOp::DynamicSliceOp(const OperatorIdentifier &id,
                               const Op::Settings &settings,
                               const Attributes &a)
    : Op(id, settings), axes(a.getInts("axes")), sizes(a.getInts("sizes")) {
  if (id.type == "DynamicSlice" || id.type == "DynamicUpdate")
    noOverlap = a.getInt("noOverlap", 0) != 0;
  if (axes.size() != sizes.size())
    throw error("{} '{}': {} axes but {} sizes", id.type, name(), axes.size(),
                sizes.size());
}

Shape DynamicSliceOp::sliceShape(const Shape &in) const {
  Shape out = in;
  for (std::size_t i = 0; i < axes.size(); ++i)
    out[axes[i]] = sizes[i];
  return out;
}

void DynamicSliceOp::setup() {
  const Shape in = inShape(0);
  const int64_t rank = static_cast<int64_t>(in.size());
  std::set<int64_t> seen;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= rank)
      throw error("{}: axis {} is out of range for a tensor of rank {}", str(),
                  axes[i], rank);
    if (!seen.insert(axes[i]).second)
      throw error("{}: axis {} is given more than once", str(), axes[i]);
    if (sizes[i] < 1 || sizes[i] > in[axes[i]])
      throw error("{}: size {} along axis {} is not in [1, {}]", str(),
                  sizes[i], axes[i], in[axes[i]]);
  }
  const TensorInfo &offset = inInfo(1);
  if (!getDataTypeInfo(offset.dataType()).isFixedPoint() ||
      offset.dataType() == DataType::BOOL)
    throw error("{}: the offset is {}, not an integer tensor", str(),
                offset.data_type());
  if (offset.nelms() != static_cast<int64_t>(axes.size()))
    throw error("{}: the offset has {} elements, one per axis ({}) is needed",
                str(), offset.nelms(), axes.size());
  const Shape slice = sliceShape(in);
  if (opid.type == "DynamicUpdate" || opid.type == "DynamicAdd") {
    if (!hasInput(2))
      throw error("{}: takes [tensor, offset, slice]", str());
    if (inShape(2) != slice || inInfo(2).dataType() != inInfo(0).dataType())
      throw error("{}: the slice is {} {}, not {} {}", str(),
                  inInfo(2).data_type(), inShape(2), inInfo(0).data_type(),
                  slice);
  }
  outInfo(0) = opid.type == "DynamicSlice"
                   ? TensorInfo(inInfo(0).dataType(), slice)
                   : inInfo(0);
}

std::vector<std::unique_ptr<Op>> DynamicSliceOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  const std::string &t = opid.type;
  if (t == "DynamicSlice")
    ops.push_back(std::make_unique<DynamicSliceGradOp>(*this, "Pad", 0));
  else if (t == "DynamicAdd")
    ops.push_back(std::make_unique<DynamicSliceGradOp>(*this, "Pass", 0));
  else
    ops.push_back(std::make_unique<DynamicSliceGradOp>(*this, "Zero", 0));
  if (t == "DynamicUpdate" || t == "DynamicAdd")
    ops.push_back(std::make_unique<DynamicSliceGradOp>(*this, "Slice", 2));
  return ops;
}

DynamicSliceGradOp::DynamicSliceGradOp(const DynamicSliceOp &fwd,
                                       const std::string &kind_, int arg)
    : GradOp(fwd, fwd.opid.type + kind_ + "Grad",
             {{0, 0, GradOpInType::GradOut}, {1, 1, GradOpInType::In}},
             {{0, arg}}),
      kind(kind_), axes(fwd.axes), sizes(fwd.sizes) {}

} // namespace popart
