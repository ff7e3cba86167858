// A growable array whose elements never move (what std::deque offers), in
// blocks of 2^kLog elements: an index is a shift and a mask, and a million
// entries take a thousand allocations. (libstdc++'s deque keeps 512-byte
// blocks: four 120-byte meta entries each, so stlcSmall1M's 2.2 million metas
// took 550,000 allocations and every access two dependent loads through its
// map.)
#pragma once
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace thorin {

template <class T, unsigned kLog = 10> class StableVector {
public:
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T& operator[](size_t i) { return blocks_[i >> kLog][i & kMask]; }
  const T& operator[](size_t i) const { return blocks_[i >> kLog][i & kMask]; }
  T& back() { return (*this)[n_ - 1]; }
  const T& back() const { return (*this)[n_ - 1]; }

  void push_back(T v) {
    if ((n_ >> kLog) == blocks_.size()) blocks_.push_back(std::make_unique<T[]>(kBlock));
    (*this)[n_] = std::move(v);
    ++n_;
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
  std::vector<std::unique_ptr<T[]>> blocks_;
  size_t n_ = 0;
};

} // namespace thorin
