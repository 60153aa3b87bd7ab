#include "Naming.hpp"

#include "Clang.hpp"

#include <cctype>
#include <cstring>
#include <optional>
#include <vector>

namespace popc {

std::string normaliseSpacing(const std::string &s) {
  std::string out;
  for (std::size_t i = 0; i != s.size(); ++i) {
    char c = s[i];
    if (c == ' ') {
      bool afterPunct = !out.empty() && (out.back() == '<' ||
                                         out.back() == '>' || out.back() == ',');
      std::size_t next = s.find_first_not_of(' ', i);
      bool beforePunct = next != std::string::npos &&
                         (s[next] == '<' || s[next] == '>' || s[next] == ',');
      if (afterPunct || beforePunct)
        continue;
    }
    out += c;
  }
  return out;
}

std::string typeName(CXType t) {
  std::string s = spelling(clang_getCanonicalType(t));
  // Members of anonymous namespaces are named as if at the enclosing scope
  // (which is also how the generated code refers to them).
  const std::string anon = "(anonymous namespace)::";
  for (std::size_t at; (at = s.find(anon)) != std::string::npos;)
    s.erase(at, anon.size());
  return normaliseSpacing(s);
}

std::string scopePrefix(CXCursor decl) {
  std::string prefix;
  for (CXCursor p = clang_getCursorSemanticParent(decl);
       !isNull(p) && kind(p) != CXCursor_TranslationUnit;
       p = clang_getCursorSemanticParent(p)) {
    CXCursorKind k = kind(p);
    std::string name;
    if (k == CXCursor_LinkageSpec)
      continue;
    if (k == CXCursor_Namespace && clang_Cursor_isAnonymous(p))
      continue;
    if (isRecordKind(k))
      name = className(p);
    else
      name = spelling(p);
    if (name.empty())
      continue;
    prefix = name + "::" + prefix;
    if (isRecordKind(k))
      break; // className() included the enclosing scopes
  }
  return prefix;
}

std::string className(CXCursor record) {
  if (!isNull(clang_getSpecializedCursorTemplate(record))) {
    std::string name, why;
    if (specializationName(record, name, why))
      return name;
    return typeName(clang_getCursorType(record));
  }
  return scopePrefix(record) + spelling(record);
}

SpecializationKind specializationKind(CXTranslationUnit tu, CXCursor record) {
  if (isNull(clang_getSpecializedCursorTemplate(record)))
    return SpecializationKind::None;
  CXToken *tokens = nullptr;
  unsigned count = 0;
  clang_tokenize(tu, clang_getCursorExtent(record), &tokens, &count);
  std::string first, second;
  if (count > 0)
    first = toString(clang_getTokenSpelling(tu, tokens[0]));
  if (count > 1)
    second = toString(clang_getTokenSpelling(tu, tokens[1]));
  clang_disposeTokens(tu, tokens, count);
  if (first == "extern")
    return SpecializationKind::InstantiationDeclaration;
  if (first == "template")
    return second == "<" ? SpecializationKind::ExplicitSpecialization
                         : SpecializationKind::InstantiationDefinition;
  // Written by a macro: the tokens are the macro's. Only an explicit
  // specialization has members and bases for libclang to show.
  bool hasBody = false;
  forEachChild(record, [&](CXCursor c) {
    if (clang_isDeclaration(kind(c)) || kind(c) == CXCursor_CXXBaseSpecifier)
      hasBody = true;
  });
  return hasBody ? SpecializationKind::ExplicitSpecialization
                 : SpecializationKind::InstantiationDefinition;
}

namespace {

// The arguments as written in "ns::V<float, 2 * 3>", split at top-level
// commas; empty if the spelling does not end with an argument list.
std::vector<std::string> writtenArguments(const std::string &spelled) {
  std::vector<std::string> args;
  if (spelled.empty() || spelled.back() != '>')
    return args;
  int angle = 0, paren = 0;
  std::size_t open = std::string::npos;
  for (std::size_t i = spelled.size(); i-- > 0;) {
    char c = spelled[i];
    if (c == ')')
      ++paren;
    else if (c == '(')
      --paren;
    else if (paren == 0 && c == '>')
      ++angle;
    else if (paren == 0 && c == '<' && --angle == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string::npos)
    return args;
  std::string inner = spelled.substr(open + 1, spelled.size() - open - 2);
  angle = paren = 0;
  std::string current;
  for (char c : inner) {
    if (c == '(')
      ++paren;
    else if (c == ')')
      --paren;
    else if (paren == 0 && c == '<')
      ++angle;
    else if (paren == 0 && c == '>')
      --angle;
    if (c == ',' && angle == 0 && paren == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!inner.empty())
    args.push_back(current);
  return args;
}

std::string stripSpaces(const std::string &s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += c;
  return out;
}

bool isIntegralOrEnum(CXType t) {
  switch (t.kind) {
  case CXType_Bool:
  case CXType_Char_U:
  case CXType_UChar:
  case CXType_Char16:
  case CXType_Char32:
  case CXType_UShort:
  case CXType_UInt:
  case CXType_ULong:
  case CXType_ULongLong:
  case CXType_UInt128:
  case CXType_Char_S:
  case CXType_SChar:
  case CXType_WChar:
  case CXType_Short:
  case CXType_Int:
  case CXType_Long:
  case CXType_LongLong:
  case CXType_Int128:
  case CXType_Enum:
    return true;
  default:
    return false;
  }
}

bool isUnsignedKind(CXTypeKind k) {
  switch (k) {
  case CXType_Bool:
  case CXType_Char_U:
  case CXType_UChar:
  case CXType_Char16:
  case CXType_Char32:
  case CXType_UShort:
  case CXType_UInt:
  case CXType_ULong:
  case CXType_ULongLong:
  case CXType_UInt128:
    return true;
  default:
    return false;
  }
}

std::optional<long long> evaluate(CXCursor expr) {
  CXEvalResult r = clang_Cursor_Evaluate(expr);
  if (!r)
    return std::nullopt;
  std::optional<long long> value;
  if (clang_EvalResult_getKind(r) == CXEval_Int)
    value = clang_EvalResult_isUnsignedInt(r)
                ? static_cast<long long>(clang_EvalResult_getAsUnsigned(r))
                : clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return value;
}

std::optional<long long> enumeratorValue(CXType enumType, const std::string &name) {
  std::optional<long long> value;
  forEachChild(clang_getTypeDeclaration(enumType), [&](CXCursor c) {
    if (kind(c) == CXCursor_EnumConstantDecl && spelling(c) == name)
      value = clang_getEnumConstantDeclValue(c);
  });
  return value;
}

std::optional<long long> parseInteger(const std::string &s) {
  std::string digits;
  for (char c : s)
    if (c != '\'')
      digits += c;
  while (!digits.empty() && std::strchr("uUlL", digits.back()))
    digits.pop_back();
  if (digits.empty())
    return std::nullopt;
  int base = 10;
  std::size_t at = 0;
  if (digits.size() > 1 && digits[0] == '0') {
    if (digits[1] == 'x' || digits[1] == 'X')
      base = 16, at = 2;
    else if (digits[1] == 'b' || digits[1] == 'B')
      base = 2, at = 2;
    else
      base = 8, at = 1;
  }
  unsigned long long value = 0;
  for (; at != digits.size(); ++at) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[at])));
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : (c >= 'a' && c <= 'f')                   ? c - 'a' + 10
                                                       : 99;
    if (d >= base)
      return std::nullopt;
    value = value * static_cast<unsigned>(base) + static_cast<unsigned>(d);
  }
  return static_cast<long long>(value);
}

