// operator new that throws std::bad_alloc when memory runs out. mimalloc's
// own (it replaces the allocator) is C code: without a new-handler it can
// see, it aborts the process, so hitting thorin's memory limit (limitMemory)
// was a crash instead of a located "out of memory" error. Allocation itself
// stays mimalloc's: malloc is mimalloc's malloc, and its operator delete
// frees what this returns. (Only with mimalloc: the sanitizers' allocator
// must see new and delete paired.)
//
// releaseFreeMemory: the allocator's free pages back to the system.
#include <cstdlib>
#include <new>

#include "script.hpp"

#ifdef THORIN_MIMALLOC
#include <mimalloc.h>
#else
#include <malloc.h>
#endif

// mimalloc keeps freed pages a while for reuse (as glibc keeps the top of
// its heap): the old world of a full reload, or a failed reload of a huge
// file, would stay in the process's RSS until reused.
void thorin::releaseFreeMemory() {
#ifdef THORIN_MIMALLOC
  mi_collect(true);
#else
  malloc_trim(0);
#endif
}

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
