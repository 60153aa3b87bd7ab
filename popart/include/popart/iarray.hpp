#ifndef POPART_IARRAY_HPP
#define POPART_IARRAY_HPP

#include <popart/datatype.hpp>
#include <popart/names.hpp>

#include <cstddef>
#include <cstdint>

namespace popart {

/// A typed array of the user's, read or written by a step.
class IArray {
public:
  virtual ~IArray() = default;
  virtual void *data() = 0;
  virtual DataType dataType() const = 0;
  virtual std::size_t rank() const = 0;
  virtual int64_t dim(size_t index) const = 0;
  virtual std::size_t nelms() const = 0;
  virtual const Shape shape() const = 0;
};

} // namespace popart

#endif
