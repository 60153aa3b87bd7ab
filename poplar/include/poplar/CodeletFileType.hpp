#ifndef POPLAR_CODELETFILETYPE_HPP
#define POPLAR_CODELETFILETYPE_HPP

namespace poplar {

/// What Graph::addCodelets is given. Auto decides from the file extension:
/// .cpp/.cc/.cxx/.C are C++ source, .gp/.o are compiled graph program
/// objects, .S/.s assembly, .c C source.
enum class CodeletFileType {
  PreprocessedAsmSource,
  AsmSource,
  PreprocessedCSource,
  CSource,
  PreprocessedCppSource,
  CppSource,
  IntermediateAsm,
  Object,
  Auto
};

} // namespace poplar

#endif // POPLAR_CODELETFILETYPE_HPP
