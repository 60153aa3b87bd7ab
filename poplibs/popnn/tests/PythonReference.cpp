#include "PythonReference.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace popnntest {
namespace {

const char *prologue = R"(import os, sys
import numpy as np
import torch
torch.set_grad_enabled(True)
_dir = sys.argv[1]
def inp(name):
    return np.fromfile(os.path.join(_dir, 'in_' + name + '.bin'), dtype=np.float64)
out = {}
)";

const char *epilogue = R"(
for _k, _v in out.items():
    if isinstance(_v, torch.Tensor):
        _v = _v.detach().numpy()
    np.asarray(_v, dtype=np.float64).ravel().tofile(os.path.join(_dir, 'out_' + _k + '.bin'))
with open(os.path.join(_dir, 'outputs.txt'), 'w') as _f:
    _f.write('\n'.join(out.keys()))
)";

} // namespace

Arrays runPython(const std::string &script, const Arrays &inputs) {
  std::string pattern = (fs::temp_directory_path() / "popnn-ref-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  const fs::path dir = pattern;
  for (const auto &[name, values] : inputs) {
    std::ofstream f(dir / ("in_" + name + ".bin"), std::ios::binary);
    f.write(reinterpret_cast<const char *>(values.data()),
            std::streamsize(values.size() * sizeof(double)));
  }
  {
    std::ofstream f(dir / "script.py");
    f << prologue << script << epilogue;
  }
  const std::string command = "/usr/bin/python3 " + (dir / "script.py").string() +
                              " " + dir.string();
  const int status = std::system(command.c_str());
  Arrays outputs;
  std::ifstream names(dir / "outputs.txt");
  std::string name;
  while (status == 0 && std::getline(names, name)) {
    std::ifstream f(dir / ("out_" + name + ".bin"), std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)),
                            std::istreambuf_iterator<char>());
    std::vector<double> values(bytes.size() / sizeof(double));
    std::copy(bytes.begin(), bytes.begin() + values.size() * sizeof(double),
              reinterpret_cast<char *>(values.data()));
    outputs[name] = std::move(values);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  INFO(script);
  REQUIRE(status == 0);
  return outputs;
}

} // namespace popnntest
