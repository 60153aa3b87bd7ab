// Runs the popc of this build on the sources in data/ and checks what it
// makes: the vertex table of the .gp, vertices bound and run by hand as the
// runtime would, the dependency file, and its errors.
#include <catch2/catch.hpp>

#include "codelet/GraphProgramFile.hpp"

#include <poplar/detail/CodeletInterface.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ci = poplar::codelet_interface;
using Catch::Matchers::Contains;

namespace {

std::string data(const std::string &name) {
  return std::string(POPC_TEST_DATA) + "/" + name;
}

std::string out(const std::string &name) {
  return std::string(POPC_TEST_OUT) + "/" + name;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool exists(const std::string &path) { return ::access(path.c_str(), F_OK) == 0; }

/// The 1-based number of the first line of `file` containing `text`.
unsigned lineOf(const std::string &file, const std::string &text) {
  std::ifstream in(file);
  unsigned n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find(text) != std::string::npos)
      return n;
  }
  FAIL("'" << text << "' is not in " << file);
  return 0;
}

struct Run {
  int exitCode = -1;
  std::string out, err;
};

Run runPopc(const std::vector<std::string> &args) {
  static unsigned count = 0;
  std::string base = out("run" + std::to_string(::getpid()) + "-" +
                         std::to_string(count++));
  std::vector<std::string> argv = {POPC_EXECUTABLE};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char *> cargv;
  for (std::string &a : argv)
    cargv.push_back(a.data());
  cargv.push_back(nullptr);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int o = ::open((base + ".out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = ::open((base + ".err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  Run r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readFile(base + ".out");
  r.err = readFile(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

/// A .gp checked and loaded as the runtime loads it.
class GraphProgram {
public:
  explicit GraphProgram(const std::string &path) {
    std::string why;
    if (!poplar::gp::validate(path, why))
      FAIL(why);
    handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      FAIL(::dlerror());
    auto fn = reinterpret_cast<ci::LibraryFunction>(
        ::dlsym(handle, "poplar_codelet_library_v1"));
    REQUIRE(fn);
    lib = fn();
    REQUIRE(lib);
  }
  ~GraphProgram() { ::dlclose(handle); }
  GraphProgram(const GraphProgram &) = delete;
  GraphProgram &operator=(const GraphProgram &) = delete;

  const ci::Library &library() const { return *lib; }

  std::set<std::string> names() const {
    std::set<std::string> result;
    for (std::size_t i = 0; i != lib->numVertices; ++i)
      result.insert(lib->vertices[i].name);
    return result;
  }

  const ci::VertexInfo &vertex(const std::string &name) const {
    for (std::size_t i = 0; i != lib->numVertices; ++i)
      if (name == lib->vertices[i].name)
        return lib->vertices[i];
    FAIL("no vertex " << name);
    throw 0;
  }

private:
  void *handle = nullptr;
  const ci::Library *lib = nullptr;
};

const ci::FieldInfo &field(const ci::VertexInfo &v, const std::string &name) {
  for (std::size_t i = 0; i != v.numFields; ++i)
    if (name == v.fields[i].name)
      return v.fields[i];
  FAIL("vertex " << v.name << " has no field " << name);
  throw 0;
}

std::vector<std::string> fieldNames(const ci::VertexInfo &v) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i != v.numFields; ++i)
    names.push_back(v.fields[i].name);
  return names;
}

/// Vertices.cpp and More.cpp, compiled once for all the tests that use it.
const GraphProgram &vertices() {
  static std::unique_ptr<GraphProgram> gp = [] {
    std::remove(out("Vertices.gp").c_str());
    Run r = runPopc({"-DPOPC_TEST_OFFSET=0.5f", "-I", data("include"),
                     "--target", "ipu2,cpu", "-O1", data("Vertices.cpp"),
                     data("More.cpp"), "-o", out("Vertices.gp"), "--depfile",
                     out("Vertices.gp.d")});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    return std::make_unique<GraphProgram>(out("Vertices.gp"));
  }();
  return *gp;
}

/// A vertex object, built and bound as the runtime does.
class Instance {
public:
  explicit Instance(const ci::VertexInfo &info) : info(info) {
    std::size_t size = (info.size + info.align - 1) / info.align * info.align;
    memory = std::aligned_alloc(info.align, size);
    info.construct(memory);
  }
  ~Instance() {
    info.destroy(memory);
    std::free(memory);
  }
  Instance(const Instance &) = delete;
  Instance &operator=(const Instance &) = delete;

  template <class T> void bind(const std::string &name, T *data, std::size_t size = 1) {
    ci::Binding b;
    b.data = data;
    b.size = size;
    field(info, name).bind(memory, b);
  }
  void bind(const std::string &name, const ci::Binding &b) {
    field(info, name).bind(memory, b);
  }
  bool compute(unsigned worker = 0) { return info.compute(memory, worker); }

private:
  const ci::VertexInfo &info;
  void *memory = nullptr;
};

/// Storage for the items of a list field, and where each item points.
struct ListBinding {
  ListBinding(const ci::FieldInfo &f, std::vector<ci::Binding> items)
      : items(std::move(items)) {
    storage = std::aligned_alloc(f.itemAlign, f.itemSize * (this->items.size() + 1));
    binding.size = this->items.size();
    binding.items = this->items.data();
    binding.itemStorage = storage;
  }
  ~ListBinding() { std::free(storage); }
  std::vector<ci::Binding> items;
  void *storage = nullptr;
  ci::Binding binding;
};

ci::Binding region(float *data, std::size_t size) {
  ci::Binding b;
  b.data = data;
  b.size = size;
  return b;
}

} // namespace

TEST_CASE("popc registers every vertex type of its inputs once", "[popc]") {
  const GraphProgram &gp = vertices();
  CHECK(gp.library().version == ci::version);
  std::set<std::string> expected = {
      "CommonScale", // from a header both inputs include
      "SumVertex",
      "AllFields",
      "ScaleMulti",
      "Supervised",
      "ns::inner::Nested",
      "Scale<float>",
      "Scale<half>", // instantiated by a macro
      "ns::Bar<int,true>",
      "ns::Apply<ns::Op::ADD,float>",
      "ns::Apply<ns::Op::SUB,short>",
      "ns::Fixed<unsigned int,4>", // a default argument
      "Derived<float>",
      "Mixed",
      "Special<int>", // an explicit specialization
      "Special<float>",
      "more::Copy", // from the second input
  };
  CHECK(gp.names() == expected);
  CHECK(gp.library().numVertices == expected.size());

  const ci::VertexInfo &sum = gp.vertex("SumVertex");
  CHECK(std::string(sum.file) == data("Vertices.cpp"));
  CHECK(sum.line == lineOf(data("Vertices.cpp"), "class SumVertex"));
  // An instantiation is declared where its template is.
  const ci::VertexInfo &scale = gp.vertex("Scale<half>");
  CHECK(scale.line == lineOf(data("Vertices.cpp"), "template <class T> class Scale"));
  CHECK(std::string(gp.vertex("CommonScale").file) ==
        data("include/CommonBase.hpp"));
}

TEST_CASE("popc describes every kind and shape of field", "[popc]") {
  const ci::VertexInfo &v = vertices().vertex("AllFields");
  REQUIRE(fieldNames(v) == std::vector<std::string>{"a", "b", "c", "d", "e",
                                                    "f", "g", "h", "i", "j",
                                                    "k", "l", "m", "n", "o"});
  using K = ci::FieldKind;
  using S = ci::FieldShape;
  struct Expected {
    const char *name;
    K kind;
    S shape;
    const char *element;
  };
  const Expected expected[] = {
      {"a", K::Input, S::Scalar, "float"},
      {"b", K::Output, S::Vector, "half"},
      {"c", K::InOut, S::Vector, "int"},
      {"d", K::Input, S::List, "float"},
      {"e", K::Input, S::List, "float"},
      {"f", K::Output, S::List, "unsigned short"},
      {"g", K::State, S::Scalar, "unsigned int"},
      {"h", K::State, S::Vector, "unsigned char"},
      {"i", K::State, S::Scalar, "bool"},
      {"j", K::State, S::Scalar, "char"},
      {"k", K::State, S::Scalar, "signed char"},
      {"l", K::State, S::Scalar, "short"},
      {"m", K::State, S::Scalar, "long long"},
      {"n", K::State, S::Scalar, "unsigned long long"},
      {"o", K::Input, S::Vector, "bool"},
  };
  for (const Expected &e : expected) {
    const ci::FieldInfo &f = field(v, e.name);
    INFO("field " << e.name);
    CHECK(f.kind == e.kind);
    CHECK(f.shape == e.shape);
    CHECK(std::string(f.elementType) == e.element);
    CHECK(f.bind != nullptr);
  }
  // Layouts, alignment and interleaving as written.
  CHECK(field(v, "c").layout == std::uint8_t(poplar::VectorLayout::ONE_PTR));
  CHECK(field(v, "c").alignBytes == 8);
  CHECK(field(v, "b").layout == std::uint8_t(poplar::VectorLayout::SPAN));
  CHECK(field(v, "d").layout ==
        std::uint8_t(poplar::VectorListLayout::DELTANELEMENTS));
  CHECK(field(v, "f").layout == std::uint8_t(poplar::VectorLayout::COMPACT_PTR));
  CHECK(field(v, "o").interleaved);
  CHECK_FALSE(field(v, "b").interleaved);
  // Lists: what each item is, and the object the runtime makes per item.
  CHECK(field(v, "d").itemShape == ci::FieldShape::Vector);
  CHECK(field(v, "d").itemSize == sizeof(poplar::detail::VectorEdge<const float>));
  CHECK(field(v, "e").itemShape == ci::FieldShape::Vector);
  CHECK(field(v, "e").itemSize == sizeof(poplar::Input<poplar::Vector<float>>));
  CHECK(field(v, "f").itemShape == ci::FieldShape::Scalar);
  CHECK(field(v, "f").itemSize == sizeof(poplar::Output<unsigned short>));
  CHECK(field(v, "f").itemAlign == alignof(poplar::Output<unsigned short>));
}

TEST_CASE("popc records which base a vertex type has", "[popc]") {
  const GraphProgram &gp = vertices();
  using B = ci::VertexBase;
  CHECK(gp.vertex("SumVertex").base == B::Vertex);
  CHECK(gp.vertex("ScaleMulti").base == B::MultiVertex);
  CHECK(gp.vertex("ns::inner::Nested").base == B::MultiVertex);
  CHECK(gp.vertex("Supervised").base == B::SupervisorVertex);
  // SupervisorVertexIf<sizeof(T) == 4>
  CHECK(gp.vertex("ns::Apply<ns::Op::ADD,float>").base == B::SupervisorVertex);
  CHECK(gp.vertex("ns::Apply<ns::Op::SUB,short>").base == B::Vertex);
  CHECK(gp.vertex("Special<int>").base == B::MultiVertex);
  CHECK(gp.vertex("Special<float>").base == B::Vertex);
}

TEST_CASE("Template instantiations have their instantiated fields", "[popc]") {
  const GraphProgram &gp = vertices();
  CHECK(std::string(field(gp.vertex("Scale<float>"), "in").elementType) == "float");
  CHECK(std::string(field(gp.vertex("Scale<half>"), "out").elementType) == "half");
  CHECK(field(gp.vertex("Scale<half>"), "k").kind == ci::FieldKind::State);
  const ci::FieldInfo &x = field(gp.vertex("ns::Bar<int,true>"), "x");
  CHECK(x.kind == ci::FieldKind::InOut);
  CHECK(std::string(x.elementType) == "int");
  CHECK(std::string(field(gp.vertex("ns::Fixed<unsigned int,4>"), "in").elementType) ==
        "unsigned int");
  CHECK(fieldNames(gp.vertex("Special<int>")) == std::vector<std::string>{"special"});
  CHECK(fieldNames(gp.vertex("Special<float>")) == std::vector<std::string>{"in"});
}

TEST_CASE("Inherited fields come first", "[popc]") {
  const GraphProgram &gp = vertices();
  CHECK(fieldNames(gp.vertex("CommonScale")) ==
        std::vector<std::string>{"scale", "in", "out"});
  // Through a base class given as a template argument.
  CHECK(fieldNames(gp.vertex("Mixed")) == std::vector<std::string>{"offset", "out"});
  // Through a dependent base class template.
  const ci::VertexInfo &d = gp.vertex("Derived<float>");
  REQUIRE(fieldNames(d) == std::vector<std::string>{"first", "second"});
  CHECK(field(d, "first").shape == ci::FieldShape::Vector);
  CHECK(std::string(field(d, "first").elementType) == "float");
}

TEST_CASE("Vertices bound by hand compute what a host loop does", "[popc]") {
  const GraphProgram &gp = vertices();

  SECTION("a region in, a scalar out; -D reached the code") {
    Instance v(gp.vertex("SumVertex"));
    float in[] = {1, 2, 3, 4};
    float result = 0;
    v.bind("in", in, 4);
    v.bind("out", &result);
    CHECK(v.compute());
    CHECK(result == 0.5f + 1 + 2 + 3 + 4);
  }
  SECTION("a template instantiation with state") {
    Instance v(gp.vertex("Scale<float>"));
    float in[] = {1, -2, 3};
    float result[3] = {};
    float k = 2.5f;
    v.bind("in", in, 3);
    v.bind("out", result, 3);
    v.bind("k", &k);
    CHECK(v.compute());
    for (unsigned i = 0; i != 3; ++i)
      CHECK(result[i] == in[i] * k);
  }
  SECTION("half elements") {
    Instance v(gp.vertex("Scale<half>"));
    half in[] = {half(1.5f), half(-4.0f)};
    half result[2];
    float k = 2;
    v.bind("in", in, 2);
    v.bind("out", result, 2);
    v.bind("k", &k);
    CHECK(v.compute());
    CHECK(float(result[0]) == 3.0f);
    CHECK(float(result[1]) == -8.0f);
  }
  SECTION("inherited fields") {
    Instance v(gp.vertex("CommonScale"));
    float scale = 3, in = 7, result = 0;
    v.bind("scale", &scale);
    v.bind("in", &in);
    v.bind("out", &result);
    CHECK(v.compute());
    CHECK(result == 21);
  }
  SECTION("a field of a dependent base") {
    Instance v(gp.vertex("Derived<float>"));
    float first[] = {9, 8};
    float second = 0;
    v.bind("first", first, 2);
    v.bind("second", &second);
    CHECK(v.compute());
    CHECK(second == 9);
  }
  SECTION("a MultiVertex runs once per worker") {
    const ci::VertexInfo &info = gp.vertex("ScaleMulti");
    Instance v(info);
    std::vector<float> data(20), expected(20);
    for (unsigned i = 0; i != data.size(); ++i)
      expected[i] = (data[i] = float(i)) * 2;
    float factor = 2;
    v.bind("data", data.data(), data.size());
    v.bind("factor", &factor);
    for (unsigned worker = 0; worker != poplar::MultiVertex::numWorkers(); ++worker)
      CHECK(v.compute(worker));
    CHECK(data == expected);
  }
  SECTION("a list of regions, and a result of false") {
    const ci::VertexInfo &info = gp.vertex("Supervised");
    Instance v(info);
    float a[] = {1, 2}, b[] = {3, 4, 5};
    ListBinding in(field(info, "in"), {region(a, 2), region(b, 3)});
    ListBinding lens(field(info, "lens"), {});
    std::vector<float> result(5);
    v.bind("in", in.binding);
    v.bind("lens", lens.binding);
    v.bind("out", result.data(), result.size());
    CHECK(v.compute());
    CHECK(result == std::vector<float>{1, 2, 3, 4, 5});
    std::vector<float> longer(6);
    v.bind("out", longer.data(), longer.size());
    CHECK_FALSE(v.compute()); // compute() returned false
  }
  SECTION("template arguments reach the code") {
    Instance bar(gp.vertex("ns::Bar<int,true>"));
    int x = 41;
    bar.bind("x", &x);
    CHECK(bar.compute());
    CHECK(x == 42);
    Instance sub(gp.vertex("ns::Apply<ns::Op::SUB,short>"));
    short a = 10, b = 3, result = 0;
    sub.bind("a", &a);
    sub.bind("b", &b);
    sub.bind("out", &result);
    CHECK(sub.compute());
    CHECK(result == 7);
  }
}

TEST_CASE("The dependency file names the sources and headers", "[popc]") {
  vertices();
  std::string deps = readFile(out("Vertices.gp.d"));
  CHECK_THAT(deps, Contains(out("Vertices.gp") + ":"));
  CHECK_THAT(deps, Contains(data("Vertices.cpp")));
  CHECK_THAT(deps, Contains(data("More.cpp")));
  CHECK_THAT(deps, Contains(data("include/CommonBase.hpp")));
  CHECK_THAT(deps, Contains("poplar/detail/CodeletInterface.hpp"));
}

TEST_CASE("popc reports errors at the offending declaration", "[popc]") {
  struct Case {
    const char *file;
    const char *declaration; // text on the line the error is reported at
    const char *message;
  };
  const Case cases[] = {
      {"NoCompute.cpp", "struct Lazy", "vertex class 'Lazy' has no compute() member function"},
      {"BadFieldType.cpp", "double scale", "field 'scale' of vertex class 'Precise' has unsupported type 'double'"},
      {"PrivateField.cpp", "secret;", "field 'secret' of vertex class 'Hidden' is not public"},
      {"Uninstantiated.cpp", "struct Forgotten", "vertex class template 'Forgotten' is never explicitly instantiated"},
      {"Abstract.cpp", "struct Shape", "vertex class 'Shape' is abstract"},
      {"TemplateBadField.cpp", "Input<T> in", "field 'in' of vertex class 'Cast<double>' has unsupported type"},
      {"SyntaxError.cpp", "Input<float> in", "error: expected ';'"},
  };
  for (const Case &c : cases) {
    DYNAMIC_SECTION(c.file) {
      std::string source = data(std::string("errors/") + c.file);
      // A failed run leaves an existing output as it was.
      std::string output = out("error.gp");
      std::ofstream(output) << "old";
      Run r = runPopc({source, "-o", output});
      INFO(r.err);
      CHECK(r.exitCode == 1);
      std::string where = source + ":" + std::to_string(lineOf(source, c.declaration)) + ":";
      CHECK_THAT(r.err, Contains(where));
      CHECK_THAT(r.err, Contains(c.message));
      CHECK(readFile(output) == "old");
    }
  }
}

TEST_CASE("Errors of the host compiler reach the user", "[popc]") {
  std::string output = out("compile-error.gp");
  std::remove(output.c_str());
  SECTION("an error in a function body") {
    std::string source = data("errors/CompileError.cpp");
    Run r = runPopc({source, "-o", output});
    INFO(r.err);
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Contains(source + ":" +
                               std::to_string(lineOf(source, "undeclaredName")) + ":"));
    CHECK_THAT(r.err, Contains("undeclaredName"));
  }
  SECTION("a field type known only in an instantiation") {
    std::string source = data("errors/DependentBadField.cpp");
    Run r = runPopc({source, "-o", output});
    INFO(r.err);
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Contains(source + ":" +
                               std::to_string(lineOf(source, "Input<T> in")) + ":"));
    CHECK_THAT(r.err, Contains("field 'in' of vertex 'Derived<double>' has an unsupported type"));
  }
  SECTION("code generation options are the compiler's") {
    std::string source = data("errors/DoublePromotion.cpp");
    Run r = runPopc({"-fno-such-codegen-option", source, "-o", output});
    INFO(r.err);
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Contains("no-such-codegen-option"));
  }
  SECTION("warning options are the compiler's") {
    std::string source = data("errors/DoublePromotion.cpp");
    Run r = runPopc({"-Werror", "-Wdouble-promotion", source, "-o", output});
    INFO(r.err);
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Contains("double-promotion"));
  }
  CHECK_FALSE(exists(output));
}

