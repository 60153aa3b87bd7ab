// The Python interpreter of the sanitizer build (SDK_FUZZ): Debian's
// CPython, from its shared library, started by a program linked with the
// build's AddressSanitizer and UndefinedBehaviorSanitizer runtime. The
// SDK's instrumented extension modules find that runtime in it when they
// are imported, and the programs the tests start (popc, the tutorials)
// keep their own: nothing is preloaded, so nothing is inherited.
#include <Python.h>

int main(int argc, char **argv) { return Py_BytesMain(argc, argv); }
