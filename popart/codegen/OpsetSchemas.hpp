// The builder's ai.onnx op methods as data, read from the operator schemas
// registered in libonnx. Both generators use it: popart-gen-opsets writes
// the C++ opset classes from it, popart-gen-py-opsets their Python
// bindings, so that the two always agree.
//
// Each op method takes the input ids, then the ONNX attributes (required
// ones first, then the optional ones with their defaults, each group in the
// schema's order), then the debug context. Ops with several outputs take
// the number of outputs wanted when it may vary, and return every output id.
// A list attribute without a default is an empty list when not given;
// auto_pad (deprecated by ONNX) is left out.
#ifndef POPART_CODEGEN_OPSETSCHEMAS_HPP
#define POPART_CODEGEN_OPSETSCHEMAS_HPP

#include <onnx/defs/schema.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace opsetgen {

struct Param {
  std::string declaration;  // type and name
  std::string defaultValue; // empty: none
  std::string attrName;
  std::string store; // statement adding the attribute to `attributes`
  std::string type;  // the C++ type of the value (no reference, no const)
  std::string pyName; // the keyword of the Python binding
};

struct Method {
  std::string name;
  std::string opType;
  int sinceVersion;
  bool hasInputs;
  bool multipleOutputs;
  bool variableOutputs;
  int fixedOutputs;
  std::vector<Param> params;
};

inline const std::set<std::string> &cppKeywords() {
  static const std::set<std::string> words = {
      "and", "or",     "xor",  "not",  "if",   "default",  "template", "operator",
      "new", "delete", "class", "case", "switch", "auto", "mode_",    "register"};
  return words;
}

