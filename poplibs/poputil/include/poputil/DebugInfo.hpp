// Debug records of PopLibs operations: each public operation makes a
// PoplibsOpDebugInfo (a poplar::DebugInfo of layer "poplibs") naming the
// API, its arguments and its outputs, converted by toProfileValue.
#ifndef POPUTIL_DEBUGINFO_HPP
#define POPUTIL_DEBUGINFO_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <poplar/Type.hpp>
#include <poputil/poputil_export.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

// Whether a default argument can name the calling function.
#if defined(__clang__)
#define SUPPORTS_FUNCTION_BUILTINS __has_builtin(__builtin_FUNCTION)
#elif defined(__GNUC__) && __GNUC__ >= 7
#define SUPPORTS_FUNCTION_BUILTINS 1
#else
#define SUPPORTS_FUNCTION_BUILTINS 0
#endif

namespace poputil {

/// A value of type T as a ProfileValue, for debug records. Specialised for
/// the basic types and Poplar's; a library specialises it for its own
/// types (plans, parameter structures).
template <typename T> poplar::ProfileValue toProfileValue(const T &t);

template <> POPUTIL_API poplar::ProfileValue toProfileValue(const int &v);
template <> POPUTIL_API poplar::ProfileValue toProfileValue(const unsigned &v);
template <> POPUTIL_API poplar::ProfileValue toProfileValue(const long &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const unsigned long &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const unsigned char &v);
template <> POPUTIL_API poplar::ProfileValue toProfileValue(const bool &v);
template <> POPUTIL_API poplar::ProfileValue toProfileValue(const float &v);
template <> POPUTIL_API poplar::ProfileValue toProfileValue(const double &v);
template <> POPUTIL_API poplar::ProfileValue toProfileValue(const long long &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const unsigned long long &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const std::string &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const poplar::ComputeSet &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const poplar::OptionFlags &v);
template <>
POPUTIL_API poplar::ProfileValue
toProfileValue(const poplar::program::Copy &v);
template <>
POPUTIL_API poplar::ProfileValue
toProfileValue(const poplar::program::Sequence &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const poplar::Tensor &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const poplar::Type &v);
template <>
POPUTIL_API poplar::ProfileValue
toProfileValue(const poplar::TensorCloneMethod &v);
template <>
POPUTIL_API poplar::ProfileValue toProfileValue(const std::vector<bool> &v);

/// A pointer: what it points to, or "<nullptr>".
template <typename T> poplar::ProfileValue toProfileValue(const T *t) {
  return t ? toProfileValue(*t) : poplar::ProfileValue("<nullptr>");
}
template <typename T> poplar::ProfileValue toProfileValue(T *const &t) {
  return t ? toProfileValue(*t) : poplar::ProfileValue("<nullptr>");
}

/// A vector: a map from each index ("0", "1", ...) to its element.
template <typename T>
poplar::ProfileValue toProfileValue(const std::vector<T> &vec) {
  poplar::ProfileValue::Map m;
  for (std::size_t i = 0; i != vec.size(); ++i)
    m.insert({std::to_string(i), toProfileValue(vec[i])});
  return m;
}

/// An ArrayRef: a vector of its elements.
template <typename T>
poplar::ProfileValue toProfileValue(const poplar::ArrayRef<T> &vec) {
  poplar::ProfileValue::Vector v;
  for (std::size_t i = 0; i != vec.size(); ++i)
    v.push_back(toProfileValue(vec[i]));
  return v;
}

/// A pair: a map with "first" and "second".
template <typename T1, typename T2>
poplar::ProfileValue toProfileValue(const std::pair<T1, T2> &pair) {
  poplar::ProfileValue::Map m;
  m.insert({"first", toProfileValue(pair.first)});
  m.insert({"second", toProfileValue(pair.second)});
  return m;
}

/// A std::array: a map from each index to its element.
template <typename T, std::size_t N>
poplar::ProfileValue toProfileValue(const std::array<T, N> &array) {
  poplar::ProfileValue::Map m;
  for (std::size_t i = 0; i != N; ++i)
    m.insert({std::to_string(i), toProfileValue(array[i])});
  return m;
}

/// A named argument (or output) of an operation.
class POPUTIL_API ArgType {
public:
  std::string n;
  poplar::ProfileValue pv;

  ArgType(const std::string &name, const poplar::ProfileValue &value)
      : n(name), pv(value) {}
  ArgType(const std::pair<std::string, const poplar::ProfileValue> &p)
      : n(p.first), pv(p.second) {}
};

/// The debug record of an operation of layer "poplibs", naming its API.
class POPUTIL_API OpDebugInfo : public poplar::DebugInfo {
public:
  OpDebugInfo(const poplar::DebugContext &debugContext, std::string api);
  OpDebugInfo &operator=(const OpDebugInfo &) = delete;
  OpDebugInfo(const OpDebugInfo &) = delete;
  virtual ~OpDebugInfo() = default;

