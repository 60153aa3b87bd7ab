#include <onnx_io/HostValue.hpp>

#include <popart/error.hpp>

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include <fstream>
#include <sstream>

namespace onnx_io {
namespace {

template <typename Proto> Proto parseFile(const std::string &path,
                                          const char *what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw popart::error("cannot open value file '{}'", path);
  Proto proto;
  if (!proto.ParseFromIstream(&in))
    throw popart::error("'{}' is not a serialised onnx {}", path, what);
  return proto;
}

HostValue fromSequenceProto(const onnx::SequenceProto &proto,
                            const HostValue &form, const std::string &path) {
  if (proto.elem_type() != onnx::SequenceProto::TENSOR &&
      !(proto.elem_type() == onnx::SequenceProto::UNDEFINED &&
        proto.tensor_values_size() == 0))
    throw popart::error("{}: sequence '{}' holds elements of kind {}; only "
                        "sequences of tensors are supported",
                        path, proto.name(), proto.elem_type());
  HostValue v = form;
  for (const auto &t : proto.tensor_values())
    v.elements.push_back(HostValue::ofTensor(fromTensorProto(t, path)));
  return v;
}

void toSequenceProto(const HostValue &value, const std::string &name,
                     onnx::SequenceProto &proto) {
  proto.set_name(name);
  proto.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const auto &e : value.elements)
    toTensorProto(e.tensor, "", *proto.add_tensor_values());
}

} // namespace

HostValue HostValue::ofTensor(HostTensor t) {
  HostValue v;
  v.tensor = std::move(t);
  return v;
}

HostValue formOf(const onnx::TypeProto &type, const std::string &what) {
  HostValue v;
  switch (type.value_case()) {
  case onnx::TypeProto::kTensorType:
    return v;
  case onnx::TypeProto::kSequenceType: {
    const auto &elem = type.sequence_type().elem_type();
    if (!elem.has_tensor_type())
      throw popart::error("{}: only sequences of tensors are supported", what);
    v.kind = HostValue::Kind::Sequence;
    v.elementType = elem.tensor_type().elem_type();
    return v;
  }
  case onnx::TypeProto::kOptionalType: {
    const auto &elem = type.optional_type().elem_type();
    v.kind = HostValue::Kind::Optional;
    if (elem.has_sequence_type()) {
      v.ofSequence = true;
      formOf(elem, what); // checks the sequence's elements
      v.elementType = elem.sequence_type().elem_type().tensor_type().elem_type();
    } else if (elem.has_tensor_type()) {
      v.elementType = elem.tensor_type().elem_type();
    } else {
      throw popart::error("{}: only optionals of tensors or of sequences of "
                          "tensors are supported",
                          what);
    }
    return v;
  }
  default:
    throw popart::error("{}: values of this ONNX type (case {}) are not "
                        "supported",
                        what, int(type.value_case()));
  }
}

HostValue readValueFile(const std::string &path, const onnx::TypeProto &type) {
  const HostValue form = formOf(type, path);
  switch (form.kind) {
  case HostValue::Kind::Tensor:
    return HostValue::ofTensor(readTensorProtoFile(path));
  case HostValue::Kind::Sequence:
    return fromSequenceProto(
        parseFile<onnx::SequenceProto>(path, "SequenceProto"), form, path);
  case HostValue::Kind::Optional: {
    const auto proto = parseFile<onnx::OptionalProto>(path, "OptionalProto");
    HostValue v = form;
    if (proto.has_tensor_value()) {
      if (form.ofSequence)
        throw popart::error("{}: optional '{}' holds a tensor, but the model "
                            "expects a sequence",
                            path, proto.name());
      v.elements.push_back(
          HostValue::ofTensor(fromTensorProto(proto.tensor_value(), path)));
    } else if (proto.has_sequence_value()) {
      if (!form.ofSequence)
        throw popart::error("{}: optional '{}' holds a sequence, but the "
                            "model expects a tensor",
                            path, proto.name());
      HostValue seq;
      seq.kind = HostValue::Kind::Sequence;
      seq.elementType = form.elementType;
      v.elements.push_back(fromSequenceProto(proto.sequence_value(), seq, path));
    } else if (proto.elem_type() != onnx::OptionalProto::UNDEFINED) {
      throw popart::error("{}: optional '{}' holds a value of a kind ({}) "
                          "that is not supported",
                          path, proto.name(), proto.elem_type());
    }
    return v;
  }
  }
  return form;
}

