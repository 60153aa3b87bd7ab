#include "CodeletGenerator.hpp"

#include "ExprOpInfo.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <sstream>

using namespace poplar;

namespace popops {
namespace detail {
namespace {

std::string cppType(const Type &t) { return t.toString().str(); }

// A C++ expression of `type` with the constant's value.
std::string literal(const ExprNode &node) {
  const ConstValue v = constValue(node);
  const std::string type = cppType(node.type);
  if (node.type == FLOAT || node.type == HALF) {
    const float f = static_cast<float>(v.floating);
    std::string value;
    if (std::isnan(f)) {
      value = "__builtin_nanf(\"\")";
    } else if (std::isinf(f)) {
      value = f < 0 ? "-__builtin_inff()" : "__builtin_inff()";
    } else {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%af", static_cast<double>(f));
      value = buffer;
    }
    return node.type == HALF ? "half(" + value + ")" : value;
  }
  if (node.type == BOOL)
    return v.integer ? "true" : "false";
  // static_cast, since a functional cast cannot name "unsigned int".
  return "static_cast<" + type + ">(" + std::to_string(v.integer) + "LL)";
}

// The vector counterpart of a scalar value's name: v<i> -> w<i>,
// c<n> -> k<n>, t<n> -> u<n>.
std::string vectorValue(const std::string &scalar) {
  const char prefix = scalar[0] == 'v' ? 'w' : scalar[0] == 'c' ? 'k' : 'u';
  return prefix + scalar.substr(1);
}

std::string call(const char *function, const std::vector<std::string> &args) {
  std::string s = std::string("popops::ops::") + function + "(";
  for (std::size_t i = 0; i != args.size(); ++i)
    s += (i ? ", " : "") + args[i];
  return s + ")";
}

// FNV-1a, 64 bits.
std::uint64_t hashOf(const std::string &s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

constexpr const char *namePlaceholder = "@VERTEX@";

// The operations ElementwiseVectorOps.hpp has, on vectors of floats.
bool vectorBinary(expr::BinaryOpType op) {
  using expr::BinaryOpType;
  return op == BinaryOpType::ADD || op == BinaryOpType::SUBTRACT ||
         op == BinaryOpType::MULTIPLY || op == BinaryOpType::DIVIDE ||
         op == BinaryOpType::MAXIMUM || op == BinaryOpType::MINIMUM;
}

// Whether every node is a float input, constant or one of those
// operations, so that the loop can run a vector at a time with the
// same bits and flags as element by element.
bool vectorisable(const TypedExpr &expr) {
  for (const ExprNode &n : expr.nodes()) {
    if (n.type != FLOAT)
      return false;
    switch (n.kind) {
    case ExprNode::Kind::Input:
    case ExprNode::Kind::Constant:
      break;
    case ExprNode::Kind::Binary:
      if (!vectorBinary(n.binaryOp))
        return false;
      break;
    case ExprNode::Kind::Ternary:
      if (n.ternaryOp != expr::TernaryOpType::CLAMP)
        return false;
      break;
    default:
      return false;
    }
  }
  return true;
}

} // namespace

GeneratedCodelet generateCodelet(const TypedExpr &expr,
                                 const std::vector<bool> &scalarInputs) {
  GeneratedCodelet result;
  const auto &nodes = expr.nodes();
  const std::string outType = cppType(expr.type());

  auto isScalar = [&](unsigned input) {
    return input < scalarInputs.size() && scalarInputs[input];
  };

  // Float expressions of vectorisable operations also get a loop over
  // vectors of the widest size the host has (ElementwiseVectorOps.hpp), the
  // scalar loop finishing each region. That loop is a function for each
  // vector size, given the output, the vector inputs' pointers and the
  // scalar inputs' values (vectorParams, vectorArgs).
  const bool vector = vectorisable(expr);
  std::ostringstream fields, hoisted, loads, body, vectorHoisted, vectorBody;
  std::string vectorParams, vectorArgs;
  auto addParam = [&](const std::string &type, const std::string &name) {
    vectorParams += ", " + type + " " + name;
    vectorArgs += ", " + name;
  };
  const std::string vecType = "V";
  fields << "  poplar::Vector<poplar::Output<poplar::Vector<" << outType
         << ">>> out;\n";
  for (unsigned input : expr.inputs()) {
    // The type of the tensor, from its placeholder node.
    Type type;
    for (const auto &n : nodes)
      if (n.kind == ExprNode::Kind::Input && n.input == input)
        type = n.type;
    const std::string t = cppType(type);
    const std::string i = std::to_string(input);
    if (isScalar(input)) {
      fields << "  poplar::Input<" << t << "> in" << i << ";\n";
      hoisted << "    const " << t << " v" << i << " = in" << i << ";\n";
      if (vector) {
        addParam(t, "v" + i);
        vectorHoisted << "  const " << vecType << " w" << i << " = O::splat(v"
                      << i << ");\n";
      }
    } else {
      fields << "  poplar::Vector<poplar::Input<poplar::Vector<" << t
             << ">>> in" << i << ";\n";
      loads << "      const " << t << " *p" << i << " = in" << i
            << "[r].data();\n";
      body << "        const " << t << " v" << i << " = p" << i << "[e];\n";
      if (vector)
        addParam("const " + t + " *", "p" + i);
      vectorBody << "    const " << vecType << " w" << i << " = O::load(p" << i
                 << " + e);\n";
      if (result.vectorOperands++ == 0)
        result.computeType = type;
    }
  }
  if (result.vectorOperands == 0)
    result.computeType = expr.type();

  // Each node a value: v<input> for inputs, c<n> for constants (hoisted out
  // of the loops), t<n> for operations.
  std::vector<std::string> value(nodes.size());
  for (unsigned n = 0; n != nodes.size(); ++n) {
    const ExprNode &node = nodes[n];
    const std::string type = cppType(node.type);
    std::vector<std::string> args;
    for (unsigned a : node.args)
      args.push_back(value[a]);
    std::string rhs;
    switch (node.kind) {
    case ExprNode::Kind::Input:
      value[n] = "v" + std::to_string(node.input);
      continue;
    case ExprNode::Kind::Constant:
      value[n] = "c" + std::to_string(n);
      hoisted << "    const " << type << ' ' << value[n] << " = "
              << literal(node) << ";\n";
      if (vector)
        vectorHoisted << "  const " << vecType << " k" << n << " = O::splat("
                      << literal(node) << ");\n";
      continue;
    case ExprNode::Kind::Cast:
      rhs = "popops::ops::cast<" + type + ">(" + args[0] + ")";
      result.opCycles += 1;
      break;
    case ExprNode::Kind::Unary:
      rhs = call(opFunction(node.unaryOp), args);
      result.opCycles +=
          detail::opCycles(node.unaryOp, nodes[node.args[0]].type);
      break;
    case ExprNode::Kind::Binary:
      rhs = call(opFunction(node.binaryOp), args);
      result.opCycles +=
          detail::opCycles(node.binaryOp, nodes[node.args[0]].type);
      break;
    case ExprNode::Kind::Ternary:
      rhs = call(opFunction(node.ternaryOp), args);
      result.opCycles += detail::opCycles(node.ternaryOp, node.type);
      break;
    }
    value[n] = "t" + std::to_string(n);
    body << "        const " << type << ' ' << value[n] << " = " << rhs
         << ";\n";
    if (vector) {
      // The same call on the nodes' vector values (w, k, u for v, c, t).
      std::string vrhs =
          std::string("O::") +
          (node.kind == ExprNode::Kind::Binary ? opFunction(node.binaryOp)
                                               : opFunction(node.ternaryOp)) +
          "(";
      for (std::size_t a = 0; a != node.args.size(); ++a)
        vrhs += (a ? ", " : "") + vectorValue(value[node.args[a]]);
      vectorBody << "    const " << vecType << " u" << n << " = " << vrhs
                 << ");\n";
    }
  }
  body << "        o[e] = " << value[expr.root()] << ";\n";
  vectorBody << "    O::store(o + e, " << vectorValue(value[expr.root()])
             << ");\n";

  std::ostringstream vertex;
  vertex << "namespace popops {\nnamespace map {\n\n";
  if (vector) {
    // The loop for each vector size, each compiled for its instruction set.
    vertex << "namespace {\n";
    struct Form {
      const char *target; // the attribute macro, empty for the baseline
      const char *lanes;
    };
    for (const Form &form : {Form{"POPOPS_VECOPS_AVX512 ", "16"},
                             Form{"POPOPS_VECOPS_AVX2 ", "8"}, Form{"", "4"}}) {
      const std::string lanes = form.lanes;
      vertex << "\n"
             << form.target << "unsigned vectorLoop" << lanes
             << "(unsigned e, unsigned end, float *o" << vectorParams << ") {\n"
             << "  typedef popops::vecops::Ops<popops::vecops::f32x" << lanes
             << "> O;\n  typedef O::V V;\n"
             << vectorHoisted.str()
             << "  for (; e + O::lanes <= end; e += O::lanes) {\n"
             << vectorBody.str() << "  }\n  return e;\n}\n";
    }
    vertex << "\n} // namespace\n\n";
  }
  vertex << "class " << namePlaceholder << " : public poplar::MultiVertex {\n"
         << "public:\n"
         << fields.str() << "\n"
         << "  void compute(unsigned wid) {\n"
         << hoisted.str();
  if (vector)
    vertex << "    const unsigned lanes = popops::vecops::hostLanes();\n";
  vertex << "    for (unsigned r = 0; r != out.size(); ++r) {\n"
         << "      const auto range = popops::codelet::workerRange(\n"
         << "          out[r].size(), wid, numWorkers());\n"
         << "      " << outType << " *o = out[r].data();\n"
         << loads.str() << "      unsigned e = range.begin;\n";
  if (vector) {
    const std::string loopArgs = "(e, range.end, o" + vectorArgs + ")";
    vertex << "      e = lanes == 16  ? vectorLoop16" << loopArgs << "\n"
           << "          : lanes == 8 ? vectorLoop8" << loopArgs << "\n"
           << "                       : vectorLoop4" << loopArgs << ";\n";
  }
  vertex << "      for (; e != range.end; ++e) {\n"
         << body.str() << "      }\n"
         << "    }\n"
         << "  }\n"
         << "};\n\n"
         << "} // namespace map\n} // namespace popops\n";
  std::string text = vertex.str();

  std::ostringstream name;
  name << "Expr_" << std::hex << std::setw(16) << std::setfill('0')
       << hashOf(text);
  result.vertexName = "popops::map::" + name.str();
  text.replace(text.find(namePlaceholder), std::string(namePlaceholder).size(),
               name.str());

  result.source = std::string("// Generated by popops::map for the "
                              "expression ") +
                  expr.key(expr.root()) + "\n#include <poplar/Vertex.hpp>\n" +
                  embeddedCodeletHeaders + "\n" + text;
  return result;
}

void addGeneratedCodelet(Graph &graph, const GeneratedCodelet &c) {
  if (graph.hasCodelet(c.vertexName))
    return;
  std::stringstream source(c.source);
  graph.addCodelets(source, "-O3");
}

} // namespace detail
} // namespace popops
