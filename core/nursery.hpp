// A minor collector for long conversion checks. Comparing two Church numerals
// of ten million allocates gigabytes of short-lived values; almost none of
// them are still reachable a few steps later. While a Nursery is active, the
// unifier registers the values its frames hold (the roots); when the values
// allocated since the nursery began exceed a threshold, the live ones are
// copied aside and the rest of the scratch memory is reused. Values made
// before the nursery began are never moved; caches in them that point at
// nursery values are dropped (they are recomputed on demand).
#pragma once
#include <vector>

#include "world.hpp"

namespace thorin {

class Nursery {
public:
  struct Root {
    enum Kind : uint8_t { Value, Spine } kind;
    void* addr; // Val** or Spine**
  };

  explicit Nursery(World& w);
  ~Nursery();
  Nursery(const Nursery&) = delete;
  Nursery& operator=(const Nursery&) = delete;

  bool full() const { return w_.scratch.used() - scratchMark_.used > limit_; }
  /// Copies what `roots` reach out of the nursery and frees the rest.
  void collect(const std::vector<Root>& roots);
  size_t collections() const { return collections_; }

private:
  bool young(const void* p) const;

  World& w_;
  Arena::Mark scratchMark_;
  Arena::Mark survivorMark_[2];
  size_t limit_;
  size_t collections_ = 0;
};

} // namespace thorin