void writeValueFile(const HostValue &value, const std::string &name,
                    const std::string &path) {
  std::string bytes;
  switch (value.kind) {
  case HostValue::Kind::Tensor: {
    onnx::TensorProto proto;
    toTensorProto(value.tensor, name, proto);
    proto.SerializeToString(&bytes);
    break;
  }
  case HostValue::Kind::Sequence: {
    onnx::SequenceProto proto;
    toSequenceProto(value, name, proto);
    proto.SerializeToString(&bytes);
    break;
  }
  case HostValue::Kind::Optional: {
    onnx::OptionalProto proto;
    proto.set_name(name);
    if (!value.elements.empty()) {
      const HostValue &held = value.elements[0];
      if (held.kind == HostValue::Kind::Sequence) {
        proto.set_elem_type(onnx::OptionalProto::SEQUENCE);
        toSequenceProto(held, "", *proto.mutable_sequence_value());
      } else {
        proto.set_elem_type(onnx::OptionalProto::TENSOR);
        toTensorProto(held.tensor, "", *proto.mutable_tensor_value());
      }
    }
    proto.SerializeToString(&bytes);
    break;
  }
  }
  std::ofstream file(path, std::ios::binary);
  if (!file || !file.write(bytes.data(), std::streamsize(bytes.size())))
    throw popart::error("cannot write '{}'", path);
}

std::vector<std::pair<std::string, HostTensor>>
flatten(const HostValue &value, const std::string &name) {
  std::vector<std::pair<std::string, HostTensor>> tensors;
  switch (value.kind) {
  case HostValue::Kind::Tensor:
    tensors.emplace_back(name, value.tensor);
    break;
  case HostValue::Kind::Sequence:
    for (std::size_t k = 0; k < value.elements.size(); ++k)
      tensors.emplace_back(name + "[" + std::to_string(k) + "]",
                           value.elements[k].tensor);
    break;
  case HostValue::Kind::Optional:
    if (!value.elements.empty()) {
      const HostValue &held = value.elements[0];
      if (held.kind == HostValue::Kind::Sequence)
        return flatten(held, name);
      tensors.emplace_back(name + "[0]", held.tensor);
    }
    break;
  }
  return tensors;
}

Comparison compareValues(const HostValue &actual, const HostValue &expected,
                         double rtol, double atol) {
  if (actual.kind != expected.kind)
    return {false, "is " + describe(actual) + ", expected " +
                       describe(expected)};
  if (actual.kind == HostValue::Kind::Tensor)
    return compareElementwise(actual.tensor, expected.tensor, rtol, atol);
  if (actual.elements.size() != expected.elements.size())
    return {false, "is " + describe(actual) + ", expected " +
                       describe(expected)};
  Comparison all{true, ""};
  for (std::size_t k = 0; k < actual.elements.size(); ++k) {
    const auto &a = actual.elements[k];
    const auto &e = expected.elements[k];
    if (a.kind == HostValue::Kind::Tensor &&
        a.tensor.info.shape() != e.tensor.info.shape()) {
      using popart::operator<<;
      std::ostringstream s;
      s << "element " << k << " has shape " << a.tensor.info.shape()
        << ", expected " << e.tensor.info.shape();
      return {false, s.str()};
    }
    auto c = compareValues(a, e, rtol, atol);
    if (!c.equal)
      return {false, "element " + std::to_string(k) + ": " + c.detail};
  }
  return all;
}

std::string describe(const HostValue &value) {
  std::ostringstream s;
  switch (value.kind) {
  case HostValue::Kind::Tensor:
    s << value.tensor.info;
    break;
  case HostValue::Kind::Sequence:
    s << "sequence of " << value.elements.size() << " (";
    for (std::size_t k = 0; k < value.elements.size(); ++k)
      s << (k ? ", " : "") << describe(value.elements[k]);
    s << ")";
    break;
  case HostValue::Kind::Optional:
    s << "optional ("
      << (value.elements.empty() ? "empty" : describe(value.elements[0]))
      << ")";
    break;
  }
  return s.str();
}

} // namespace onnx_io
