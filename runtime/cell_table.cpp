#include "cell_table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>

namespace thorin::rt {

namespace {
// Far from where Linux places mappings (downwards from 0x7f…), the
// executable and its heap (low addresses) and mimalloc's arenas (2–4 TiB);
// inside AddressSanitizer's high memory.
constexpr uintptr_t kFixedAddress = 0x5e0000000000;
constexpr size_t kCells = size_t(1) << 21; // 64 MiB of address space, reserved only
constexpr size_t kHeader = 4096;           // the epoch, alone on its page
constexpr size_t kChunk = 2048;            // cells made writable at a time (64 KiB)
bool gFixedTaken = false;                  // (one table per process gets it)
} // namespace

CellTable::CellTable() {
  bytes_ = kHeader + kCells * sizeof(GlobalCell);
  // Reserved without access: only what is made writable counts (RLIMIT_DATA).
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  void* p = MAP_FAILED;
#ifdef MAP_FIXED_NOREPLACE
  if (!gFixedTaken) {
    p = mmap(reinterpret_cast<void*>(kFixedAddress), bytes_, PROT_NONE, flags | MAP_FIXED_NOREPLACE,
             -1, 0);
    // (Kernels before 4.17 take the flag as a hint and may map elsewhere.)
    if (p != MAP_FAILED && p != reinterpret_cast<void*>(kFixedAddress)) {
      munmap(p, bytes_);
      p = MAP_FAILED;
    }
    stable_ = p != MAP_FAILED;
    gFixedTaken = stable_;
  }
#endif
  if (p == MAP_FAILED) p = mmap(nullptr, bytes_, PROT_NONE, flags, -1, 0);
  if (p != MAP_FAILED && mprotect(p, kHeader, PROT_READ | PROT_WRITE) != 0) {
    munmap(p, bytes_);
    p = MAP_FAILED;
  }
  if (p == MAP_FAILED) { // (no memory: every cell in the deque)
    stable_ = false;
    gFixedTaken = false;
    epoch_ = &fallbackEpoch_;
    return;
  }
  region_ = p;
  epoch_ = new (p) uint64_t(1); // (a cell's epoch 0 is never valid)
  cells_ = reinterpret_cast<GlobalCell*>(static_cast<char*>(p) + kHeader);
  capacity_ = kCells;
}

// Makes the chunk holding cell `i` writable (zero pages: each cell starts
// as GlobalCell{}); if that fails (the memory limit), the region ends
// where it is and later cells go to the deque.
GlobalCell& CellTable::grow(size_t i) {
  if (i < capacity_) {
    size_t upto = std::min(capacity_, (i / kChunk + 1) * kChunk);
    char* from = reinterpret_cast<char*>(cells_ + committed_);
    if (mprotect(from, (upto - committed_) * sizeof(GlobalCell), PROT_READ | PROT_WRITE) == 0) {
      committed_ = upto;
      return cells_[i];
    }
    capacity_ = committed_;
  }
  while (overflow_.size() <= i - capacity_)
    overflow_.emplace_back();
  return overflow_[i - capacity_];
}

CellTable::~CellTable() {
  if (!region_) return;
  munmap(region_, bytes_);
  if (stable_) gFixedTaken = false;
}

} // namespace thorin::rt
