#include "Reflection.hpp"

#include "Clang.hpp"
#include "FieldTypes.hpp"
#include "Naming.hpp"

#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace popc {

namespace {

bool isVertexRoot(const std::string &name) {
  return name == "poplar::Vertex" || name == "poplar::MultiVertex" ||
         name == "poplar::SupervisorVertex";
}

std::string realPath(const std::string &path) {
  std::error_code ec;
  fs::path p = fs::canonical(path, ec);
  if (!ec)
    return p.string();
  p = fs::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

// The index of a base written as a template parameter of the class
// template itself ("template <class B> struct X : B"), or -1.
int templateParameterIndex(CXType t) {
  const std::string prefix = "type-parameter-0-";
  std::string s = spelling(clang_getCanonicalType(t));
  if (s.compare(0, prefix.size(), prefix) != 0 || s.size() == prefix.size() ||
      s.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
    return -1;
  return std::stoi(s.substr(prefix.size()));
}

/// An error found while looking at a class, reported only if the class
/// turns out to be (part of) a vertex that would be registered.
struct Problem {
  SourcePos pos;
  std::string message;
};

/// What a class contributes to a vertex type derived from it (or that it
/// is).
struct ClassFacts {
  bool vertex = false; // derives from Vertex, MultiVertex or SupervisorVertex
  bool hasCompute = false;
  std::vector<FieldModel> fields;
  std::vector<Problem> problems;

  void inherit(ClassFacts &&base) {
    vertex |= base.vertex;
    hasCompute |= base.hasCompute;
    fields.insert(fields.end(), base.fields.begin(), base.fields.end());
    problems.insert(problems.end(), base.problems.begin(), base.problems.end());
  }
};

bool isCompute(CXCursor c) {
  CXCursorKind k = kind(c);
  return (k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
          k == CXCursor_UsingDeclaration) &&
         spelling(c) == "compute";
}

// The primary template of a specialization or partial specialization.
CXCursor primaryTemplate(CXCursor c) {
  CXCursor t = clang_getSpecializedCursorTemplate(c);
  if (!isNull(t) && kind(t) == CXCursor_ClassTemplatePartialSpecialization)
    t = clang_getSpecializedCursorTemplate(t);
  return t;
}

// Whether libclang shows the members of a class: not for instantiations,
// whose members only the type (fields) and the pattern (the rest) show.
bool hasVisibleBody(CXCursor record) {
  if (isNull(clang_getSpecializedCursorTemplate(record)))
    return true;
  bool body = false;
  forEachChild(record, [&](CXCursor c) {
    if (clang_isDeclaration(kind(c)) || kind(c) == CXCursor_CXXBaseSpecifier)
      body = true;
  });
  return body;
}

class Reflector {
public:
  Reflector(CXTranslationUnit tu, const std::string &poplarIncludeDir,
            Diagnostics &diags)
      : tu(tu), poplarHeaders(realPath(poplarIncludeDir) + "/poplar/"),
        diags(diags) {}

  void collect(CXCursor parent);
  void decide(std::vector<VertexModel> &vertices);

private:
  bool isUserLocation(CXSourceLocation loc);
  bool isInMainFile(CXCursor c);
  ClassFacts factsOfType(CXType type, int depth);
  ClassFacts factsOfRecord(CXCursor record, int depth);
  ClassFacts factsOfSpecialization(CXCursor spec, int depth);
  ClassFacts factsOfPattern(CXCursor pattern, int depth);
  // `args`, if given, is a specialization of the primary template whose
  // base `base` is: its arguments are what the parameters stand for.
  void addBase(CXCursor base, const std::string &owner, ClassFacts &facts,
               int depth, const CXType *args = nullptr);
  void addField(CXCursor field, const std::string &owner, bool dependent,
                ClassFacts &facts);
  void markUsedAsBase(CXCursor decl);
  void candidate(CXCursor record, bool instantiation, ClassFacts facts,
                 std::vector<VertexModel> &vertices);

  CXTranslationUnit tu;
  std::string poplarHeaders;
  Diagnostics &diags;
  std::map<std::string, bool> userFiles;

  std::vector<CXCursor> records;        // class definitions
  std::vector<CXCursor> instantiations; // explicit instantiation definitions
  std::vector<CXCursor> templates;      // class template definitions
  std::set<std::string> instantiated;   // templates with an instantiation
  std::set<std::string> partiallySpecialized;
  std::set<std::string> usedAsBase; // classes and templates other classes derive from
};

bool Reflector::isUserLocation(CXSourceLocation loc) {
  if (clang_Location_isInSystemHeader(loc))
    return false;
  CXFile file = nullptr;
  clang_getExpansionLocation(loc, &file, nullptr, nullptr, nullptr);
  if (!file)
    return false;
  std::string name = toString(clang_getFileName(file));
  auto it = userFiles.find(name);
  if (it == userFiles.end()) {
    bool user = realPath(name).compare(0, poplarHeaders.size(), poplarHeaders) != 0;
    it = userFiles.emplace(name, user).first;
  }
  return it->second;
}

// Where a macro is used counts, not where it is defined.
bool Reflector::isInMainFile(CXCursor c) {
  CXFile file = nullptr;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, nullptr,
                             nullptr, nullptr);
  CXFile main = clang_getFile(tu, toString(clang_getTranslationUnitSpelling(tu)).c_str());
  return file && main && clang_File_isEqual(file, main);
}

void Reflector::collect(CXCursor parent) {
  forEachChild(parent, [&](CXCursor c) {
    CXCursorKind k = kind(c);
    if (!isUserLocation(clang_getCursorLocation(c)))
      return;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
      collect(c);
    } else if (isRecordKind(k)) {
      switch (specializationKind(tu, c)) {
      case SpecializationKind::InstantiationDefinition:
        instantiated.insert(usr(primaryTemplate(c)));
        // Not a definition when it follows an explicit specialization,
        // which is then the class registered.
        if (clang_isCursorDefinition(c))
          instantiations.push_back(c);
        break;
      case SpecializationKind::ExplicitSpecialization:
        instantiated.insert(usr(primaryTemplate(c)));
        if (clang_isCursorDefinition(c))
          records.push_back(c);
        break;
      case SpecializationKind::InstantiationDeclaration:
        break;
      case SpecializationKind::None:
        if (clang_isCursorDefinition(c) && !clang_Cursor_isAnonymous(c)) {
          records.push_back(c);
          collect(c); // nested classes
        }
        break;
      }
    } else if (k == CXCursor_ClassTemplate) {
      if (clang_isCursorDefinition(c))
        templates.push_back(c);
    } else if (k == CXCursor_ClassTemplatePartialSpecialization) {
      partiallySpecialized.insert(usr(primaryTemplate(c)));
    }
  });
}

void Reflector::markUsedAsBase(CXCursor decl) {
  usedAsBase.insert(usr(decl));
  CXCursor primary = primaryTemplate(decl);
  if (!isNull(primary))
    usedAsBase.insert(usr(primary));
}

ClassFacts Reflector::factsOfType(CXType type, int depth) {
  CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(type));
  if (isNull(decl) || !isRecordKind(kind(decl)))
    return {};
  if (isNull(clang_getSpecializedCursorTemplate(decl)) &&
      isVertexRoot(scopePrefix(decl) + spelling(decl))) {
    ClassFacts root;
    root.vertex = true;
    return root;
  }
  CXCursor def = clang_getCursorDefinition(decl);
  if (isNull(def))
    return {};
  return hasVisibleBody(def) ? factsOfRecord(def, depth)
                             : factsOfSpecialization(def, depth);
}

