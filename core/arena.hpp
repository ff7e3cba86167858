// Bump-pointer arena: terms, values and syntax are allocated here and freed as
// a whole (per entry, per reload), never one by one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace thorin {

class Arena {
public:
  explicit Arena(size_t firstChunk = 64 * 1024) : next_(firstChunk) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  void* alloc(size_t n, size_t align = alignof(std::max_align_t)) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(ptr_) + align - 1) & ~(uintptr_t(align) - 1);
    if (p + n > reinterpret_cast<uintptr_t>(end_)) return grow(n, align);
    ptr_ = reinterpret_cast<char*>(p + n);
    return reinterpret_cast<void*>(p);
  }

  template <class T, class... Args> T* make(Args&&... args) {
    return new (alloc(sizeof(T), alignof(T))) T{std::forward<Args>(args)...};
  }

  template <class T> T* array(size_t n) {
    return static_cast<T*>(alloc(sizeof(T) * (n ? n : 1), alignof(T)));
  }

  /// A position to roll back to: everything allocated after it is released.
  struct Mark {
    size_t chunk;
    char* ptr;
    size_t used;
  };
  Mark mark() const { return {cur_, ptr_, used()}; }
  /// Bytes handed out so far (whole chunks count once left behind).
  size_t used() const {
    return chunks_.empty() ? 0 : usedBefore_ + size_t(ptr_ - chunks_[cur_].data);
  }
  /// Was `p` allocated after `m` (and not released since)?
  bool allocatedSince(const Mark& m, const void* p) const;
  /// Does `p` point into memory currently handed out by this arena?
  bool contains(const void* p) const;
  void reset(Mark m);
  /// Frees the chunks past the one in use, which reset() keeps for reuse
  /// (after a rollback of a load that grew the arena far).
  void trim();
  /// Release everything; keep at most `keepBytes` of chunks for reuse.
  void clear(size_t keepBytes = 1 << 20);
  size_t bytesReserved() const { return reserved_; }

private:
  void* grow(size_t n, size_t align);
  struct Chunk {
    char* data;
    size_t size;
  };
  std::vector<Chunk> chunks_;
  size_t cur_ = 0; // index of the chunk ptr_ points into (valid if chunks_ non-empty)
  char* ptr_ = nullptr;
  char* end_ = nullptr;
  size_t next_;
  size_t reserved_ = 0;
  size_t usedBefore_ = 0; // sizes of the chunks before cur_
};

} // namespace thorin
