// The names vertex types are registered under (see README.md): qualified
// class names, and for class template specializations the template's
// qualified name with its canonical arguments, "ns::V<float,true>".
#ifndef POPC_NAMING_HPP
#define POPC_NAMING_HPP

#include <clang-c/Index.h>

#include <string>

namespace popc {

/// Removes whitespace next to '<', '>' and ',' (what the runtime also does
/// to names users pass).
std::string normaliseSpacing(const std::string &s);

/// A type as a registered name spells it: canonical, fully qualified.
std::string typeName(CXType t);

/// "ns::Outer::" for a declaration in class Outer of namespace ns.
std::string scopePrefix(CXCursor decl);

/// The qualified name of a class, with template arguments for a
/// specialization (falling back to clang's spelling if they cannot be
/// determined).
std::string className(CXCursor record);

enum class SpecializationKind {
  None,                     // not a class template specialization
  ExplicitSpecialization,   // template <> struct V<int> { ... };
  InstantiationDefinition,  // template struct V<int>;
  InstantiationDeclaration  // extern template struct V<int>;
};
SpecializationKind specializationKind(CXTranslationUnit tu, CXCursor record);

/// The registered name of a class template specialization. False, with
/// `why` set, when popc cannot determine an argument.
bool specializationName(CXCursor spec, std::string &name, std::string &why);

} // namespace popc

#endif // POPC_NAMING_HPP