ClassFacts Reflector::factsOfRecord(CXCursor record, int depth) {
  ClassFacts facts;
  std::string owner = className(record);
  forEachChild(record, [&](CXCursor c) {
    if (kind(c) == CXCursor_CXXBaseSpecifier)
      addBase(c, owner, facts, depth);
    else if (kind(c) == CXCursor_FieldDecl)
      addField(c, owner, false, facts);
    else if (isCompute(c))
      facts.hasCompute = true;
  });
  return facts;
}

// An instantiation: its fields, with their types instantiated, come from
// the type; its bases and member functions only from the pattern.
ClassFacts Reflector::factsOfSpecialization(CXCursor spec, int depth) {
  ClassFacts facts;
  std::string owner = className(spec);
  CXCursor pattern = clang_getSpecializedCursorTemplate(spec);
  CXType type = clang_getCursorType(spec);
  // A partial specialization's parameters are not the arguments'.
  const CXType *args = kind(pattern) == CXCursor_ClassTemplate ? &type : nullptr;
  forEachChild(pattern, [&](CXCursor c) {
    if (kind(c) == CXCursor_CXXBaseSpecifier)
      addBase(c, owner, facts, depth, args);
    else if (isCompute(c))
      facts.hasCompute = true;
  });
  struct Visit {
    Reflector *self;
    const std::string *owner;
    ClassFacts *facts;
  } visit{this, &owner, &facts};
  clang_Type_visitFields(
      clang_getCursorType(spec),
      [](CXCursor field, CXClientData data) {
        auto *v = static_cast<Visit *>(data);
        v->self->addField(field, *v->owner, false, *v->facts);
        return CXVisit_Continue;
      },
      &visit);
  return facts;
}

