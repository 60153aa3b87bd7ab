// Patterns: which graph rewrites IR preparation applies. Each pattern has
// a name, is on or off by default and may be mandatory; InPlace (on at the
// Default and All levels) lets ops write their results into their inputs.
#ifndef POPART_PATTERNS_PATTERNS_HPP
#define POPART_PATTERNS_PATTERNS_HPP

#include <popart/popart_export.hpp>

#include <map>
#include <string>
#include <vector>

namespace popart {

/// NoPatterns: none; Minimal: the mandatory ones; Default: those on by
/// default; All: every pattern.
enum class PatternsLevel { NoPatterns = 0, Minimal, Default, All };

class POPART_API Patterns {
public:
  Patterns();
  explicit Patterns(PatternsLevel level);
  /// Only the named patterns (popart::error for an unknown name).
  explicit Patterns(std::vector<std::string> patterns);
  static Patterns create(std::vector<std::string> patterns);

  bool isPatternEnabled(const std::string &name) const;
  Patterns &enablePattern(const std::string &name, bool enable);
  /// The names of the patterns applied before aliasing (all of them here).
  static std::vector<std::string> getAllPreAliasPatternNames();
  static bool isMandatory(const std::string &name);

  bool isOpToIdentityEnabled() const { return isPatternEnabled("OpToIdentity"); }
  Patterns &enableOpToIdentity(bool v) { return enablePattern("OpToIdentity", v); }
  bool isPreUniReplEnabled() const { return isPatternEnabled("PreUniRepl"); }
  Patterns &enablePreUniRepl(bool v) { return enablePattern("PreUniRepl", v); }
  bool isPostNReplEnabled() const { return isPatternEnabled("PostNRepl"); }
  Patterns &enablePostNRepl(bool v) { return enablePattern("PostNRepl", v); }
  bool isSoftMaxGradDirectEnabled() const {
    return isPatternEnabled("SoftmaxGradDirect");
  }
  Patterns &enableSoftMaxGradDirect(bool v) {
    return enablePattern("SoftmaxGradDirect", v);
  }
  bool isNlllWithSoftMaxGradDirectEnabled() const {
    return isPatternEnabled("NlllWithSoftmaxGradDirect");
  }
  Patterns &enableNlllWithSoftMaxGradDirect(bool v) {
    return enablePattern("NlllWithSoftmaxGradDirect", v);
  }
  /// popart::error naming the first mandatory pattern that is off (checked
  /// when a session prepares its IR, unless runtime asserts are off).
  void ensureAllMandatoryPreAliasPatternsAreEnabled() const;

  bool isInPlaceEnabled() const { return inplaceEnabled; }
  Patterns &enableInPlace(bool v) {
    inplaceEnabled = v;
    return *this;
  }
  bool isUpdateInplacePrioritiesForIpuEnabled() const { return updateInplacePrioritiesForIpu; }
  Patterns &enableUpdateInplacePrioritiesForIpu(bool v) {
    updateInplacePrioritiesForIpu = v;
    return *this;
  }
  /// Checks of each pattern's result (at a cost in preparation time).
  Patterns &enableRuntimeAsserts(bool b) {
    runtimeAssertsOn = b;
    return *this;
  }
  bool getRuntimeAssertsOn() const { return runtimeAssertsOn; }

  const std::map<std::string, bool> &getSettings() const { return settings; }
  bool operator==(const Patterns &other) const;

private:
  std::map<std::string, bool> settings;
  bool inplaceEnabled = false;
  bool updateInplacePrioritiesForIpu = false;
  bool runtimeAssertsOn = true;
};

POPART_API std::ostream &operator<<(std::ostream &os, const Patterns &patterns);

} // namespace popart

#endif
