// Cycle estimators registered with vertex types, and the view of a vertex
// they are given.
#include "graph/GraphImpl.hpp"

#include "codelet/CodeletLibrary.hpp"
#include "core/ElementConversion.hpp"
#include "core/TypeInfo.hpp"

#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {

std::size_t FieldData::getSizeAtIndex(std::size_t i) const {
  if (i >= items.size())
    throw index_error("FieldData::getSizeAtIndex: item " + std::to_string(i) +
                      " of a field with " + std::to_string(items.size()) +
                      " items");
  return items[i];
}

FieldData FieldData::operator[](std::size_t i) const {
  return FieldData(getSizeAtIndex(i), {}, type, {}, layout::Vector::Span);
}

void FieldData::readState(const Type &hostType, void *out, std::size_t n) const {
  if (state.empty())
    throw poplar_error("FieldData: the field holds no vertex state values");
  if (n * typeSize(type) > state.size())
    throw index_error("FieldData: " + std::to_string(n) +
                      " values asked of a field holding fewer");
  convertElements(type, state.data(), hostType, out, n);
}

FieldData VertexIntrospector::getFieldInfo(const std::string &name) const {
  for (std::size_t i = 0; i != names.size(); ++i)
    if (names[i] == name)
      return fields[i];
  throw unknown_field("VertexIntrospector::getFieldInfo: the vertex has no "
                      "field '" + name + "'");
}

void Graph::registerPerfEstimator(StringRef vertexTypeName, PerfEstimateFunc f) {
  impl->perfEstimators[normaliseVertexName(vertexTypeName.str())] = std::move(f);
}

} // namespace poplar