TEST_CASE("popc's command line", "[popc]") {
  std::string source = data("errors/NoCompute.cpp");
  SECTION("help, version and targets") {
    Run help = runPopc({"--help"});
    CHECK(help.exitCode == 0);
    CHECK_THAT(help.out, Contains("Usage: popc [options] <input file>... -o <output file>"));
    CHECK_THAT(help.out, Contains("--depfile"));
    Run version = runPopc({"--version"});
    CHECK(version.exitCode == 0);
    CHECK_THAT(version.out, Contains("popc "));
    Run targets = runPopc({"--list-targets"});
    CHECK(targets.exitCode == 0);
    for (const char *t : {"cpu", "ipu1", "ipu2", "ipu21"})
      CHECK_THAT(targets.out, Contains(std::string(t) + "\t"));
  }
  struct Case {
    std::vector<std::string> args;
    const char *message;
  };
  const Case cases[] = {
      {{data("no-such-file.cpp"), "-o", out("x.gp")}, "no such file"},
      {{"--frobnicate", source, "-o", out("x.gp")}, "unknown option '--frobnicate'"},
      {{"--target", "ipu2,ipu9", source, "-o", out("x.gp")}, "unknown target 'ipu9'"},
      {{"--target=gpu", source, "-o", out("x.gp")}, "unknown target 'gpu'"},
      {{source}, "no output file"},
      {{"-o", out("x.gp")}, "no input files"},
      {{source, "-o"}, "missing value after '-o'"},
      {{"-O4", source, "-o", out("x.gp")}, "unsupported optimisation level '-O4'"},
  };
  for (const Case &c : cases) {
    DYNAMIC_SECTION(c.message) {
      Run r = runPopc(c.args);
      INFO(r.err);
      CHECK(r.exitCode == 1);
      CHECK_THAT(r.err, Contains(std::string("popc: error: ") + c.message));
    }
  }
}

TEST_CASE("A .gp built by add_gp_library loads", "[popc]") {
  GraphProgram gp(POPC_TEST_BUILDTIME_GP);
  CHECK(gp.names() == std::set<std::string>{"Triple", "CommonScale"});
  Instance v(gp.vertex("Triple"));
  float in[] = {1, 2, 3}, result[3] = {};
  v.bind("in", in, 3);
  v.bind("out", result, 3);
  CHECK(v.compute());
  CHECK(result[2] == 9); // POPC_TEST_FACTOR=3 from the FLAGS
}
