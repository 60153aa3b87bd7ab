// poplar::Executable and compileGraph, declared with the Engine that runs them.
#ifndef POPLAR_EXECUTABLE_HPP
#define POPLAR_EXECUTABLE_HPP

#include <poplar/Engine.hpp>

#endif // POPLAR_EXECUTABLE_HPP
