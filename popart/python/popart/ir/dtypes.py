"""The data types of popart.ir, with their numpy and Python counterparts.

int64 and uint64 are held on the device as int32 and uint32 (the session
option enableSupportedDataTypeCasting, on by default)."""

import builtins

import numpy as np

__all__ = ["dtype", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
           "uint32", "uint64", "float16", "half", "float32", "float", "float64",
           "double"]


class dtype:
    """A data type of popart.ir tensors."""

    _by_numpy = {}
    _by_python = {}
    _by_popart = {}

    def __init__(self, name, popart_name, onnx_type, is_int, is_floating_point,
                 is_signed, np_type, py_type=None, alias=None):
        self._name = name
        self._popart_name = popart_name
        self._onnx_type = onnx_type
        self._is_int = is_int
        self._is_floating_point = is_floating_point
        self._is_signed = is_signed
        self._np = np.dtype(np_type)
        self._alias = alias
        dtype._by_numpy[self._np] = self
        dtype._by_popart[popart_name] = self
        if py_type is not None:
            dtype._by_python[py_type] = self

    @property
    def name(self):
        return self._name

    @property
    def is_int(self):
        return self._is_int

    @property
    def is_floating_point(self):
        return self._is_floating_point

    @property
    def is_signed(self):
        return self._is_signed

    def as_numpy(self):
        """The numpy dtype."""
        return self._np

    def _popart(self):
        """The name of the popart DataType ("FLOAT", ...)."""
        return self._popart_name

    @classmethod
    def as_dtype(cls, value):
        """The dtype of a dtype, a numpy dtype (or what numpy takes as one),
        a Python type (bool, int, float) or a popart type name."""
        if isinstance(value, dtype):
            return value
        if isinstance(value, str) and value in cls._by_popart:
            return cls._by_popart[value]
        if value in cls._by_python:
            return cls._by_python[value]
        try:
            np_type = np.dtype(value)
        except TypeError:
            raise TypeError(f"{value!r} is not a data type of popart.ir") from None
        if np_type not in cls._by_numpy:
            raise TypeError(f"popart.ir has no data type for numpy's {np_type}")
        return cls._by_numpy[np_type]

    def __repr__(self):
        return f"popart.ir.{self._name}"


bool = dtype("bool", "BOOL", 9, False, False, False, np.bool_, builtins.bool)
int8 = dtype("int8", "INT8", 3, True, False, True, np.int8)
int16 = dtype("int16", "INT16", 5, True, False, True, np.int16)
int32 = dtype("int32", "INT32", 6, True, False, True, np.int32, builtins.int)
int64 = dtype("int64", "INT64", 7, True, False, True, np.int64)
uint8 = dtype("uint8", "UINT8", 2, True, False, False, np.uint8)
uint16 = dtype("uint16", "UINT16", 4, True, False, False, np.uint16)
uint32 = dtype("uint32", "UINT32", 12, True, False, False, np.uint32)
uint64 = dtype("uint64", "UINT64", 13, True, False, False, np.uint64)
float16 = dtype("float16", "FLOAT16", 10, False, True, True, np.float16, alias="half")
float32 = dtype("float32", "FLOAT", 1, False, True, True, np.float32, builtins.float,
                alias="float")
float64 = dtype("float64", "DOUBLE", 11, False, True, True, np.float64, alias="double")
half = float16
float = float32
double = float64