inline std::string lower(std::string s) {
  for (auto &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline std::string methodName(const std::string &opType) {
  std::string n = lower(opType);
  if (n == "and" || n == "or" || n == "xor" || n == "not" || n == "if")
    return "logical_" + n;
  return n;
}

inline std::string paramName(const std::string &attr) {
  return cppKeywords().count(attr) ? attr + "_" : attr;
}

inline std::string floatLiteral(float f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
  std::string s = buf;
  if (s.find_first_of(".einn") == std::string::npos)
    s += ".0";
  return s + "f";
}

inline std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

inline std::string defaultOf(const onnx::AttributeProto &v) {
  using AP = onnx::AttributeProto;
  std::ostringstream out;
  switch (v.type()) {
  case AP::INT:
    return std::to_string(v.i());
  case AP::FLOAT:
    return floatLiteral(v.f());
  case AP::STRING:
    return quoted(v.s());
  case AP::INTS: {
    out << "{";
    for (int i = 0; i < v.ints_size(); ++i)
      out << (i ? ", " : "") << v.ints(i);
    out << "}";
    return out.str();
  }
  case AP::FLOATS: {
    out << "{";
    for (int i = 0; i < v.floats_size(); ++i)
      out << (i ? ", " : "") << floatLiteral(v.floats(i));
    out << "}";
    return out.str();
  }
  case AP::STRINGS: {
    out << "{";
    for (int i = 0; i < v.strings_size(); ++i)
      out << (i ? ", " : "") << quoted(v.strings(i));
    out << "}";
    return out.str();
  }
  default:
    return "";
  }
}

// The C++ type of an attribute; empty when the builder cannot take it
// (graphs, sparse tensors, type protos).
inline std::string cppType(onnx::AttributeProto::AttributeType t) {
  using AP = onnx::AttributeProto;
  switch (t) {
  case AP::INT:
    return "int64_t";
  case AP::FLOAT:
    return "float";
  case AP::STRING:
    return "std::string";
  case AP::INTS:
    return "std::vector<int64_t>";
  case AP::FLOATS:
    return "std::vector<float>";
  case AP::STRINGS:
    return "std::vector<std::string>";
  case AP::TENSOR:
    return "popart::ConstVoidData";
  default:
    return "";
  }
}

inline bool byValue(const std::string &type) {
  return type == "int64_t" || type == "float";
}

// The method for one schema; false if some attribute cannot be expressed.
inline bool makeMethod(const onnx::OpSchema &schema, Method &m) {
  m.opType = schema.Name();
  m.name = methodName(m.opType);
  m.sinceVersion = schema.SinceVersion();
  m.hasInputs = schema.max_input() > 0;
  m.multipleOutputs = schema.max_output() > 1;
  // The number of outputs is an argument only when it may vary (optional
  // or variadic outputs).
  m.variableOutputs = schema.min_output() != schema.max_output();
  m.fixedOutputs = schema.max_output();

  if (m.opType == "Constant") {
    // As the original: the value as tensor data, whether it is sparse.
    m.params.push_back({"const popart::ConstVoidData &value", "", "value",
                        "attributes[\"value\"] = value;",
                        "popart::ConstVoidData", "value"});
    m.params.push_back({"bool is_value_sparse", "false", "", "", "bool",
                        "is_value_sparse"});
    return true;
  }

  std::vector<Param> required, optional;
  for (const auto &entry : schema.attributes()) {
    const auto &a = entry.second;
    // auto_pad is deprecated by ONNX; the builder leaves it out (explicit
    // pads), as the original's does.
    if (a.name == "auto_pad")
      continue;
    std::string type = cppType(a.type);
    if (type.empty()) {
      if (a.required)
        return false;
      continue; // an optional attribute the builder does not offer
    }
    Param p;
    p.attrName = a.name;
    p.pyName = a.name;
    std::string name = paramName(a.name);
    if (m.opType == "Cast" && a.name == "to") {
      // The target type by name ("FLOAT", "INT32", ...), as the original.
      p.declaration = "const std::string &" + name;
      p.type = "std::string";
      p.store = "attributes[\"to\"] = castTypeAttribute(" + name + ");";
      required.push_back(p);
      continue;
    }
    std::string def = defaultOf(a.default_value);
    bool hasDefault = a.default_value.has_type() && !def.empty();
    if (a.required) {
      p.declaration = byValue(type) ? type + " " + name : "const " + type + " &" + name;
      p.type = type;
      p.store = "attributes[\"" + a.name + "\"] = " + name + ";";
      required.push_back(p);
    } else if (hasDefault) {
      p.declaration = byValue(type) ? type + " " + name : "const " + type + " &" + name;
      p.type = type;
      p.defaultValue = def;
      p.store = "attributes[\"" + a.name + "\"] = " + name + ";";
      optional.push_back(p);
    } else if (type.rfind("std::vector", 0) == 0 && a.name != "axes") {
      // A list without a default: empty means not given.
      p.declaration = "const " + type + " &" + name;
      p.type = type;
      p.defaultValue = type + "()";
      p.store = "if (!" + name + ".empty()) attributes[\"" + a.name + "\"] = " +
                name + ";";
      optional.push_back(p);
    } else {
      p.type = "nonstd::optional<" + type + ">";
      p.declaration = p.type + " " + name;
      p.defaultValue = "nonstd::nullopt";
      p.store = "if (" + name + ") attributes[\"" + a.name + "\"] = *" + name + ";";
      optional.push_back(p);
    }
  }
  if (m.variableOutputs) {
    Param n;
    n.declaration = "unsigned num_outputs";
    n.type = "unsigned";
    n.pyName = "num_outputs";
    if (required.empty())
      n.defaultValue = std::to_string(std::max(1, schema.min_output()));
    m.params.push_back(n);
  }
  m.params.insert(m.params.end(), required.begin(), required.end());
  m.params.insert(m.params.end(), optional.begin(), optional.end());
  return true;
}

/// Schemas of the default domain by op type, by since-version.
using SchemaHistory = std::map<std::string, std::map<int, onnx::OpSchema>>;

inline SchemaHistory onnxSchemas() {
  SchemaHistory schemas;
  for (const auto &s : onnx::OpSchemaRegistry::get_all_schemas_with_history())
    if (s.domain().empty())
      schemas[s.Name()].emplace(s.SinceVersion(), s);
  return schemas;
}

/// The methods of the builder's opset class for one opset: for every op
/// type, the definition in force at that opset (the latest not after it),
/// in the order of the op types' names.
inline std::vector<Method> opsetMethods(const SchemaHistory &schemas, int opset) {
  std::vector<Method> methods;
  for (const auto &entry : schemas) {
    auto it = entry.second.upper_bound(opset);
    if (it == entry.second.begin())
      continue;
    --it;
    const onnx::OpSchema &schema = it->second;
    if (schema.Deprecated())
      continue;
    Method m;
    if (makeMethod(schema, m))
      methods.push_back(std::move(m));
  }
  return methods;
}

inline std::string className(int opset) {
  return "AiOnnxOpset" + std::to_string(opset);
}

} // namespace opsetgen

#endif
