// poplar::VertexIntrospector and FieldData, declared with the cycle estimator functions that receive them.
#ifndef POPLAR_VERTEXINTROSPECTOR_HPP
#define POPLAR_VERTEXINTROSPECTOR_HPP

#include <poplar/PerfEstimateFunc.hpp>

#endif // POPLAR_VERTEXINTROSPECTOR_HPP
