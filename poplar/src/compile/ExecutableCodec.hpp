// The contents of an executable file: the lowered programs, storage plans
// and host handles of Executable::Impl, and the IPU Model's estimates.
// ExecutableFile.cpp wraps them with the header and checksum.
#ifndef POPLAR_SRC_COMPILE_EXECUTABLECODEC_HPP
#define POPLAR_SRC_COMPILE_EXECUTABLECODEC_HPP

#include "compile/BinaryStream.hpp"
#include "compile/ExecutableImpl.hpp"

#include <memory>
#include <vector>

namespace poplar {

namespace model {
struct Estimates;
}

namespace codec {

/// Vertex types name their codelet library by its index in this list.
using Libraries = std::vector<std::shared_ptr<const CodeletLibrary>>;

void writeType(binary::Writer &w, const Type &t);
Type readType(binary::Reader &r);

/// Writes everything but the target, the name and the codelet libraries
/// (which the file header and its library section hold); `libraries`
/// gets the libraries the vertex types use, in the order written.
void writeExecutable(binary::Writer &w, const Executable::Impl &exe,
                     Libraries &libraries);
/// Reads what writeExecutable wrote; vertex types are looked up in
/// `libraries` (loaded already). Throws binary::DecodeError.
void readExecutable(binary::Reader &r, Executable::Impl &exe,
                    const Libraries &libraries);

void writeEstimates(binary::Writer &w, const model::Estimates &e);
std::shared_ptr<const model::Estimates> readEstimates(binary::Reader &r,
                                                      const Target &target);

} // namespace codec
} // namespace poplar

#endif // POPLAR_SRC_COMPILE_EXECUTABLECODEC_HPP
