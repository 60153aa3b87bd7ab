// Reference values computed by PyTorch and NumPy at test time, with
// Debian's /usr/bin/python3 (where python3-torch lives).
#ifndef POPNN_TESTS_PYTHONREFERENCE_HPP
#define POPNN_TESTS_PYTHONREFERENCE_HPP

#include <map>
#include <string>
#include <vector>

namespace popnntest {

using Arrays = std::map<std::string, std::vector<double>>;

/// Runs `script` with numpy as np and torch imported: inp("name") gives
/// the input of that name as a flat float64 numpy array; the script puts
/// its results in the dict `out` (anything numpy can make a float64 array
/// of), which come back flattened. One python process per call, so tests
/// batch their cases into one script. A failing script fails the test.
Arrays runPython(const std::string &script, const Arrays &inputs);

} // namespace popnntest

#endif
