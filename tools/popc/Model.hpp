// What popc learns about the vertex types of a source file.
#ifndef POPC_MODEL_HPP
#define POPC_MODEL_HPP

#include "Diagnostics.hpp"

#include <string>
#include <vector>

namespace popc {

enum class FieldKind { Input, Output, InOut, State };
enum class FieldShape { Scalar, Vector, List };

/// What a field's type means to the runtime; mirrors detail::FieldTraits
/// of poplar/detail/CodeletInterface.hpp.
struct FieldType {
  bool supported = false;
  FieldKind kind = FieldKind::State;
  FieldShape shape = FieldShape::Scalar;
  FieldShape itemShape = FieldShape::Scalar; // List only
  std::string elementType;                   // "float", "unsigned int", ...
};

struct FieldModel {
  std::string name;
  SourcePos pos;
  /// False when the type depends on template arguments popc could not
  /// follow (a field of a dependent base class template); the generated
  /// code then has the compiler check it.
  bool typeKnown = true;
  FieldType type;
  std::string typeSpelling;
};

struct VertexModel {
  std::string name;    // the registered name
  std::string cppType; // names the type in the generated code
  SourcePos pos;       // the class (template) declaration
  std::string file;    // its absolute path, for VertexInfo::file
  std::vector<FieldModel> fields; // inherited fields first
};

const char *kindName(FieldKind k);
const char *shapeName(FieldShape s);

} // namespace popc

#endif // POPC_MODEL_HPP