// A class template as a dependent base: which specialization is used is
// unknown, so its members come from the template itself and the types of
// its fields are left to the compiler to check.
ClassFacts Reflector::factsOfPattern(CXCursor pattern, int depth) {
  ClassFacts facts;
  CXCursor def = clang_getCursorDefinition(pattern);
  if (isNull(def))
    return facts;
  std::string owner = scopePrefix(def) + spelling(def);
  forEachChild(def, [&](CXCursor c) {
    if (kind(c) == CXCursor_CXXBaseSpecifier)
      addBase(c, owner, facts, depth);
    else if (kind(c) == CXCursor_FieldDecl)
      addField(c, owner, true, facts);
    else if (isCompute(c))
      facts.hasCompute = true;
  });
  return facts;
}

void Reflector::addBase(CXCursor base, const std::string &owner,
                        ClassFacts &facts, int depth, const CXType *args) {
  if (depth > 64)
    return;
  CXType type = clang_getCanonicalType(clang_getCursorType(base));
  int parameter = args ? templateParameterIndex(type) : -1;
  if (parameter >= 0)
    type = clang_getCanonicalType(
        clang_Type_getTemplateArgumentAsType(*args, unsigned(parameter)));
  CXCursor decl = clang_getTypeDeclaration(type);
  ClassFacts inherited;
  bool followed = false;
  if (!isNull(decl) && isRecordKind(kind(decl))) {
    markUsedAsBase(clang_getCursorDefinition(decl));
    inherited = factsOfType(type, depth + 1);
    followed = true;
  } else if (!isNull(decl) && kind(decl) == CXCursor_ClassTemplate) {
    // A base such as Base<T> in a template.
    markUsedAsBase(decl);
    inherited = factsOfPattern(decl, depth + 1);
    followed = true;
    if (partiallySpecialized.count(usr(decl)) && !inherited.fields.empty())
      diags.warning(position(base),
                    "the fields of dependent base class '" +
                        spelling(clang_getCursorType(base)) +
                        "' are taken from the primary template of '" +
                        spelling(decl) + "', which also has partial "
                        "specializations");
  } else {
    // SupervisorVertexIf<cond>: an alias of SupervisorVertex or Vertex.
    forEachChild(base, [&](CXCursor c) {
      CXCursor ref = clang_getCursorReferenced(c);
      if (kind(c) == CXCursor_TemplateRef && !isNull(ref) &&
          kind(ref) == CXCursor_TypeAliasTemplateDecl &&
          scopePrefix(ref) + spelling(ref) == "poplar::SupervisorVertexIf") {
        inherited.vertex = true;
        followed = true;
      }
    });
  }
  if (!followed) {
    facts.problems.push_back(
        {position(base), "popc cannot tell which class base '" +
                             spelling(clang_getCursorType(base)) + "' of '" +
                             owner + "' is, so it cannot find its fields"});
    return;
  }
  if (!inherited.fields.empty() &&
      clang_getCXXAccessSpecifier(base) != CX_CXXPublic)
    facts.problems.push_back(
        {position(base), "'" + owner + "' inherits the fields of '" +
                             spelling(clang_getCursorType(base)) +
                             "' through a non-public base; the runtime binds "
                             "fields, so such a base must be public"});
  facts.inherit(std::move(inherited));
}

