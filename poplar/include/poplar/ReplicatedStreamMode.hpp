// poplar::ReplicatedStreamMode, declared with the data streams it applies to.
#ifndef POPLAR_REPLICATEDSTREAMMODE_HPP
#define POPLAR_REPLICATEDSTREAMMODE_HPP

#include <poplar/DataStream.hpp>

#endif // POPLAR_REPLICATEDSTREAMMODE_HPP
