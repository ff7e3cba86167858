#include "gc.hpp"

#define GC_THREADS
#define GC_NO_THREAD_REDIRECTS
#include <gc/gc.h>
#include <gc/gc_inline.h>
#include <gc/gc_mark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <new>
#include <pthread.h>
#include <sys/mman.h>
#include <vector>

#include "core/guard.hpp"

namespace thorin::rt::gc {

namespace {

// Objects up to kSmallBytes come from free lists of our own, one per kind and
// size class, refilled a list at a time (GC_generic_malloc_many): taking one
// is a load and a store, as the bump heap's was. A collection empties them
// all (the start callback), so nothing on them needs to be a root.
constexpr size_t kGranule = 16;
constexpr size_t kClasses = 32; // up to 512 bytes
constexpr size_t kSmallBytes = kGranule * kClasses;
enum Kind { Data = GC_I_PTRFREE, Words = GC_I_NORMAL };

// (Plain globals, not per thread: one thread runs programs at a time, and
// the start callback must be able to empty them from the collecting thread.)
void* gFree[2][kClasses];
bool gReady = false;
uint64_t gStressEvery = 0; // THORIN_GC_STRESS: a collection every N allocations
uint64_t gStressCount = 0;

uint64_t gCollections = 0, gTotalNs = 0, gLongestNs = 0, gStartNs = 0;
size_t gAllocated = 0;
uint64_t gCopies = 0;

uint64_t nowNs() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
}

void GC_CALLBACK dropFreeLists() {
  for (auto& k : gFree)
    for (auto& h : k)
      h = nullptr;
}

void GC_CALLBACK onEvent(GC_EventType e) {
  if (e == GC_EVENT_START) {
    gStartNs = nowNs();
  } else if (e == GC_EVENT_END && gStartNs) {
    uint64_t d = nowNs() - gStartNs;
    gStartNs = 0;
    ++gCollections;
    gTotalNs += d;
    if (d > gLongestNs) gLongestNs = d;
  }
}

// Out of memory: the allocation returns null and thorin reports it (a located
// error), instead of the collector's default abort.
void* GC_CALLBACK noMemory(size_t) { return nullptr; }

[[noreturn]] void outOfMemory() { throw std::bad_alloc(); }

void* refill(Kind k, size_t cls) {
  void* list = nullptr;
  GC_generic_malloc_many(cls * kGranule, k, &list);
  if (!list) outOfMemory();
  gFree[k][cls - 1] = GC_NEXT(list);
  return list;
}

// Objects of more than 2 KB get blocks of their own, page-aligned: the rows
// of a matrix (2 KB and a bit each) all started at one offset within a page,
// and reading down a column they shared a handful of L1 sets (matmul 256:
// 2.5× slower than the bump heap's rows, packed one after the other). Each
// starts at one of the cache-line offsets its pages leave room for, in turn
// (at most kColors; displacements the collector knows: init()).
constexpr size_t kColors = 64, kColorBytes = 64, kPage = 4096;
size_t gNextColor = 0;

void* allocLarge(Kind k, size_t bytes) {
  size_t room = (bytes + kPage - 1) / kPage * kPage - bytes;
  size_t colors = std::min(kColors, room / kColorBytes + 1);
  size_t off = (gNextColor++ % colors) * kColorBytes;
  char* p = static_cast<char*>(k == Words ? GC_malloc(bytes + off) : GC_malloc_atomic(bytes + off));
  if (!p) outOfMemory();
  return p + off;
}

inline void* allocate(Kind k, size_t bytes) {
  gAllocated += bytes;
  if (gStressEvery && ++gStressCount % gStressEvery == 0) [[unlikely]]
    collect();
  size_t cls = (bytes + kGranule - 1) / kGranule;
  if (cls == 0) cls = 1;
  if (cls > kClasses) [[unlikely]] {
    init();
    return allocLarge(k, bytes);
  }
  void*& head = gFree[k][cls - 1];
  void* p = head;
  if (!p) [[unlikely]] {
    init();
    p = refill(k, cls);
  } else {
    head = GC_NEXT(p);
  }
  if (k == Words) GC_NEXT(p) = nullptr; // (the rest came zeroed)
  return p;
}

bool gReportStats = false;

} // namespace

// THORIN_GC_STATS=1: the collector's work, on stderr at exit.
void reportStats() {
  if (!gReportStats) return;
  gReportStats = false;
  Stats s = stats();
  std::fprintf(stderr,
               "gc: %llu collections, %.2f ms in all, longest pause %.2f ms, heap %.1f MB, "
               "%.1f MB allocated, %llu arrays copied by set\n",
               static_cast<unsigned long long>(s.collections), s.totalNs / 1e6, s.longestNs / 1e6,
               s.heapBytes / 1048576.0, s.allocated / 1048576.0,
               static_cast<unsigned long long>(s.copies));
}

namespace {

void* GC_CALLBACK setBottom(void* high) {
  GC_stack_base sb{high};
  GC_set_stackbottom(nullptr, &sb);
  return nullptr;
}

// The highest address of the stack the caller runs on.
void* stackHigh() {
  char *low, *high;
  if (largeStack(&low, &high)) return high;
  pthread_attr_t attr;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
  }
  return static_cast<char*>(addr) + size;
}

