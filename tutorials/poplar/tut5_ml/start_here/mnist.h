// Reading the MNIST data set (and data sets in its format, such as
// Fashion-MNIST): IDX files, gzip-compressed or not, read with zlib.
//
// An IDX file is a big-endian header (a magic number whose last byte is
// the number of dimensions, then each dimension) followed by the
// elements, unsigned bytes here. Images are [count][rows][columns],
// labels [count].
#ifndef TUT5_MNIST_H
#define TUT5_MNIST_H

#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

// The whole of a file, decompressed if it is gzip'd (zlib reads plain
// files unchanged).
inline std::vector<unsigned char> readFileBytes(const std::string &path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr)
    throw std::runtime_error("cannot open " + path);
  std::vector<unsigned char> bytes;
  unsigned char buffer[1 << 16];
  int n;
  while ((n = gzread(f, buffer, sizeof buffer)) > 0)
    bytes.insert(bytes.end(), buffer, buffer + n);
  const bool failed = n < 0;
  gzclose(f);
  if (failed)
    throw std::runtime_error("cannot decompress " + path);
  return bytes;
}

// "<dir>/<name>.gz" if it exists, else "<dir>/<name>".
inline std::string findIdxFile(const std::string &dir, const std::string &name) {
  const std::string gz = dir + "/" + name + ".gz";
  if (std::ifstream(gz).good())
    return gz;
  return dir + "/" + name;
}

inline std::uint32_t readBigEndian32(const std::vector<unsigned char> &b,
                                     std::size_t offset) {
  return std::uint32_t(b[offset]) << 24 | std::uint32_t(b[offset + 1]) << 16 |
         std::uint32_t(b[offset + 2]) << 8 | std::uint32_t(b[offset + 3]);
}

// The dimensions of an IDX file of unsigned bytes with `rank` dimensions;
// the elements start at 4 + 4 * rank.
inline std::vector<std::uint32_t>
idxDimensions(const std::vector<unsigned char> &b, unsigned rank,
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

// Images as floats in [0, 1], one row of rows * columns pixels each.
inline std::vector<float> readMNISTData(unsigned &numberOfImages,
                                        unsigned &imageSize,
                                        const std::string &path) {
  const auto bytes = readFileBytes(path);
  const auto dims = idxDimensions(bytes, 3, path);
  numberOfImages = dims[0];
  imageSize = dims[1] * dims[2];
  std::vector<float> data(std::size_t(numberOfImages) * imageSize);
  for (std::size_t i = 0; i != data.size(); ++i)
    data[i] = bytes[16 + i] / 255.0f;
  return data;
}

inline std::vector<unsigned> readMNISTLabels(const std::string &path) {
  const auto bytes = readFileBytes(path);
  const auto dims = idxDimensions(bytes, 1, path);
  return std::vector<unsigned>(bytes.begin() + 8, bytes.begin() + 8 + dims[0]);
}

#endif // TUT5_MNIST_H
