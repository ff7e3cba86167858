#include "idle_memory.hpp"

#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

// mimalloc's, when it is the process's allocator (not under the sanitizers).
extern "C" void mi_collect(bool force) __attribute__((weak));

namespace thorin::rt {

namespace {

using Range = std::pair<uintptr_t, uintptr_t>;

// The read-only segments (code, constants) of the image containing this
// function: mapped from the file, never written, so dropping their pages
// loses nothing. (Writable segments, relocated data among them, are left.)
std::vector<Range> readOnlySegments() {
  std::vector<Range> out;
  struct Query {
    uintptr_t self;
    std::vector<Range>* out;
  } q{reinterpret_cast<uintptr_t>(&readOnlySegments), &out};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* q = static_cast<Query*>(data);
        std::vector<Range> mine;
        bool contains = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
          if (q->self >= lo && q->self < hi) contains = true;
          if (!(ph.p_flags & PF_W)) mine.push_back({lo, hi});
        }
        if (!contains) return 0;
        *q->out = std::move(mine);
        return 1;
      },
      &q);
  return out;
}

} // namespace

void releaseIdleMemory() {
  static std::once_flag once;
  static std::vector<Range> segments;
  std::call_once(once, [] { segments = readOnlySegments(); });
  auto page = uintptr_t(sysconf(_SC_PAGESIZE));
  for (auto [lo, hi] : segments) {
    uintptr_t a = (lo + page - 1) & ~(page - 1), b = hi & ~(page - 1);
    if (b > a) madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
  }
  if (mi_collect) mi_collect(true);
}

} // namespace thorin::rt