// The heap in transparent huge pages, where the system gives them on
// request (madvise mode): a large live heap took a page fault per 4 KB
// (NfTree23, 1.7 GB). The plausible range may span gaps (madvise skips
// them, reporting ENOMEM) and our other anonymous mappings (advised too).
std::vector<const RootRange*> gRanges;
GC_push_other_roots_proc gPushOthers = nullptr;

void GC_CALLBACK pushRanges() {
  if (gPushOthers) gPushOthers();
  for (const RootRange* r : gRanges)
    if (*r->base && *r->used) GC_push_all(*r->base, static_cast<char*>(*r->base) + *r->used);
}

static void hugePages(GC_word) {
  auto lo = reinterpret_cast<uintptr_t>(GC_least_plausible_heap_addr) & ~uintptr_t(4095);
  auto hi = reinterpret_cast<uintptr_t>(GC_greatest_plausible_heap_addr);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
}

} // namespace

void init() {
  if (gReady) return;
  gReady = true;
  // Values point to an object's start, 2–14 bytes in (a compact cell's
  // constructor), or (arrays) 16 bytes in — past a large object's color
  // (allocLarge): the heap's words are read that way only. Stack words may point anywhere inside an
  // object (compiled code keeps derived pointers); the collector takes those
  // from stacks always.
  GC_set_all_interior_pointers(0);
  // Shared libraries' data hold no values (LLVM's alone is megabytes).
  GC_set_no_dls(1);
  GC_set_warn_proc(GC_ignore_warn_proc);
  GC_set_oom_fn(noMemory);
  // (No collection at start-up: the stack it would scan is not known yet.)
  GC_set_dont_precollect(1);
  // One marker, the collecting thread: parallel markers are threads made at
  // start-up that compete with the program and the JIT for 2 cores (a
  // one-line `thorin run` 8.1 → 13.5 ms of CPU, ForceTree23 282 → 365 ms).
  GC_set_markers_count(1);
  GC_INIT();
  for (size_t c = 0; c < kColors; ++c) { // (an object's start, or an array's header)
    GC_register_displacement(c * kColorBytes);
    GC_register_displacement(c * kColorBytes + 16);
  }
  for (size_t tag = 2; tag <= 14;
       tag += 2) // (a compact cell's word: kCellTagBits, runtime/heap.hpp)
    GC_register_displacement(tag);
  // A heap of 16 MB from the start: a tiny one is collected every few
  // kilobytes (Brainfuck, 3 MB live: 75,000 collections, 1.5 s of 2.9 s).
  // Its pages cost memory only once used.
  GC_set_on_heap_resize(hugePages);
  GC_expand_hp(size_t(16) << 20);
  GC_allow_register_threads();
  GC_set_start_callback(dropFreeLists);
  gPushOthers = GC_get_push_other_roots();
  GC_set_push_other_roots(pushRanges);
  GC_set_on_collection_event(onEvent);
  if (const char* e = std::getenv("THORIN_GC_STRESS")) gStressEvery = std::strtoull(e, nullptr, 10);
  if (const char* e = std::getenv("THORIN_GC_STATS"); e && *e && *e != '0') {
    gReportStats = true;
    std::atexit(reportStats);
  }
  attachThread();
}

void attachThread() {
  init();
  thread_local void* attached = nullptr;
  void* high = stackHigh();
  if (high == attached) return;
  if (!GC_thread_is_registered()) {
    GC_stack_base sb{high};
    GC_register_my_thread(&sb);
  } else {
    GC_call_with_alloc_lock(setBottom, high);
  }
  attached = high;
}

void* allocWords(size_t bytes) { return allocate(Words, bytes); }
void* allocData(size_t bytes) { return allocate(Data, bytes); }

void** wordsFreeList(size_t bytes) {
  if (gStressEvery || bytes == 0 || bytes > kSmallBytes) return nullptr;
  return &gFree[Words][(bytes + kGranule - 1) / kGranule - 1];
}

size_t* allocatedBytes() { return &gAllocated; }

void releaseWords16(void* cell) {
  void*& head = gFree[Words][0];
  GC_NEXT(cell) = head;
  head = cell;
}

void noteCopy() { ++gCopies; }

void collect() {
  init();
  GC_gcollect();
}

Stats stats() {
  Stats s;
  s.collections = gCollections;
  s.totalNs = gTotalNs;
  s.longestNs = gLongestNs;
  s.heapBytes = gReady ? GC_get_heap_size() : 0;
  s.allocated = gAllocated;
  s.copies = gCopies;
  return s;
}

// (No init(): the collector starts with the first allocation — a `thorin
// check` that runs nothing never pays its start-up, ~1.4 ms.)
void addRootRange(const RootRange* r) { gRanges.push_back(r); }

void removeRootRange(const RootRange* r) { std::erase(gRanges, r); }

void* allocRoot(size_t bytes) {
  init();
  void* p = GC_malloc_uncollectable(bytes);
  if (!p) outOfMemory();
  return p;
}

void freeRoot(void* p) noexcept { GC_free(p); }

} // namespace thorin::rt::gc
