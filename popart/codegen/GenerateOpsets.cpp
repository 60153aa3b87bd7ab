// Writes the builder's ai.onnx opset classes (AiOnnxOpset6 ... the highest
// opset of the ONNX library) from the operator schemas registered in
// libonnx:
//   popart-gen-opsets <header out> <source out> <first opset> <last opset>
//                     <operator ids header out>
// Each op method takes the input ids, then the ONNX attributes (required
// ones first, then the optional ones with their defaults, each group in the
// schema's order), then the debug context. Ops with several outputs take
// the number of outputs wanted when it may vary, and return every output id.
// A list attribute without a default is an empty list when not given;
// auto_pad (deprecated by ONNX) is left out.
#include <onnx/defs/schema.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Param {
  std::string declaration; // type and name
  std::string defaultValue; // empty: none
  std::string attrName;
  std::string store; // statement adding the attribute to `attributes`
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

const std::set<std::string> cppKeywords = {
    "and", "or", "xor", "not", "if", "default", "template", "operator",
    "new", "delete", "class", "case", "switch", "auto", "mode_", "register"};

std::string lower(std::string s) {
  for (auto &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string methodName(const std::string &opType) {
  std::string n = lower(opType);
  if (n == "and" || n == "or" || n == "xor" || n == "not" || n == "if")
    return "logical_" + n;
  return n;
}

std::string paramName(const std::string &attr) {
  return cppKeywords.count(attr) ? attr + "_" : attr;
}

std::string floatLiteral(float f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
  std::string s = buf;
  if (s.find_first_of(".einn") == std::string::npos)
    s += ".0";
  return s + "f";
}

std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string defaultOf(const onnx::AttributeProto &v) {
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
std::string cppType(onnx::AttributeProto::AttributeType t) {
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

bool byValue(const std::string &type) { return type == "int64_t" || type == "float"; }

// The method for one schema; false if some attribute cannot be expressed.
bool makeMethod(const onnx::OpSchema &schema, Method &m) {
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
                        "attributes[\"value\"] = value;"});
    m.params.push_back({"bool is_value_sparse", "false", "", ""});
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
    std::string name = paramName(a.name);
    if (m.opType == "Cast" && a.name == "to") {
      // The target type by name ("FLOAT", "INT32", ...), as the original.
      p.declaration = "const std::string &" + name;
      p.store = "attributes[\"to\"] = castTypeAttribute(" + name + ");";
      required.push_back(p);
      continue;
    }
    std::string def = defaultOf(a.default_value);
    bool hasDefault = a.default_value.has_type() && !def.empty();
    if (a.required) {
      p.declaration = byValue(type) ? type + " " + name : "const " + type + " &" + name;
      p.store = "attributes[\"" + a.name + "\"] = " + name + ";";
      required.push_back(p);
    } else if (hasDefault) {
      p.declaration = byValue(type) ? type + " " + name : "const " + type + " &" + name;
      p.defaultValue = def;
      p.store = "attributes[\"" + a.name + "\"] = " + name + ";";
      optional.push_back(p);
    } else if (type.rfind("std::vector", 0) == 0 && a.name != "axes") {
      // A list without a default: empty means not given.
      p.declaration = "const " + type + " &" + name;
      p.defaultValue = type + "()";
      p.store = "if (!" + name + ".empty()) attributes[\"" + a.name + "\"] = " +
                name + ";";
      optional.push_back(p);
    } else {
      p.declaration = "nonstd::optional<" + type + "> " + name;
      p.defaultValue = "nonstd::nullopt";
      p.store = "if (" + name + ") attributes[\"" + a.name + "\"] = *" + name + ";";
      optional.push_back(p);
    }
  }
  if (m.variableOutputs) {
    Param n;
    n.declaration = "unsigned num_outputs";
    if (required.empty())
      n.defaultValue = std::to_string(std::max(1, schema.min_output()));
    m.params.push_back(n);
  }
  m.params.insert(m.params.end(), required.begin(), required.end());
  m.params.insert(m.params.end(), optional.begin(), optional.end());
  return true;
}

std::string className(int opset) { return "AiOnnxOpset" + std::to_string(opset); }

std::string signature(const Method &m, const std::string &qualifier,
                      bool withDefaults) {
  std::ostringstream out;
  out << (m.multipleOutputs ? "std::vector<TensorId> " : "TensorId ") << qualifier
      << m.name << "(";
  bool first = true;
  auto sep = [&]() {
    if (!first)
      out << ",\n    ";
    first = false;
  };
  if (m.hasInputs) {
    sep();
    out << "const std::vector<TensorId> &args";
  }
  for (const auto &p : m.params) {
    sep();
    out << p.declaration;
    if (withDefaults && !p.defaultValue.empty())
      out << " = " << p.defaultValue;
  }
  sep();
  out << "const popart::DebugContext &debugContext";
  if (withDefaults)
    out << " = {}";
  out << ")";
  return out.str();
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 6) {
    std::cerr << "usage: " << argv[0]
              << " <header out> <source out> <first opset> <last opset>"
                 " <operator ids header out>\n";
    return 2;
  }
  const int firstOpset = std::stoi(argv[3]);
  const int lastOpset = std::stoi(argv[4]);

  // Schemas of the default domain by op type, by since-version.
  std::map<std::string, std::map<int, onnx::OpSchema>> schemas;
  for (const auto &s : onnx::OpSchemaRegistry::get_all_schemas_with_history())
    if (s.domain().empty())
      schemas[s.Name()].emplace(s.SinceVersion(), s);

  std::ofstream hpp(argv[1]);
  std::ofstream cpp(argv[2]);
  hpp << "// Generated by popart-gen-opsets from the ONNX operator schemas of\n"
         "// libonnx. Do not edit.\n"
         "#ifndef POPART_BUILDER_GEN_HPP\n#define POPART_BUILDER_GEN_HPP\n\n"
         "#include <popart/debugcontext.hpp>\n#include <popart/domainopset.hpp>\n"
         "#include <popart/names.hpp>\n#include <popart/operatoridentifier.hpp>\n"
         "#include <popart/popart_export.hpp>\n"
         "#include <popart/vendored/optional.hpp>\n#include <popart/voiddata.hpp>\n\n"
         "#include <cstdint>\n#include <string>\n#include <vector>\n\n"
         "namespace popart {\n\n"
         "/// The highest ai.onnx opset the builder has an object for.\n"
      << "static constexpr int maxAiOnnxOpset = " << lastOpset << ";\n\n";
  cpp << "// Generated by popart-gen-opsets. Do not edit.\n"
         "#include <popart/builder.hpp>\n#include <popart/error.hpp>\n\n#include \"builder/CastAttribute.hpp\"\n\n"
         "namespace popart {\n\n";

  int methods = 0;
  for (int opset = firstOpset; opset <= lastOpset; ++opset) {
    std::string cls = className(opset);
    hpp << "/// The ai.onnx operators of opset " << opset << ".\n"
        << "class POPART_API " << cls << " : private DomainOpSet {\n"
        << "protected:\n"
        << "  int getOpsetVersion() const override { return " << opset << "; }\n"
        << "  const char *getDomain() const override { return Domain::ai_onnx; }\n\n"
        << "public:\n"
        << "  explicit " << cls
        << "(std::unique_ptr<BuilderImpl> &impl_) : DomainOpSet(impl_) {}\n\n";
    for (const auto &entry : schemas) {
      // The definition in force at this opset: the latest not after it.
      auto it = entry.second.upper_bound(opset);
      if (it == entry.second.begin())
        continue;
      --it;
      const onnx::OpSchema &schema = it->second;
      if (schema.Deprecated())
        continue;
      Method m;
      if (!makeMethod(schema, m))
        continue;
      hpp << "  /// " << m.opType << "-" << m.sinceVersion << "\n  "
          << signature(m, "", true) << ";\n";
      cpp << signature(m, cls + "::", false) << " {\n"
          << "  std::map<std::string, any> attributes;\n";
      for (const auto &p : m.params)
        if (!p.store.empty())
          cpp << "  " << p.store << "\n";
      std::string numOutputs = m.variableOutputs
                                   ? "num_outputs"
                                   : std::to_string(m.fixedOutputs);
      if (m.opType == "Constant")
        cpp << "  if (is_value_sparse)\n"
               "    throw error(\"Constant: sparse values are not supported\");\n";
      cpp << "  auto outs = addOp(\"" << m.opType << "\", "
          << (m.hasInputs ? "args" : "{}") << ", " << numOutputs
          << ", attributes, debugContext);\n"
          << (m.multipleOutputs ? "  return outs;\n" : "  return outs.at(0);\n")
          << "}\n\n";
      ++methods;
    }
    hpp << "};\n\n";
  }
  hpp << "} // namespace popart\n\n#endif\n";

  // Operator identifiers, one per definition: Onnx::Operators::Add_7.
  std::ofstream ids(argv[5]);
  ids << "// Generated by popart-gen-opsets from the ONNX operator schemas of\n"
         "// libonnx: the identifier of every definition of every ai.onnx\n"
         "// operator (type and the opset version it appeared in). Do not edit.\n"
         "#ifndef POPART_ONNXOPERATORS_GEN_HPP\n#define POPART_ONNXOPERATORS_GEN_HPP\n\n"
         "#include <popart/operatoridentifier.hpp>\n\n"
         "namespace popart {\nnamespace Onnx {\nnamespace Operators {\n";
  for (const auto &entry : schemas)
    for (const auto &version : entry.second) {
      const onnx::OpSchema &s = version.second;
      ids << "const static OperatorIdentifier " << entry.first << "_"
          << version.first << "(Domain::ai_onnx, \"" << entry.first << "\", "
          << version.first << ", {" << s.min_input() << ", " << s.max_input()
          << "}, " << s.max_output() << ");\n";
    }
  ids << "} // namespace Operators\n} // namespace Onnx\n} // namespace popart\n\n#endif\n";
  cpp << "} // namespace popart\n";
  std::cout << "popart-gen-opsets: " << methods << " op methods in opsets "
            << firstOpset << " to " << lastOpset << "\n";
  return hpp && cpp && ids ? 0 : 1;
}
