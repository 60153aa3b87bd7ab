// The exceptions PopART throws: popart::error for anything the user can
// correct (the message names the tensor, op or file at fault),
// internal_error for a broken invariant of the library.
#ifndef POPART_ERROR_HPP
#define POPART_ERROR_HPP

#include <popart/logging.hpp>
#include <popart/popart_export.hpp>

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

namespace popart {

enum class ErrorSource { popart = 0, popart_internal, poplar, poplibs, unknown };

class POPART_API error : public std::runtime_error {
public:
  explicit error(const std::string &what);
  explicit error(const char *what) : error(std::string(what)) {}
  template <typename... Args>
  error(const std::string &fmt, Args &&...args)
      : error(logging::format(fmt, std::forward<Args>(args)...)) {}
  template <typename... Args>
  error(const char *fmt, Args &&...args)
      : error(logging::format(std::string(fmt), std::forward<Args>(args)...)) {}
  ~error() override;

  /// Where the error was raised (file and line when known).
  const std::string &stackreport() const { return stack; }

private:
  std::string stack;
};

/// A broken invariant of PopART itself.
class POPART_API internal_error : public error {
public:
  using error::error;
  ~internal_error() override;
};

/// An error only known when running (bad data given to a step, ...).
class POPART_API runtime_error : public error {
public:
  using error::error;
  ~runtime_error() override;
};

/// Poplar could not fit the graph in tile memory while the engine was
/// made; the report says where memory went.
class POPART_API memory_allocation_err : public error {
public:
  explicit memory_allocation_err(const std::string &info);
  ~memory_allocation_err() override;
  virtual std::unique_ptr<memory_allocation_err> clone() const = 0;
  virtual std::string getSummaryReport() const = 0;
  virtual std::string getProfilePath() const = 0;
};

POPART_API ErrorSource getErrorSource(const std::exception &e);

} // namespace popart

#endif
