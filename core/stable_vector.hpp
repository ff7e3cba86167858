// A growable array whose elements never move (what std::deque offers), in
// blocks of 2^kLog elements: an index is a shift and a mask, and a million
// entries take a thousand allocations. (libstdc++'s deque keeps 512-byte
// blocks: four 120-byte meta entries each, so stlcSmall1M's 2.2 million metas
// took 550,000 allocations and every access two dependent loads through its
// map.)
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace thorin {

template <class T, unsigned kLog = 10> class StableVector {
public:
  StableVector() = default;
  StableVector(const StableVector&) = delete;
  StableVector& operator=(const StableVector&) = delete;
  ~StableVector() {
    for (size_t i = 0; i < built_; ++i)
      (*this)[i].~T();
  }

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T& operator[](size_t i) { return blocks_[i >> kLog][i & kMask]; }
  const T& operator[](size_t i) const { return blocks_[i >> kLog][i & kMask]; }
  T& back() { return (*this)[n_ - 1]; }
  const T& back() const { return (*this)[n_ - 1]; }

  void push_back(T v) {
    if (n_ < built_) { // (a slot left by a shrink)
      (*this)[n_++] = std::move(v);
      return;
    }
    // Blocks are raw memory, each element constructed when pushed: a block
    // of 1024 entries is ~100 KB, and a start-up that fills a few pages of
    // it should not touch (and fault in) the rest.
    if ((n_ >> kLog) == blocks_.size())
      blocks_.push_back(
          Block(static_cast<T*>(::operator new(kBlock * sizeof(T), std::align_val_t(alignof(T))))));
    new (&(*this)[n_]) T(std::move(v));
    built_ = ++n_;
  }
  /// Shrinks to `k` elements (those dropped are reset to `fill`), or grows
  /// with copies of `fill`.
  void resize(size_t k, const T& fill = T{}) {
    for (size_t i = k; i < n_; ++i)
      (*this)[i] = fill;
    if (k < n_) n_ = k;
    while (n_ < k)
      push_back(fill);
  }

private:
  static constexpr size_t kBlock = size_t(1) << kLog;
  static constexpr size_t kMask = kBlock - 1;
  struct Free {
    void operator()(T* p) const { ::operator delete(p, std::align_val_t(alignof(T))); }
  };
  using Block = std::unique_ptr<T[], Free>;
  std::vector<Block> blocks_;
  size_t n_ = 0;
  size_t built_ = 0; // elements constructed: [0, built_) (n_ ≤ built_)
};

} // namespace thorin
