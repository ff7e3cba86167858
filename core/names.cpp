#include "names.hpp"

#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace thorin {
namespace {

// Open addressing with linear probing; each slot keeps the hash so that
// strings are compared only on a hash match. Interning is on the parser's hot
// path (every identifier of a million-line file).
struct Interner {
  struct Slot {
    uint32_t hash = 0;
    uint32_t id = 0; // 0: empty (id 0, the empty name, is never stored here)
  };
  std::vector<Slot> slots = std::vector<Slot>(1 << 12);
  std::vector<std::string_view> strings{std::string_view()};
  std::vector<std::unique_ptr<char[]>> blocks;
  char* cur = nullptr;
  size_t left = 0;

  static uint32_t hashOf(std::string_view s) {
    uint64_t h = 0xcbf29ce484222325ull; // FNV-1a, 64-bit
    for (unsigned char c : s)
      h = (h ^ c) * 0x100000001b3ull;
    return uint32_t(h ^ (h >> 32)) | 1u;
  }

  std::string_view store(std::string_view s) {
    if (s.size() > left) {
      size_t n = std::max<size_t>(64 * 1024, s.size());
      blocks.push_back(std::make_unique<char[]>(n));
      cur = blocks.back().get();
      left = n;
    }
    std::memcpy(cur, s.data(), s.size());
    std::string_view v(cur, s.size());
    cur += s.size();
    left -= s.size();
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
        e = {h, id};
        if (strings.size() * 2 > slots.size()) grow();
        return id;
      }
      if (e.hash == h && strings[e.id] == s) return e.id;
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
