#ifndef POPART_DATATYPE_HPP
#define POPART_DATATYPE_HPP

namespace popart {

/// Element types of tensors, as the original numbers them.
enum class DataType {
  UINT8 = 0,
  INT8,
  FLOAT8_143,
  FLOAT8_152,
  UINT16,
  INT16,
  INT32,
  INT64,
  UINT32,
  UINT64,
  BOOL,
  FLOAT,
  FLOAT16,
  BFLOAT16,
  DOUBLE,
  COMPLEX64,
  COMPLEX128,
  STRING,
  UNDEFINED,
};

} // namespace popart

#endif
