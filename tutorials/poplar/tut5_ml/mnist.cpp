#include "mnist.h"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace {

std::vector<unsigned char> readFileBytes(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw std::runtime_error("cannot open " + path +
                             " (run ./get_data.sh to unpack the data)");
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(file),
                                    std::istreambuf_iterator<char>());
}

std::uint32_t readBigEndian32(const std::vector<unsigned char> &b,
                              std::size_t offset) {
  return std::uint32_t(b[offset]) << 24 | std::uint32_t(b[offset + 1]) << 16 |
         std::uint32_t(b[offset + 2]) << 8 | std::uint32_t(b[offset + 3]);
}

// The dimensions of an IDX file of unsigned bytes with `rank` dimensions;
// the elements start at 4 + 4 * rank.
std::vector<std::uint32_t> idxDimensions(const std::vector<unsigned char> &b,
                                         unsigned rank,
                                         const std::string &path) {
  const std::size_t header = 4 + 4 * std::size_t(rank);
  if (b.size() < header || readBigEndian32(b, 0) != (0x0800u | rank))
    throw std::runtime_error(path + " is not an IDX file of unsigned bytes "
                                    "with " + std::to_string(rank) +
                             " dimensions");
  std::vector<std::uint32_t> dims(rank);
  std::size_t elements = 1;
  for (unsigned i = 0; i != rank; ++i) {
    dims[i] = readBigEndian32(b, 4 + 4 * i);
    elements *= dims[i];
  }
  if (b.size() < header + elements)
    throw std::runtime_error(path + " is shorter than its header says");
  return dims;
}

} // namespace

std::vector<float> readMNISTData(unsigned &numberOfImages, unsigned &imageSize,
                                 const std::string &path) {
  const std::vector<unsigned char> bytes = readFileBytes(path);
  const std::vector<std::uint32_t> dims = idxDimensions(bytes, 3, path);
  numberOfImages = dims[0];
  imageSize = dims[1] * dims[2];
  std::vector<float> data(std::size_t(numberOfImages) * imageSize);
  for (std::size_t i = 0; i != data.size(); ++i)
    data[i] = bytes[16 + i] / 255.0f;
  return data;
}

std::vector<unsigned> readMNISTLabels(const std::string &path) {
  const std::vector<unsigned char> bytes = readFileBytes(path);
  const std::vector<std::uint32_t> dims = idxDimensions(bytes, 1, path);
  return std::vector<unsigned>(bytes.begin() + 8, bytes.begin() + 8 + dims[0]);
}
