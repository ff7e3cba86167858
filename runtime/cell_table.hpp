#pragma once
// The cells compiled code reads globals through (GlobalCell) and the
// runtime's epoch, at addresses that are the same in every run of thorin
// when the address space allows it: LLVM's code embeds these addresses, and
// its code cache (jit/llvm/code_cache.hpp) finds a function compiled by an
// earlier run only if its IR, addresses included, is the same.

#include <cstddef>
#include <cstdint>
#include <deque>

#include "heap.hpp"

namespace thorin::rt {

/// What compiled code reads of a global without calling the runtime: its
/// value in this run and its optimized entry, each valid while the epoch
/// recorded with it is the runtime's (code is dropped only between runs or
/// with a new epoch). Cells never move, so code may hold their address; the
/// value is kept alive by Runtime::keptValues.
struct GlobalCell {
  uint64_t valueEpoch = 0;
  V value = 0;
  uint64_t entryEpoch = 0;
  Code entry = nullptr; // LLVM's code (final: no call needs counting)
};

/// Cells by index, and the epoch word, in one reserved region, made
/// writable a chunk at a time as cells are first used (a reservation alone
/// does not count against THORIN_MEMORY_MB); past it, in a deque.
class CellTable {
public:
  CellTable();
  ~CellTable();
  CellTable(const CellTable&) = delete;
  CellTable& operator=(const CellTable&) = delete;
  uint64_t& epoch() { return *epoch_; }
  GlobalCell& at(size_t i) {
    if (i < committed_) return cells_[i];
    return grow(i);
  }
  /// Whether the region is at the fixed address (else its addresses differ
  /// from run to run, and so does the code that embeds them).
  bool stable() const { return stable_; }

private:
  GlobalCell& grow(size_t i);
  void* region_ = nullptr;
  size_t bytes_ = 0;
  uint64_t* epoch_ = nullptr;
  uint64_t fallbackEpoch_ = 1;
  GlobalCell* cells_ = nullptr;
  size_t committed_ = 0; // cells [0, committed_) are writable
  size_t capacity_ = 0;  // cells below it are in the region, the rest in overflow_
  bool stable_ = false;
  std::deque<GlobalCell> overflow_;
};

} // namespace thorin::rt
