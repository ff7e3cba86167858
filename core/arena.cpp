#include "arena.hpp"

#include <algorithm>
#include <cstdlib>

namespace thorin {

Arena::~Arena() {
  for (auto& c : chunks_)
    std::free(c.data);
}

void* Arena::grow(size_t n, size_t align) {
  // Move to the next existing chunk that fits, or allocate a new one.
  while (!chunks_.empty() && cur_ + 1 < chunks_.size()) {
    usedBefore_ += chunks_[cur_].size;
    ++cur_;
    ptr_ = chunks_[cur_].data;
    end_ = ptr_ + chunks_[cur_].size;
    uintptr_t p = (reinterpret_cast<uintptr_t>(ptr_) + align - 1) & ~(uintptr_t(align) - 1);
    if (p + n <= reinterpret_cast<uintptr_t>(end_)) {
      ptr_ = reinterpret_cast<char*>(p + n);
      return reinterpret_cast<void*>(p);
    }
  }
  size_t size = std::max(next_, n + align);
  next_ = std::min<size_t>(next_ * 2, size_t(64) << 20);
  char* data = static_cast<char*>(std::malloc(size));
  if (!data) throw std::bad_alloc();
  reserved_ += size;
  if (!chunks_.empty()) usedBefore_ += chunks_[cur_].size;
  chunks_.push_back({data, size});
  cur_ = chunks_.size() - 1;
  ptr_ = data;
  end_ = data + size;
  uintptr_t p = (reinterpret_cast<uintptr_t>(ptr_) + align - 1) & ~(uintptr_t(align) - 1);
  ptr_ = reinterpret_cast<char*>(p + n);
  return reinterpret_cast<void*>(p);
}

void Arena::reset(Mark m) {
  if (chunks_.empty()) return;
  cur_ = m.chunk;
  usedBefore_ = 0;
  for (size_t i = 0; i < cur_; ++i)
    usedBefore_ += chunks_[i].size;
  if (m.ptr) {
    ptr_ = m.ptr;
    end_ = chunks_[cur_].data + chunks_[cur_].size;
  } else {
    cur_ = 0;
    ptr_ = chunks_[0].data;
    end_ = ptr_ + chunks_[0].size;
  }
}

void Arena::trim() {
  for (size_t j = cur_ + 1; j < chunks_.size(); ++j) {
    reserved_ -= chunks_[j].size;
    std::free(chunks_[j].data);
  }
  if (chunks_.size() > cur_ + 1) chunks_.resize(cur_ + 1);
}

void Arena::clear(size_t keepBytes) {
  size_t kept = 0, i = 0;
  for (; i < chunks_.size(); ++i) {
    if (kept + chunks_[i].size > keepBytes && i > 0) break;
    kept += chunks_[i].size;
  }
  for (size_t j = i; j < chunks_.size(); ++j) {
    reserved_ -= chunks_[j].size;
    std::free(chunks_[j].data);
  }
  chunks_.resize(i);
  usedBefore_ = 0;
  if (chunks_.empty()) {
    ptr_ = end_ = nullptr;
    cur_ = 0;
  } else {
    cur_ = 0;
    ptr_ = chunks_[0].data;
    end_ = ptr_ + chunks_[0].size;
  }
  next_ = std::max<size_t>(64 * 1024, kept);
}

bool Arena::allocatedSince(const Mark& m, const void* p) const {
  auto* c = static_cast<const char*>(p);
  for (size_t i = m.chunk; i <= cur_ && i < chunks_.size(); ++i) {
    const Chunk& ch = chunks_[i];
    if (c >= ch.data && c < ch.data + ch.size) {
      if (i == cur_ && c >= ptr_) return false;
      return i > m.chunk || !m.ptr || c >= m.ptr;
    }
  }
  return false;
}

bool Arena::contains(const void* p) const {
  auto* c = static_cast<const char*>(p);
  for (size_t i = 0; i <= cur_ && i < chunks_.size(); ++i) {
    const Chunk& ch = chunks_[i];
    if (c >= ch.data && c < ch.data + ch.size) return i < cur_ || c < ptr_;
  }
  return false;
}

} // namespace thorin