  /// Adds `name` as a map of the arguments; nothing when there are none.
  void add(std::string name, const std::vector<ArgType> &args);
  void add(std::string name, poplar::ProfileValue pv);
};

/// The debug record of a PopLibs operation: its API (by default the
/// calling function's name), its arguments ("args") and, added when
/// known, its outputs ("outputs").
class POPUTIL_API PoplibsOpDebugInfo : public OpDebugInfo {
public:
#if SUPPORTS_FUNCTION_BUILTINS
  PoplibsOpDebugInfo(const poplar::DebugContext &debugContext,
                     const std::vector<ArgType> &args = {},
                     const std::string &api = __builtin_FUNCTION());
#else
  PoplibsOpDebugInfo(const poplar::DebugContext &debugContext,
                     const std::vector<ArgType> &args = {},
                     const std::string &api = "");
#endif
  PoplibsOpDebugInfo &operator=(const PoplibsOpDebugInfo &) = delete;
  PoplibsOpDebugInfo(const PoplibsOpDebugInfo &) = delete;
  virtual ~PoplibsOpDebugInfo() = default;

  void addOutputs(const std::vector<ArgType> &outputs);
  /// The one output of an operation that has one ("output").
  void addOutput(const poplar::Tensor &output);
};

} // namespace poputil

// DI_ARGS(a, b, c) is {{"a", toProfileValue(a)}, {"b", ...}, {"c", ...}}:
// the arguments of an operation named by their own spelling, for
// PoplibsOpDebugInfo. Up to 16 arguments.
#define DI_STR(S) #S
#define DI_XSTR(S) DI_STR(S)
#define DI_MACRO_CONCAT_(a, b) a##b
#define DI_MACRO_CONCAT(a, b) DI_MACRO_CONCAT_(a, b)
#define DI_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, \
                  _15, _16, count, ...)                                        \
  count
#define DI_NUM_ARGS(...)                                                       \
  DI_COUNT_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, \
            0)
#define DI_PAIR_(x)                                                            \
  { DI_XSTR(x), poputil::toProfileValue(x) }
#define DI_PAIRS_1(x) DI_PAIR_(x)
#define DI_PAIRS_2(x, ...) DI_PAIR_(x), DI_PAIRS_1(__VA_ARGS__)
#define DI_PAIRS_3(x, ...) DI_PAIR_(x), DI_PAIRS_2(__VA_ARGS__)
#define DI_PAIRS_4(x, ...) DI_PAIR_(x), DI_PAIRS_3(__VA_ARGS__)
#define DI_PAIRS_5(x, ...) DI_PAIR_(x), DI_PAIRS_4(__VA_ARGS__)
#define DI_PAIRS_6(x, ...) DI_PAIR_(x), DI_PAIRS_5(__VA_ARGS__)
#define DI_PAIRS_7(x, ...) DI_PAIR_(x), DI_PAIRS_6(__VA_ARGS__)
#define DI_PAIRS_8(x, ...) DI_PAIR_(x), DI_PAIRS_7(__VA_ARGS__)
#define DI_PAIRS_9(x, ...) DI_PAIR_(x), DI_PAIRS_8(__VA_ARGS__)
#define DI_PAIRS_10(x, ...) DI_PAIR_(x), DI_PAIRS_9(__VA_ARGS__)
#define DI_PAIRS_11(x, ...) DI_PAIR_(x), DI_PAIRS_10(__VA_ARGS__)
#define DI_PAIRS_12(x, ...) DI_PAIR_(x), DI_PAIRS_11(__VA_ARGS__)
#define DI_PAIRS_13(x, ...) DI_PAIR_(x), DI_PAIRS_12(__VA_ARGS__)
#define DI_PAIRS_14(x, ...) DI_PAIR_(x), DI_PAIRS_13(__VA_ARGS__)
#define DI_PAIRS_15(x, ...) DI_PAIR_(x), DI_PAIRS_14(__VA_ARGS__)
#define DI_PAIRS_16(x, ...) DI_PAIR_(x), DI_PAIRS_15(__VA_ARGS__)
#define DI_KEY_VALUE_ARG(...)                                                  \
  DI_MACRO_CONCAT(DI_PAIRS_, DI_NUM_ARGS(__VA_ARGS__))(__VA_ARGS__)
#define DI_ARGS(...)                                                           \
  { DI_KEY_VALUE_ARG(__VA_ARGS__) }

#endif // POPUTIL_DEBUGINFO_HPP
