// Sequence and optional values read from and written to SequenceProto and
// OptionalProto files, their element tensors as ModelRunner names them, and
// files that do not hold what the model's type says refused with
// popart::error naming the file.
#include <onnx_io/HostValue.hpp>
#include <popart/error.hpp>

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

template <typename Proto>
std::string write(const std::string &name, const Proto &proto) {
  fs::create_directories(ONNX_IO_TEST_DIR);
  const std::string path =
      std::string(ONNX_IO_TEST_DIR) + "/value_" + name + ".pb";
  std::ofstream out(path, std::ios::binary);
  proto.SerializeToOstream(&out);
  return path;
}

void floats(onnx::TensorProto &t, std::vector<int64_t> dims,
            std::vector<float> values) {
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : dims)
    t.add_dims(d);
  for (float v : values)
    t.add_float_data(v);
}

onnx::TypeProto sequenceOfFloats() {
  onnx::TypeProto type;
  type.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()
      ->set_elem_type(onnx::TensorProto::FLOAT);
  return type;
}

onnx::TypeProto optionalOf(const onnx::TypeProto &held) {
  onnx::TypeProto type;
  *type.mutable_optional_type()->mutable_elem_type() = held;
  return type;
}

} // namespace

TEST_CASE("A sequence file reads as its elements, named name[k]",
          "[onnx_io]") {
  onnx::SequenceProto proto;
  proto.set_name("s");
  proto.set_elem_type(onnx::SequenceProto::TENSOR);
  floats(*proto.add_tensor_values(), {2}, {1.5f, -2});
  floats(*proto.add_tensor_values(), {1, 3}, {3, 4, 5});
  const auto path = write("sequence", proto);

  const auto value = onnx_io::readValueFile(path, sequenceOfFloats());
  REQUIRE(value.kind == onnx_io::HostValue::Kind::Sequence);
  REQUIRE(value.elements.size() == 2);
  CHECK(onnx_io::toDoubles(value.elements[0].tensor) ==
        std::vector<double>{1.5, -2});
  CHECK(value.elements[1].tensor.info.shape() == popart::Shape{1, 3});
  const auto tensors = onnx_io::flatten(value, "s");
  REQUIRE(tensors.size() == 2);
  CHECK(tensors[0].first == "s[0]");
  CHECK(tensors[1].first == "s[1]");
  CHECK(onnx_io::toDoubles(tensors[1].second) == std::vector<double>{3, 4, 5});

  // Written and read back: the same value.
  const std::string copy = std::string(ONNX_IO_TEST_DIR) + "/value_copy.pb";
  onnx_io::writeValueFile(value, "s", copy);
  const auto again = onnx_io::readValueFile(copy, sequenceOfFloats());
  CHECK(onnx_io::compareValues(again, value, 0, 0).equal);

  // One element changed, one fewer: both reported.
  auto changed = value;
  changed.elements[1].tensor.bytes[3] ^= 0x40; // the exponent of 3
  CHECK_FALSE(onnx_io::compareValues(changed, value, 1e-3, 1e-7).equal);
  changed.elements.pop_back();
  const auto shorter = onnx_io::compareValues(changed, value, 1e-3, 1e-7);
  CHECK_FALSE(shorter.equal);
  CHECK(shorter.detail.find("sequence of 1") != std::string::npos);
}

TEST_CASE("Optional files: empty, holding a tensor, holding a sequence",
          "[onnx_io]") {
  onnx::TypeProto tensorType;
  tensorType.mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);

  onnx::OptionalProto empty;
  empty.set_name("o");
  const auto none =
      onnx_io::readValueFile(write("empty", empty), optionalOf(tensorType));
  CHECK(none.kind == onnx_io::HostValue::Kind::Optional);
  CHECK(none.elements.empty());
  CHECK(onnx_io::flatten(none, "o").empty());

  onnx::OptionalProto held;
  held.set_name("o");
  held.set_elem_type(onnx::OptionalProto::TENSOR);
  floats(*held.mutable_tensor_value(), {3}, {7, 8, 9});
  const auto tensor =
      onnx_io::readValueFile(write("tensor", held), optionalOf(tensorType));
  REQUIRE(tensor.elements.size() == 1);
  CHECK(onnx_io::flatten(tensor, "o").at(0).first == "o[0]");
  CHECK_FALSE(onnx_io::compareValues(none, tensor, 0, 0).equal);

  onnx::OptionalProto ofSequence;
  ofSequence.set_elem_type(onnx::OptionalProto::SEQUENCE);
  auto *seq = ofSequence.mutable_sequence_value();
  seq->set_elem_type(onnx::SequenceProto::TENSOR);
  floats(*seq->add_tensor_values(), {2}, {1, 2});
  floats(*seq->add_tensor_values(), {2}, {3, 4});
  const auto path = write("of_sequence", ofSequence);
  const auto value = onnx_io::readValueFile(path, optionalOf(sequenceOfFloats()));
  REQUIRE(value.elements.size() == 1);
  CHECK(value.elements[0].elements.size() == 2);
  const auto tensors = onnx_io::flatten(value, "o");
  REQUIRE(tensors.size() == 2);
  CHECK(tensors[1].first == "o[1]");
  CHECK(onnx_io::toDoubles(tensors[1].second) == std::vector<double>{3, 4});

  // An optional holding a sequence where the model expects a tensor.
  CHECK_THROWS_WITH(onnx_io::readValueFile(path, optionalOf(tensorType)),
                    Catch::Contains(path) && Catch::Contains("sequence"));
}

TEST_CASE("A file that is not the kind the type says is refused",
          "[onnx_io]") {
  const std::string path = std::string(ONNX_IO_TEST_DIR) + "/value_junk.pb";
  fs::create_directories(ONNX_IO_TEST_DIR);
  std::ofstream(path, std::ios::binary) << "\xff\xff\xff";
  CHECK_THROWS_WITH(onnx_io::readValueFile(path, sequenceOfFloats()),
                    Catch::Contains(path) &&
                        Catch::Contains("SequenceProto"));
  onnx::TypeProto mapType;
  mapType.mutable_map_type()->set_key_type(onnx::TensorProto::INT64);
  CHECK_THROWS_WITH(onnx_io::readValueFile(path, mapType),
                    Catch::Contains(path));
}
