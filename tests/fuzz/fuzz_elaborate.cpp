// libFuzzer target: the input is a .thorin file, parsed and elaborated as
// `thorin check FILE` does (prelude and core plugin loaded); nothing runs
// (`.eval` has no runner: an error). Build and run: scripts/fuzz.
#include <iostream>

#include "fuzz_session.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  thorin::fuzz::startUp();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  thorin::fuzz::loadInput(data, size, nullptr, 10.0);
  return 0;
}
