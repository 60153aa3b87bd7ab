// Little-endian binary encoding for executable files. The reader checks
// every length against the bytes left, so a damaged file is an error with
// a reason, never a read past the end or a huge allocation.
#ifndef POPLAR_SRC_COMPILE_BINARYSTREAM_HPP
#define POPLAR_SRC_COMPILE_BINARYSTREAM_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace poplar::binary {

/// Thrown by Reader when the bytes do not hold what is asked for; the
/// caller turns it into an error naming the file.
struct DecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Writer {
public:
  std::string &bytes() { return out; }

  template <typename T> void pod(T value) {
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
    if constexpr (std::is_enum_v<T>) {
      u64(static_cast<std::uint64_t>(value));
    } else if constexpr (std::is_same_v<T, bool>) {
      out.push_back(value ? 1 : 0);
    } else if constexpr (std::is_floating_point_v<T>) {
      double d = value;
      char raw[8];
      std::memcpy(raw, &d, 8);
      out.append(raw, 8);
    } else {
      u64(static_cast<std::uint64_t>(value));
    }
  }
  void u64(std::uint64_t v) {
    // Variable length: most counts and indices are small.
    while (v >= 0x80) {
      out.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<char>(v));
  }
  void i64(std::int64_t v) { // zig-zag, so small negatives stay small
    u64((static_cast<std::uint64_t>(v) << 1) ^
        static_cast<std::uint64_t>(v >> 63));
  }
  void str(const std::string &s) {
    u64(s.size());
    out.append(s);
  }
  void raw(const void *data, std::size_t n) {
    u64(n);
    out.append(static_cast<const char *>(data), n);
  }
  template <typename T> void vec(const std::vector<T> &v) {
    u64(v.size());
    for (const T &x : v)
      pod(x);
  }

private:
  std::string out;
};

class Reader {
public:
  Reader(const char *begin, std::size_t size) : p(begin), end(begin + size) {}

  std::size_t left() const { return static_cast<std::size_t>(end - p); }
  bool done() const { return p == end; }

  template <typename T> T pod() {
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
    if constexpr (std::is_enum_v<T>) {
      return static_cast<T>(u64());
    } else if constexpr (std::is_same_v<T, bool>) {
      need(1);
      return *p++ != 0;
    } else if constexpr (std::is_floating_point_v<T>) {
      need(8);
      double d;
      std::memcpy(&d, p, 8);
      p += 8;
      return static_cast<T>(d);
    } else {
      return static_cast<T>(u64());
    }
  }
  template <typename T> void pod(T &into) { into = pod<T>(); }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      need(1);
      const auto byte = static_cast<unsigned char>(*p++);
      v |= std::uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return v;
    }
    throw DecodeError("an integer is longer than 64 bits");
  }
  std::int64_t i64() {
    const std::uint64_t z = u64();
    return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
  }
  /// A count of items each at least `minBytes` long: checked against what
  /// is left so that a damaged count cannot ask for a huge allocation.
  std::size_t count(std::size_t minBytes = 1) {
    const std::uint64_t n = u64();
    if (minBytes != 0 && n > left() / minBytes)
      throw DecodeError("a count (" + std::to_string(n) +
                        ") is larger than the bytes that follow");
    return static_cast<std::size_t>(n);
  }
  std::string str() {
    const std::size_t n = count();
    std::string s(p, n);
    p += n;
    return s;
  }
  template <typename T> void raw(std::vector<T> &v) {
    static_assert(sizeof(T) == 1);
    const std::size_t n = count();
    v.assign(reinterpret_cast<const T *>(p), reinterpret_cast<const T *>(p + n));
    p += n;
  }
  template <typename T> void vec(std::vector<T> &v) {
    v.resize(count());
    for (T &x : v)
      pod(x);
  }

private:
  void need(std::size_t n) const {
    if (left() < n)
      throw DecodeError("it ends in the middle of a record");
  }
  const char *p;
  const char *end;
};

} // namespace poplar::binary

#endif // POPLAR_SRC_COMPILE_BINARYSTREAM_HPP
