// For tests of POPLAR_IPU_MODEL_AS_HARDWARE: sets the switch for a scope,
// with the device locks in a directory of the test program's own, so that
// tests running at once do not take each other's devices.
#ifndef SDK_TESTS_SUPPORT_MODELASHARDWARE_HPP
#define SDK_TESTS_SUPPORT_MODELASHARDWARE_HPP

#include <cstdlib>
#include <string>

namespace sdktest {

class ModelAsHardware {
public:
  /// value: "ipu1", "ipu2" (or any other value, to test its error), or
  /// nullptr for the switch unset.
  explicit ModelAsHardware(const char *value) {
    static const std::string dir = [] {
      char name[] = "/tmp/model-as-hardware-test-XXXXXX";
      return std::string(mkdtemp(name));
    }();
    setenv("TMPDIR", dir.c_str(), 1);
    if (value)
      setenv("POPLAR_IPU_MODEL_AS_HARDWARE", value, 1);
    else
      unsetenv("POPLAR_IPU_MODEL_AS_HARDWARE");
  }
  ModelAsHardware(const ModelAsHardware &) = delete;
  ModelAsHardware &operator=(const ModelAsHardware &) = delete;
  ~ModelAsHardware() { unsetenv("POPLAR_IPU_MODEL_AS_HARDWARE"); }
};

} // namespace sdktest

#endif // SDK_TESTS_SUPPORT_MODELASHARDWARE_HPP
