// The codelet field types (Input, Output, InOut, Vector, VectorList), declared with the vertex base classes.
#ifndef POPLAR_INOUTTYPES_HPP
#define POPLAR_INOUTTYPES_HPP

#include <poplar/Vertex.hpp>

#endif // POPLAR_INOUTTYPES_HPP