// The value of an argument as clang prints it: literals, true/false,
// enumerators, casts and parentheses. Anything else is left to the
// expressions libclang evaluates.
std::optional<long long> evaluateText(const std::string &s, CXType paramType) {
  if (s.empty())
    return std::nullopt;
  if (s[0] == '(') {
    int depth = 0;
    std::size_t close = 0;
    for (std::size_t i = 0; i != s.size(); ++i) {
      depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
      if (depth == 0) {
        close = i;
        break;
      }
    }
    if (close == 0)
      return std::nullopt;
    if (close + 1 == s.size())
      return evaluateText(s.substr(1, close - 1), paramType);
    return evaluateText(s.substr(close + 1), paramType); // a C-style cast
  }
  const std::string cast = "static_cast<";
  if (s.compare(0, cast.size(), cast) == 0) {
    std::size_t open = s.find(">(");
    if (open == std::string::npos || s.back() != ')')
      return std::nullopt;
    return evaluateText(s.substr(open + 2, s.size() - open - 3), paramType);
  }
  if (s[0] == '-' || s[0] == '+') {
    auto v = evaluateText(s.substr(1), paramType);
    if (v && s[0] == '-')
      *v = static_cast<long long>(0ull - static_cast<unsigned long long>(*v));
    return v;
  }
  if (s == "true")
    return 1;
  if (s == "false")
    return 0;
  if (std::isdigit(static_cast<unsigned char>(s[0])))
    return parseInteger(s);
  if (paramType.kind == CXType_Enum) {
    std::size_t colons = s.rfind("::");
    std::string name = colons == std::string::npos ? s : s.substr(colons + 2);
    return enumeratorValue(paramType, name);
  }
  return std::nullopt;
}

unsigned bitWidth(CXType t) {
  long long size = clang_Type_getSizeOf(t);
  return size > 0 && size < 8 ? unsigned(size) * 8 : 64;
}

std::string formatInteger(long long value, CXType t, bool isUnsigned) {
  unsigned bits = bitWidth(t);
  auto u = static_cast<unsigned long long>(value);
  if (bits < 64) {
    u &= (1ull << bits) - 1;
    if (!isUnsigned && (u >> (bits - 1)) != 0)
      u |= ~((1ull << bits) - 1);
  }
  return isUnsigned ? std::to_string(u)
                    : std::to_string(static_cast<long long>(u));
}

