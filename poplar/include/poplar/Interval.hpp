#ifndef POPLAR_INTERVAL_HPP
#define POPLAR_INTERVAL_HPP

#include <cstddef>
#include <ostream>

namespace poplar {

/// A half-open range [begin, end).
template <class T> class GenericInterval {
public:
  GenericInterval() = default;
  GenericInterval(T begin, T end) : begin_(begin), end_(end) {}

  const T &begin() const { return begin_; }
  const T &end() const { return end_; }
  T size() const { return end_ - begin_; }
  const T &lower() const { return begin_; }
  const T &upper() const { return end_; }

  friend bool operator==(const GenericInterval &a, const GenericInterval &b) {
    return a.begin_ == b.begin_ && a.end_ == b.end_;
  }
  friend bool operator!=(const GenericInterval &a, const GenericInterval &b) {
    return !(a == b);
  }
  friend bool operator<(const GenericInterval &a, const GenericInterval &b) {
    return a.begin_ < b.begin_ || (a.begin_ == b.begin_ && a.end_ < b.end_);
  }
  friend std::ostream &operator<<(std::ostream &os, const GenericInterval &i) {
    return os << '[' << i.begin_ << ',' << i.end_ << ')';
  }

private:
  T begin_{};
  T end_{};
};

using Interval = GenericInterval<std::size_t>;

} // namespace poplar

#endif // POPLAR_INTERVAL_HPP
