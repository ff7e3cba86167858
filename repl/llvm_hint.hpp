#pragma once
// Whether the last `thorin run` of a file (the same path and contents) had
// LLVM compile: then this run loads and starts LLVM in the background from
// the beginning, beside elaboration, since its code will likely come from
// the code cache at once. (Loading and starting LLVM is ~20 ms, mostly page
// faults, on this machine; a run that never needs LLVM must not pay it, so
// it is not loaded blindly.) One empty file per such script, in the code
// cache's directory (runs/).

#include <string>

namespace thorin {

class LlvmHint {
public:
  LlvmHint(const std::string& cacheDir, const std::string& file);
  /// Did the last run of this file compile with LLVM?
  bool expected() const { return expected_; }
  /// After the run: remember whether it compiled with LLVM.
  void record(bool usedLlvm) const;

private:
  std::string dir_, marker_;
  bool expected_ = false;
};

} // namespace thorin
