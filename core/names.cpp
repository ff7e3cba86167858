#include "names.hpp"

#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace thorin {
namespace {

// Open addressing with linear probing; each slot keeps the hash so that
// strings are compared only on a hash match, and a pointer to the string's
// bytes (its length stored just before them), so that a hit touches the slot
// and the bytes only. Interning is on the parser's hot path (every identifier
// of a million-line file).
struct Interner {
  struct Slot {
    uint32_t hash = 0;
    uint32_t id = 0; // 0: empty (id 0, the empty name, is never stored here)
    const char* bytes = nullptr;
  };
  std::vector<Slot> slots = std::vector<Slot>(1 << 10);
  std::vector<std::string_view> strings{std::string_view()};
  std::vector<std::unique_ptr<char[]>> blocks;
  char* cur = nullptr;
  size_t left = 0;

  // Eight bytes at a time (a byte at a time was a sixth of parsing a
  // million-line file), each word mixed by a multiply; the length is mixed in.
  static uint32_t hashOf(std::string_view s) {
    constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
    uint64_t h = s.size() * kMul;
    const char* p = s.data();
    size_t n = s.size();
    for (; n >= 8; p += 8, n -= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      h = (h ^ w) * kMul;
      h ^= h >> 29;
    }
    if (n) { // (fixed-size loads: a variable-size memcpy is a call)
      uint64_t w;
      if (n >= 4) {
        uint32_t lo, hi;
        std::memcpy(&lo, p, 4);
        std::memcpy(&hi, p + n - 4, 4);
        w = uint64_t(hi) << 32 | lo;
      } else {
        w = uint64_t(uint8_t(p[0])) | uint64_t(uint8_t(p[n / 2])) << 8 |
            uint64_t(uint8_t(p[n - 1])) << 16;
      }
      h = (h ^ w) * kMul;
      h ^= h >> 29;
    }
    h *= kMul;
    return uint32_t(h >> 32 ^ h) | 1u;
  }

  // The bytes, after their length (4 bytes, aligned).
  std::string_view store(std::string_view s) {
    size_t need = (4 + s.size() + 3) & ~size_t(3);
    if (need > left) {
      size_t n = std::max<size_t>(64 * 1024, need);
      blocks.push_back(std::unique_ptr<char[]>(new char[n])); // (not zeroed: untouched pages stay unmapped)
      cur = blocks.back().get();
      left = n;
    }
    uint32_t len = uint32_t(s.size());
    std::memcpy(cur, &len, 4);
    std::memcpy(cur + 4, s.data(), s.size());
    std::string_view v(cur + 4, s.size());
    cur += need;
    left -= need;
    return v;
  }

  void grow() {
    std::vector<Slot> old(slots.size() * 2);
    old.swap(slots);
    size_t mask = slots.size() - 1;
    for (const Slot& e : old)
      if (e.id) {
        size_t i = e.hash & mask;
        while (slots[i].id)
          i = (i + 1) & mask;
        slots[i] = e;
      }
  }

  uint32_t intern(std::string_view s) {
    if (s.empty()) return 0;
    uint32_t h = hashOf(s);
    size_t mask = slots.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& e = slots[i];
      if (!e.id) {
        uint32_t id = uint32_t(strings.size());
        strings.push_back(store(s));
        e = {h, id, strings.back().data()};
        if (strings.size() * 2 > slots.size()) grow();
        return id;
      }
      if (e.hash == h) {
        uint32_t len;
        std::memcpy(&len, e.bytes - 4, 4);
        if (len == s.size() && std::memcmp(e.bytes, s.data(), len) == 0) return e.id;
      }
    }
  }
};

Interner& interner() {
  static Interner* in = new Interner(); // never destroyed: names outlive everything
  return *in;
}

} // namespace

Name intern(std::string_view s) { return Name{interner().intern(s)}; }
std::string_view str(Name n) { return interner().strings[n.id]; }
uint32_t nameCount() { return uint32_t(interner().strings.size()); }

namespace names {
const Name underscore = intern("_");
const Name U = intern("U");
const Name Type = intern("Type");
} // namespace names

} // namespace thorin
