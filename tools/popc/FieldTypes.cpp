#include "FieldTypes.hpp"

#include "Clang.hpp"
#include "Naming.hpp"

namespace popc {

const char *const supportedFieldTypes =
    "a field must be Input, Output or InOut of a scalar, Vector<scalar> or "
    "VectorList<scalar>; a Vector of such edges (not of VectorLists); a "
    "scalar; or a Vector of scalars. The scalars are float, half, bool, "
    "char, signed char, unsigned char, short, unsigned short, int, unsigned "
    "int and 64-bit integers";

const char *kindName(FieldKind k) {
  switch (k) {
  case FieldKind::Input:
    return "Input";
  case FieldKind::Output:
    return "Output";
  case FieldKind::InOut:
    return "InOut";
  case FieldKind::State:
    return "State";
  }
  return "?";
}

const char *shapeName(FieldShape s) {
  switch (s) {
  case FieldShape::Scalar:
    return "Scalar";
  case FieldShape::Vector:
    return "Vector";
  case FieldShape::List:
    return "List";
  }
  return "?";
}

namespace {

CXType canonical(CXType t) { return clang_getCanonicalType(t); }

bool isQualified(CXType t) {
  return clang_isConstQualifiedType(t) || clang_isVolatileQualifiedType(t);
}

// The qualified name of a record type's class, without arguments.
std::string recordName(CXType t) {
  if (t.kind != CXType_Record)
    return "";
  CXCursor decl = clang_getTypeDeclaration(t);
  CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  if (!isNull(tmpl))
    return scopePrefix(tmpl) + spelling(tmpl);
  return scopePrefix(decl) + spelling(decl);
}

CXType argument(CXType t, unsigned i) {
  return canonical(clang_Type_getTemplateArgumentAsType(t, i));
}

// The Poplar type name of a scalar element type (cv-qualifiers ignored,
// as detail::elementTypeName does), or "".
std::string elementName(CXType t) {
  t = canonical(t);
  bool is64 = clang_Type_getSizeOf(t) == 8;
  switch (t.kind) {
  case CXType_Float:
    return "float";
  case CXType_Bool:
    return "bool";
  case CXType_Char_S:
  case CXType_Char_U:
    return "char";
  case CXType_SChar:
    return "signed char";
  case CXType_UChar:
    return "unsigned char";
  case CXType_Short:
    return "short";
  case CXType_UShort:
    return "unsigned short";
  case CXType_Int:
    return "int";
  case CXType_UInt:
    return "unsigned int";
  case CXType_Long:
  case CXType_LongLong:
    return is64 ? "long long" : "";
  case CXType_ULong:
  case CXType_ULongLong:
    return is64 ? "unsigned long long" : "";
  case CXType_Record:
    return recordName(t) == "half" ? "half" : "";
  default:
    return "";
  }
}

bool edgeKind(const std::string &name, FieldKind &kind) {
  if (name == "poplar::Input")
    kind = FieldKind::Input;
  else if (name == "poplar::Output")
    kind = FieldKind::Output;
  else if (name == "poplar::InOut")
    kind = FieldKind::InOut;
  else
    return false;
  return true;
}

// What Input<T> (and Output, InOut) refers to: detail::EdgeTarget.
bool edgeTarget(CXType target, FieldType &f) {
  std::string element = elementName(target);
  if (!element.empty()) {
    f.shape = FieldShape::Scalar;
    f.elementType = element;
    return true;
  }
  std::string name = recordName(canonical(target));
  if (isQualified(target) ||
      (name != "poplar::Vector" && name != "poplar::VectorList"))
    return false;
  f.elementType = elementName(argument(canonical(target), 0));
  if (f.elementType.empty())
    return false;
  if (name == "poplar::Vector") {
    f.shape = FieldShape::Vector;
  } else {
    f.shape = FieldShape::List;
    f.itemShape = FieldShape::Vector;
  }
  return true;
}

} // namespace

FieldType classifyFieldType(CXType type) {
  FieldType f;
  CXType t = canonical(type);
  if (isQualified(t))
    return f; // FieldTraits has no const or volatile fields
  std::string name = recordName(t);
  if (edgeKind(name, f.kind)) {
    f.supported = edgeTarget(argument(t, 0), f);
    return f;
  }
  if (name == "poplar::Vector") {
    CXType item = argument(t, 0);
    std::string element = elementName(item);
    if (!element.empty()) {
      f.kind = FieldKind::State;
      f.shape = FieldShape::Vector;
      f.elementType = element;
      f.supported = true;
      return f;
    }
    // A list of edges: Vector<Input<...>>, items scalar or vector.
    FieldType edge;
    if (isQualified(item) || !edgeKind(recordName(item), edge.kind) ||
        !edgeTarget(argument(item, 0), edge) || edge.shape == FieldShape::List)
      return f;
    f.kind = edge.kind;
    f.shape = FieldShape::List;
    f.itemShape = edge.shape;
    f.elementType = edge.elementType;
    f.supported = true;
    return f;
  }
  std::string element = elementName(t);
  if (!element.empty()) {
    f.kind = FieldKind::State;
    f.shape = FieldShape::Scalar;
    f.elementType = element;
    f.supported = true;
  }
  return f;
}

} // namespace popc