void Reflector::addField(CXCursor field, const std::string &owner,
                         bool dependent, ClassFacts &facts) {
  FieldModel m;
  m.name = spelling(field);
  m.pos = position(field);
  CXType type = clang_getCursorType(field);
  m.typeSpelling = spelling(type);
  std::string what = "field '" + m.name + "' of vertex class '" + owner + "'";
  if (m.name.empty() || clang_Cursor_isAnonymousRecordDecl(
                            clang_getTypeDeclaration(type))) {
    facts.problems.push_back(
        {m.pos, "vertex class '" + owner +
                    "' has an anonymous struct or union member; fields must "
                    "be named"});
    return;
  }
  if (clang_getCXXAccessSpecifier(field) != CX_CXXPublic)
    facts.problems.push_back(
        {m.pos, what + " is not public; the runtime binds fields by name, "
                       "so they must be public"});
  if (clang_Cursor_isBitField(field))
    facts.problems.push_back({m.pos, what + " is a bit-field"});
  m.type = classifyFieldType(type);
  if (!m.type.supported) {
    if (dependent)
      m.typeKnown = false;
    else
      facts.problems.push_back({m.pos, what + " has unsupported type '" +
                                           m.typeSpelling + "': " +
                                           supportedFieldTypes});
  }
  facts.fields.push_back(std::move(m));
}

void Reflector::candidate(CXCursor record, bool instantiation,
                          ClassFacts facts, std::vector<VertexModel> &vertices) {
  bool isSpecialization = !isNull(clang_getSpecializedCursorTemplate(record));
  SourcePos where = position(record);
  std::string name;
  if (isSpecialization) {
    std::string why;
    if (!specializationName(record, name, why)) {
      diags.error(where, why);
      return;
    }
  } else {
    name = className(record);
  }
  // A class of a header without compute() may be a base for another
  // source: only the input's own classes must be complete vertices.
  bool leaf = !usedAsBase.count(usr(record)) && isInMainFile(record);
  std::string what = "vertex class '" + name + "'";
  auto noteInstantiation = [&] {
    if (instantiation)
      diags.note(where, "in the instantiation of '" + name + "' here");
  };
  if (clang_CXXRecord_isAbstract(record)) {
    if (leaf)
      diags.error(where, what + " is abstract (it has pure virtual member "
                                "functions), so the runtime cannot create it");
    return;
  }
  if (!facts.hasCompute) {
    if (leaf)
      diags.error(where, what + " has no compute() member function");
    return;
  }
  if (!facts.problems.empty()) {
    for (const Problem &p : facts.problems) {
      diags.error(p.pos, p.message);
      noteInstantiation();
    }
    return;
  }
  // Two fields of the same name (one hiding the other) could not both be
  // bound by name.
  std::map<std::string, const FieldModel *> byName;
  for (const FieldModel &f : facts.fields) {
    auto [it, fresh] = byName.emplace(f.name, &f);
    if (!fresh) {
      diags.error(f.pos, what + " has two fields named '" + f.name + "'");
      diags.note(it->second->pos, "the other field '" + f.name + "' is here");
      return;
    }
  }

  VertexModel v;
  v.name = name;
  v.cppType = "::" + name;
  // Where the class is written: the pattern for an instantiation.
  CXCursor decl = instantiation ? clang_getSpecializedCursorTemplate(record)
                                : record;
  v.pos = position(decl);
  v.file = realPath(v.pos.file);
  v.fields = std::move(facts.fields);
  vertices.push_back(std::move(v));
}

