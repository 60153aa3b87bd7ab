// poplar::replication_factor, declared with the Graph constructors that take it.
#ifndef POPLAR_REPLICATION_FACTOR_HPP
#define POPLAR_REPLICATION_FACTOR_HPP

#include <poplar/Graph.hpp>

#endif // POPLAR_REPLICATION_FACTOR_HPP
