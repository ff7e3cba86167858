// operator new that throws std::bad_alloc when memory runs out. mimalloc's
// own (it replaces the allocator) is C code: without a new-handler it can
// see, it aborts the process, so hitting thorin's memory limit (limitMemory)
// was a crash instead of a located "out of memory" error. Allocation itself
// stays mimalloc's: malloc is mimalloc's malloc, and its operator delete
// frees what this returns. (Only with mimalloc: the sanitizers' allocator
// must see new and delete paired.)
#include <cstdlib>
#include <new>

#ifdef THORIN_MIMALLOC

static void* allocOrThrow(std::size_t n) {
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}

static void* alignedOrThrow(std::size_t n, std::align_val_t a) {
  std::size_t al = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(al, (n + al - 1) / al * al)) return p;
  throw std::bad_alloc();
}

void* operator new(std::size_t n) { return allocOrThrow(n); }
void* operator new[](std::size_t n) { return allocOrThrow(n); }
void* operator new(std::size_t n, std::align_val_t a) { return alignedOrThrow(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return alignedOrThrow(n, a); }

#endif
