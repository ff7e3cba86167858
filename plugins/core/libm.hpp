// libm's functions on F64, shared by the normalizers (elaboration time) and
// the run-time primitives, so that a folded constant is the value a run
// computes; the LLVM tier calls the same functions (llvm.cpp). They are
// looked up in libm.so at their first use: the executable does not load
// libm.so at start-up (docs/building.md).
#pragma once
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace thorin::plug::core {

using Math1 = double (*)(double);
using Math2 = double (*)(double, double);

struct Libm {
  Math1 exp, log, sin, cos, tan, tanh, floor, ceil, fabs, lgamma;
  Math2 pow;
};

inline void* libmSymbol(void* lib, const char* name) {
  void* f = lib ? dlsym(lib, name) : nullptr;
  if (!f) {
    std::fprintf(stderr, "thorin: cannot find %s in libm.so.6: %s\n", name, dlerror());
    std::abort();
  }
  return f;
}

inline Libm loadLibm() {
  void* lib = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
  auto f1 = [lib](const char* name) { return reinterpret_cast<Math1>(libmSymbol(lib, name)); };
  return Libm{f1("exp"),
              f1("log"),
              f1("sin"),
              f1("cos"),
              f1("tan"),
              f1("tanh"),
              f1("floor"),
              f1("ceil"),
              f1("fabs"),
              f1("lgamma"),
              reinterpret_cast<Math2>(libmSymbol(lib, "pow"))};
}

inline const Libm& libm() {
  static const Libm m = loadLibm();
  return m;
}

} // namespace thorin::plug::core
