// How an op describes its attributes (for the IR's dumps and DOT files):
// the op appends each attribute by name to a serialiser.
#ifndef POPART_OPSERIALISER_HPP
#define POPART_OPSERIALISER_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>
#include <popart/vendored/optional.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace popart {

class POPART_API OpSerialiserBase {
public:
  virtual ~OpSerialiserBase();

  void appendAttribute(const std::string &name, float value);
  void appendAttribute(const std::string &name, double value);
  void appendAttribute(const std::string &name, int value);
  void appendAttribute(const std::string &name, int64_t value);
  void appendAttribute(const std::string &name, uint32_t value);
  void appendAttribute(const std::string &name, uint64_t value);
  void appendAttribute(const std::string &name, bool value);
  void appendAttribute(const std::string &name, const std::string &value);
  void appendAttribute(const std::string &name, const char *value);
  void appendAttribute(const std::string &name,
                       const std::vector<int64_t> &value);
  void appendAttribute(const std::string &name,
                       const std::vector<float> &value);
  void appendAttribute(const std::string &name,
                       const std::vector<std::string> &value);
  void appendAttribute(const std::string &name,
                       const nonstd::optional<int64_t> &value);
  void appendAttribute(const std::string &name,
                       const nonstd::optional<float> &value);

protected:
  /// Receives each attribute as its text form.
  virtual void appendText(const std::string &name, const std::string &value) = 0;
};

/// A serialiser that keeps the attributes as name -> text.
class POPART_API OpAttributeMap : public OpSerialiserBase {
public:
  const std::map<std::string, std::string> &attributes() const { return map; }

protected:
  void appendText(const std::string &name, const std::string &value) override;

private:
  std::map<std::string, std::string> map;
};

} // namespace popart

#endif
