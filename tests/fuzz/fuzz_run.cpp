// libFuzzer target: the input is a .thorin file, elaborated and run: its
// `.eval`s run in the interpreter and in baseline code (hot at the second
// call), as `thorin run --jit=baseline --jit-threshold 2` would; no LLVM.
// A run longer than 2 s is interrupted (a located "interrupted" error), so
// a slow input is not a hang. Build and run: scripts/fuzz.
#include <iostream>

#include "fuzz_session.hpp"
#include "jit/baseline/baseline_tier.hpp"
#include "runtime/engine.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  thorin::fuzz::startUp();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  thorin::rt::JitOptions jit;
  jit.mode = thorin::rt::JitMode::Lazy;
  jit.llvm = false;    // --jit=baseline
  jit.threshold = 2;   // hot at the second call
  jit.background = false;
  std::ostream null(nullptr);
  thorin::rt::Runtime runtime(jit, null);
  if (runtime.wantsBaseline()) runtime.setBaseline(thorin::rt::makeBaselineTier());
  thorin::fuzz::loadInput(data, size, &runtime, 2.0);
  return 0;
}
