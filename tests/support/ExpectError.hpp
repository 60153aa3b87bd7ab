// Error-path checks shared by the bad-input tests of every library.
#ifndef SDK_TESTS_SUPPORT_EXPECTERROR_HPP
#define SDK_TESTS_SUPPORT_EXPECTERROR_HPP

#include <catch2/catch.hpp>

#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace sdktest {

// Calls `bad`, which must throw E (not merely a base of it) with every one
// of `names` in its message; `what` says which case failed.
template <class E>
void expectError(const std::string &what, const std::function<void()> &bad,
                 const std::vector<std::string> &names) {
  INFO(what);
  try {
    bad();
    FAIL("no exception");
  } catch (const E &e) {
    for (const auto &name : names) {
      INFO("message: " << e.what());
      CHECK(std::string(e.what()).find(name) != std::string::npos);
    }
  } catch (const std::exception &e) {
    FAIL("the wrong exception: " << e.what());
  }
}

} // namespace sdktest

#endif