void Reflector::decide(std::vector<VertexModel> &vertices) {
  // First every class's facts: this also finds which are bases of others.
  std::vector<std::pair<CXCursor, ClassFacts>> recordFacts, instFacts;
  for (CXCursor r : records)
    recordFacts.emplace_back(r, factsOfRecord(r, 0));
  for (CXCursor i : instantiations)
    instFacts.emplace_back(i, factsOfSpecialization(i, 0));
  std::vector<bool> templateIsVertex;
  for (CXCursor t : templates)
    templateIsVertex.push_back(factsOfPattern(t, 0).vertex);

  for (auto &[cursor, facts] : recordFacts)
    if (facts.vertex)
      candidate(cursor, false, std::move(facts), vertices);
  for (auto &[cursor, facts] : instFacts)
    if (facts.vertex)
      candidate(cursor, true, std::move(facts), vertices);

  for (std::size_t i = 0; i != templates.size(); ++i) {
    CXCursor t = templates[i];
    if (!templateIsVertex[i] || !isInMainFile(t) ||
        instantiated.count(usr(t)) || usedAsBase.count(usr(t)))
      continue;
    std::string name = scopePrefix(t) + spelling(t);
    diags.error(position(t),
                "vertex class template '" + name +
                    "' is never explicitly instantiated, so no vertex is "
                    "registered for it; add an explicit instantiation such "
                    "as 'template class " +
                    name + "<float>;'");
  }
}

void forwardClangDiagnostics(CXTranslationUnit tu, Diagnostics &diags) {
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i != n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXDiagnosticSeverity severity = clang_getDiagnosticSeverity(d);
    if (severity >= CXDiagnostic_Error)
      diags.error(position(clang_getDiagnosticLocation(d)),
                  toString(clang_getDiagnosticSpelling(d)));
    clang_disposeDiagnostic(d);
  }
}

} // namespace

bool reflectSource(CXIndex index, const std::string &path,
                   const ParseSettings &settings, Diagnostics &diags,
                   SourceModel &model) {
  unsigned errorsBefore = diags.errorCount();
  model.path = path;
  std::vector<const char *> args;
  for (const std::string &a : settings.clangArgs)
    args.push_back(a.c_str());
  CXTranslationUnit tu = nullptr;
  // Function bodies are left to the host compiler: skipping them makes
  // parsing faster (clang still parses constexpr ones and those with
  // deduced return types, which declarations may need).
  CXErrorCode code = clang_parseTranslationUnit2(
      index, path.c_str(), args.data(), int(args.size()), nullptr, 0,
      CXTranslationUnit_SkipFunctionBodies, &tu);
  if (code != CXError_Success || !tu) {
    diags.error("cannot parse '" + path + "' (libclang error " +
                std::to_string(int(code)) + ")");
    return false;
  }
  forwardClangDiagnostics(tu, diags);
  if (diags.errorCount() == errorsBefore) {
    Reflector reflector(tu, settings.poplarIncludeDir, diags);
    reflector.collect(clang_getTranslationUnitCursor(tu));
    reflector.decide(model.vertices);
  }
  clang_getInclusions(
      tu,
      [](CXFile file, CXSourceLocation *, unsigned, CXClientData data) {
        // Resolved: clang may name system headers through a symbolic link
        // and "..", which a lexical clean-up (as CMake's) would get wrong.
        static_cast<std::vector<std::string> *>(data)->push_back(
            realPath(toString(clang_getFileName(file))));
      },
      &model.dependencies);
  clang_disposeTranslationUnit(tu);
  return diags.errorCount() == errorsBefore;
}

} // namespace popc
