// TensorProto files read into host tensors: well-formed ones, empty ones,
// and malformed ones refused with popart::error naming the file. (The
// malformed cases were found by fuzz/OnnxTensorFuzzer.cpp.)
#include <onnx_io/HostTensor.hpp>
#include <popart/error.hpp>

#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

std::string write(const std::string &name, const onnx::TensorProto &proto) {
  fs::create_directories(ONNX_IO_TEST_DIR);
  const std::string path = std::string(ONNX_IO_TEST_DIR) + "/" + name + ".pb";
  std::ofstream out(path, std::ios::binary);
  proto.SerializeToOstream(&out);
  return path;
}

onnx::TensorProto floats(std::vector<std::int64_t> dims, std::size_t rawBytes) {
  onnx::TensorProto proto;
  proto.set_name("t");
  proto.set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : dims)
    proto.add_dims(d);
  proto.set_raw_data(std::string(rawBytes, '\0'));
  return proto;
}

} // namespace

TEST_CASE("A tensor file reads back as it was written", "[onnx_io]") {
  onnx::TensorProto proto = floats({2, 3}, 0);
  std::string raw(24, '\0');
  for (int i = 0; i != 6; ++i) {
    const float v = float(i) / 2;
    std::memcpy(&raw[4 * i], &v, 4);
  }
  proto.set_raw_data(raw);
  const onnx_io::HostTensor t = onnx_io::readTensorProtoFile(write("two-by-three", proto));
  CHECK(t.info.shape() == popart::Shape{2, 3});
  CHECK(onnx_io::toDoubles(t) == std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5});
}

TEST_CASE("A tensor with no elements reads as an empty tensor", "[onnx_io]") {
  // Shape {0, 3, 4} with empty raw data, as in ONNX's own test data.
  const onnx_io::HostTensor t = onnx_io::readTensorProtoFile(write("empty", floats({0, 3, 4}, 0)));
  CHECK(t.info.shape() == popart::Shape{0, 3, 4});
  CHECK(t.bytes.empty());
  CHECK(onnx_io::compareElementwise(t, t, 0, 0).equal);
}

TEST_CASE("Raw data of the wrong length is an error naming the tensor", "[onnx_io]") {
  const std::string longer = write("longer", floats({1}, 5));
  CHECK_THROWS_AS(onnx_io::readTensorProtoFile(longer), popart::error);
  CHECK_THROWS_WITH(onnx_io::readTensorProtoFile(longer),
                    Catch::Contains("longer.pb") && Catch::Contains("'t'") &&
                        Catch::Contains("5 bytes of raw data for 1 elements of 4 bytes"));
  CHECK_THROWS_AS(onnx_io::readTensorProtoFile(write("shorter", floats({2, 2}, 12))),
                  popart::error);
}

TEST_CASE("Values in the field of another type are an error", "[onnx_io]") {
  // Found by fuzz/OnnxTensorFuzzer.cpp: a DOUBLE tensor with float_data was
  // copied as if float_data held doubles.
  onnx::TensorProto proto;
  proto.set_name("d");
  proto.set_data_type(onnx::TensorProto::DOUBLE);
  proto.add_dims(3);
  for (int i = 0; i != 3; ++i)
    proto.add_float_data(1.5f);
  const std::string path = write("double-in-float-data", proto);
  CHECK_THROWS_AS(onnx_io::readTensorProtoFile(path), popart::error);
  CHECK_THROWS_WITH(onnx_io::readTensorProtoFile(path),
                    Catch::Contains("'d'") && Catch::Contains("float_data"));
}

TEST_CASE("STRING tensors are read and written as string_data",
          "[onnx_io]") {
  onnx::TensorProto proto;
  proto.set_name("words");
  proto.set_data_type(onnx::TensorProto::STRING);
  proto.add_dims(1);
  proto.add_dims(3);
  for (const char *s : {"monday", "", "\xc3\x89t\xc3\xa9"})
    proto.add_string_data(s);
  const auto t = onnx_io::readTensorProtoFile(write("strings", proto));
  CHECK(t.info == popart::TensorInfo(popart::DataType::STRING, {1, 3}));
  CHECK(t.strings ==
        std::vector<std::string>{"monday", "", "\xc3\x89t\xc3\xa9"});
  CHECK(static_cast<const std::string *>(t.data())[2] == t.strings[2]);

  onnx::TensorProto back;
  onnx_io::toTensorProto(t, "words", back);
  CHECK(back.SerializeAsString() == proto.SerializeAsString());

  auto other = t;
  CHECK(onnx_io::compareElementwise(other, t, 0, 0).equal);
  other.strings[1] = "x";
  const auto c = onnx_io::compareElementwise(other, t, 0, 0);
  CHECK_FALSE(c.equal);
  CHECK(c.detail == "element 1 is \"x\", expected \"\"");
  CHECK_THROWS_AS(onnx_io::toDoubles(t), popart::error);

  proto.add_string_data("extra");
  CHECK_THROWS_WITH(onnx_io::readTensorProtoFile(write("strings4", proto)),
                    Catch::Contains("holds 4 values for shape with 3"));
}
