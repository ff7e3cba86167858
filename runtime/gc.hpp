// The collector of the run-time heap: Boehm–Demers–Weiser's (Debian's
// libgc), mark-sweep and non-moving, with conservative roots (every thread
// stack word and saved register that may point into the heap) and objects
// of two kinds — words, scanned for values, and data, never scanned.
// docs/runtime.md says why this design and not another.
//
// Values kept off the stack during a run are roots only if the collector
// sees them: hold them in a RootedVector (the engine's cached values of
// top-level constants, read-back's work lists).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace thorin::rt::gc {

/// Once per process (repeated calls do nothing); alloc* call it when needed.
void init();
/// The calling thread runs programs: the collector scans its stack, from the
/// current frame up to the stack's highest address. Called at the start of
/// every run (the thread may have moved to a large stack since the last).
void attachThread();

/// An object of `bytes` that holds values (scanned; zeroed).
void* allocWords(size_t bytes);
/// An object of `bytes` that holds no values (numbers, bytes; not zeroed).
void* allocData(size_t bytes);
/// Inline allocation in compiled code (a load and a store, as allocWords'
/// fast path): the head of the free list of objects of words of `bytes`
/// (at most 512; the list's first word links to the next), and the count
/// of allocated bytes to add them to. Null when every allocation must call
/// allocWords (THORIN_GC_STRESS).
void** wordsFreeList(size_t bytes);
size_t* allocatedBytes();
/// A 16-byte object of words given back for reuse (it must be dead).
void releaseWords16(void* cell);

/// A full collection now.
void collect();

struct Stats {
  uint64_t collections = 0;
  uint64_t totalNs = 0;   // in the collector, in all
  uint64_t longestNs = 0; // the longest pause
  size_t heapBytes = 0;   // the heap's size now
  size_t allocated = 0;   // bytes allocated since the process started
  uint64_t copies = 0;    // arrays `set` copied (they were shared)
};
/// `set` copied a shared array (counted for stats()).
void noteCopy();
Stats stats();
/// With THORIN_GC_STATS=1, prints stats() to stderr, once (at exit; call it
/// before a quick exit that skips atexit handlers).
void reportStats();

/// Words outside the collected heap that the collector scans: from *base,
/// *used bytes (read at each collection: the region may move and grow).
struct RootRange {
  void** base;
  const size_t* used;
};
void addRootRange(const RootRange* r);
void removeRootRange(const RootRange* r);

/// An allocator whose memory the collector scans (and never frees itself):
/// for C++ containers that hold values during a run.
template <class T> struct RootAllocator {
  using value_type = T;
  RootAllocator() = default;
  template <class U> RootAllocator(const RootAllocator<U>&) {}
  T* allocate(size_t n);
  void deallocate(T* p, size_t) noexcept;
  template <class U> bool operator==(const RootAllocator<U>&) const { return true; }
};
void* allocRoot(size_t bytes);
void freeRoot(void* p) noexcept;
template <class T> T* RootAllocator<T>::allocate(size_t n) {
  return static_cast<T*>(allocRoot(n * sizeof(T)));
}
template <class T> void RootAllocator<T>::deallocate(T* p, size_t) noexcept { freeRoot(p); }
template <class T> using RootedVector = std::vector<T, RootAllocator<T>>;

} // namespace thorin::rt::gc