std::string formatValue(long long value, CXType t) {
  if (t.kind == CXType_Bool)
    return value != 0 ? "true" : "false";
  if (t.kind == CXType_Enum) {
    CXCursor decl = clang_getTypeDeclaration(t);
    CXType underlying = clang_getCanonicalType(clang_getEnumDeclIntegerType(decl));
    bool isUnsigned = isUnsignedKind(underlying.kind);
    std::string wanted = formatInteger(value, underlying, isUnsigned);
    std::string found;
    forEachChild(decl, [&](CXCursor c) {
      if (found.empty() && kind(c) == CXCursor_EnumConstantDecl &&
          formatInteger(clang_getEnumConstantDeclValue(c), underlying,
                        isUnsigned) == wanted)
        found = spelling(c);
    });
    // Enumerators are qualified by their enumeration, scoped or not.
    std::string enumName = clang_Cursor_isAnonymous(decl)
                               ? scopePrefix(decl)
                               : scopePrefix(decl) + spelling(decl) + "::";
    if (!found.empty())
      return enumName + found;
    return "(" + typeName(t) + ")" + wanted;
  }
  return formatInteger(value, t, isUnsignedKind(t.kind));
}

} // namespace

bool specializationName(CXCursor spec, std::string &name, std::string &why) {
  CXCursor pattern = clang_getSpecializedCursorTemplate(spec);
  CXCursor primary = pattern;
  if (kind(pattern) == CXCursor_ClassTemplatePartialSpecialization)
    primary = clang_getSpecializedCursorTemplate(pattern);
  std::vector<CXCursor> params;
  forEachChild(primary, [&](CXCursor c) {
    CXCursorKind k = kind(c);
    if (k == CXCursor_TemplateTypeParameter ||
        k == CXCursor_NonTypeTemplateParameter ||
        k == CXCursor_TemplateTemplateParameter)
      params.push_back(c);
  });
  CXType type = clang_getCanonicalType(clang_getCursorType(spec));
  int count = clang_Type_getNumTemplateArguments(type);
  if (count < 0 || std::size_t(count) != params.size()) {
    why = "popc does not support variadic vertex templates";
    return false;
  }

  std::vector<std::string> written =
      writtenArguments(spelling(clang_getCursorType(spec)));
  std::vector<CXCursor> exprs; // the written non-type arguments, and more
  forEachChild(spec, [&](CXCursor c) {
    if (clang_isExpression(kind(c)))
      exprs.push_back(c);
  });

  // Which written non-type argument of the same parameter type a
  // position is, to find its expression among `exprs`.
  auto paramType = [&](std::size_t i) {
    return clang_getCanonicalType(clang_getCursorType(params[i]));
  };
  auto byType = [&](std::size_t i, std::size_t &ordinal, std::size_t &total) {
    std::string t = spelling(paramType(i));
    ordinal = total = 0;
    for (std::size_t j = 0; j != written.size() && j != params.size(); ++j)
      if (kind(params[j]) == CXCursor_NonTypeTemplateParameter &&
          spelling(paramType(j)) == t) {
        if (j < i)
          ++ordinal;
        ++total;
      }
  };

  std::vector<std::string> args;
  for (std::size_t i = 0; i != params.size(); ++i) {
    CXType arg = clang_Type_getTemplateArgumentAsType(type, unsigned(i));
    if (arg.kind != CXType_Invalid) {
      args.push_back(typeName(arg));
      continue;
    }
    if (kind(params[i]) != CXCursor_NonTypeTemplateParameter) {
      why = "popc does not support template template arguments";
      return false;
    }
    CXType t = paramType(i);
    std::optional<long long> value;
    if (i < written.size()) {
      if (isIntegralOrEnum(t))
        value = evaluateText(stripSpaces(written[i]), t);
      if (!value) {
        std::size_t ordinal, total;
        byType(i, ordinal, total);
        std::vector<CXCursor> candidates;
        for (CXCursor e : exprs)
          if (spelling(clang_getCanonicalType(clang_getCursorType(e))) ==
              spelling(t))
            candidates.push_back(e);
        if (candidates.size() == total) {
          value = evaluate(candidates[ordinal]);
          if (!isIntegralOrEnum(t))
            t = clang_getCanonicalType(clang_getCursorType(candidates[ordinal]));
        }
      }
    } else {
      forEachChild(params[i], [&](CXCursor c) {
        if (!value && clang_isExpression(kind(c)))
          value = evaluate(c);
      });
    }
    if (!value || !isIntegralOrEnum(t)) {
      why = "popc cannot determine template argument " + std::to_string(i + 1) +
            " of '" + spelling(clang_getCursorType(spec)) +
            "' (supported: integers, bools and enumerators; write the "
            "argument as a literal or enumerator)";
      return false;
    }
    args.push_back(formatValue(*value, t));
  }
  name = scopePrefix(primary) + spelling(primary) + "<";
  for (std::size_t i = 0; i != args.size(); ++i)
    name += (i ? "," : "") + args[i];
  name += ">";
  return true;
}

} // namespace popc
