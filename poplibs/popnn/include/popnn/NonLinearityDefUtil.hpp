// Printing and parsing NonLinearityType, and its spelling in vertex names.
#ifndef POPNN_NONLINEARITYDEFUTIL_HPP
#define POPNN_NONLINEARITYDEFUTIL_HPP

#include <popnn/NonLinearityDef.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <istream>
#include <ostream>
#include <string>

namespace popnn {

inline const char *asString(const NonLinearityType &type) {
  switch (type) {
  case NonLinearityType::SIGMOID:
    return "sigmoid";
  case NonLinearityType::HARD_SIGMOID:
    return "hard sigmoid";
  case NonLinearityType::RELU:
    return "relu";
  case NonLinearityType::TANH:
    return "tanh";
  case NonLinearityType::GELU:
    return "gelu";
  case NonLinearityType::GELU_ERF:
    return "gelu_erf";
  case NonLinearityType::SWISH:
    return "swish";
  case NonLinearityType::SOFTMAX:
    return "softmax";
  case NonLinearityType::SOFTMAX_STABLE:
    return "softmax (stable)";
  case NonLinearityType::SOFTMAX_SCALED:
    return "softmax (scaled, stable)";
  }
  throw poputil::poplibs_error("Unsupported non-linearity type " +
                               std::to_string(static_cast<int>(type)));
}

inline std::ostream &operator<<(std::ostream &os,
                                const NonLinearityType &type) {
  return os << asString(type);
}

/// Reads the one-word names: sigmoid, hard_sigmoid, relu, tanh, gelu,
/// gelu_erf, swish, softmax, softmax_stable, softmax_scaled.
inline std::istream &operator>>(std::istream &in, NonLinearityType &type) {
  std::string token;
  in >> token;
  if (token == "sigmoid")
    type = NonLinearityType::SIGMOID;
  else if (token == "hard_sigmoid")
    type = NonLinearityType::HARD_SIGMOID;
  else if (token == "relu")
    type = NonLinearityType::RELU;
  else if (token == "tanh")
    type = NonLinearityType::TANH;
  else if (token == "gelu")
    type = NonLinearityType::GELU;
  else if (token == "gelu_erf")
    type = NonLinearityType::GELU_ERF;
  else if (token == "swish")
    type = NonLinearityType::SWISH;
  else if (token == "softmax")
    type = NonLinearityType::SOFTMAX;
  else if (token == "softmax_stable")
    type = NonLinearityType::SOFTMAX_STABLE;
  else if (token == "softmax_scaled")
    type = NonLinearityType::SOFTMAX_SCALED;
  else
    throw poputil::poplibs_error("Unsupported non-linearity type '" + token +
                                 "'");
  return in;
}

} // namespace popnn

namespace poputil {

/// How a NonLinearityType is spelled as a vertex template argument.
template <> struct VertexTemplateToString<popnn::NonLinearityType> {
  static std::string to_string(const popnn::NonLinearityType &type) {
    switch (type) {
    case popnn::NonLinearityType::SIGMOID:
      return "popnn::NonLinearityType::SIGMOID";
    case popnn::NonLinearityType::HARD_SIGMOID:
      return "popnn::NonLinearityType::HARD_SIGMOID";
    case popnn::NonLinearityType::RELU:
      return "popnn::NonLinearityType::RELU";
    case popnn::NonLinearityType::TANH:
      return "popnn::NonLinearityType::TANH";
    case popnn::NonLinearityType::GELU:
      return "popnn::NonLinearityType::GELU";
    case popnn::NonLinearityType::GELU_ERF:
      return "popnn::NonLinearityType::GELU_ERF";
    case popnn::NonLinearityType::SWISH:
      return "popnn::NonLinearityType::SWISH";
    default:
      throw poputil::poplibs_error(
          std::string("No vertex for the non-linearity ") +
          popnn::asString(type));
    }
  }
};

} // namespace poputil

#endif // POPNN_NONLINEARITYDEFUTIL_HPP
