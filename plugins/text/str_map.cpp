// `StrMap A` at run time: an array of words (so that sharing marks it as it
// marks arrays, runtime/share.hpp, and an unshared one is updated in place,
// as `set` updates an array), laid out as
//   [0] the number of entries e, [1] the number of slots c (a power of 2),
//   [2, 2 + c) the slots: 0 (empty) or the entry's index + 1 with 31 bits of
//   its key's hash above, [2 + c + 2i] entry i's key, [2 + c + 2i + 1] its value,
// with e ≤ c / 2 (linear probing; entries in insertion order, like Python's
// dicts). Keys and values read out of it are shared: it still holds them.
#include "str_map.hpp"

#include <cstring>
#include <functional>
#include <string_view>

#include <fmt/format.h>

#include "runtime/gc.hpp"
#include "runtime/primitive.hpp"
#include "text_axioms.hpp"

namespace thorin::plug::text {
namespace {

using namespace rt;

struct Map {
  ArrObj* o;
  int64_t count() const { return immVal(o->elems[0]); }
  uint64_t slots() const { return uint64_t(immVal(o->elems[1])); }
  V& slot(uint64_t i) { return o->elems[2 + i]; }
  V& key(uint64_t e) { return o->elems[2 + slots() + 2 * e]; }
  V& val(uint64_t e) { return o->elems[2 + slots() + 2 * e + 1]; }
};

// (A key is always a string: its bytes without a call.)
std::string_view view(V v) {
  auto* o = static_cast<StrObj*>(obj(v));
  return {o->data, o->n};
}

uint64_t hashOf(std::string_view s) { return std::hash<std::string_view>{}(s)&0x7fffffff; }

V newMap(uint64_t slots) {
  V m = mkArr(uint32_t(2 + 2 * slots));
  auto* o = static_cast<ArrObj*>(obj(m));
  for (uint32_t i = 0; i < o->n; ++i)
    o->elems[i] = imm(0);
  o->elems[1] = imm(int64_t(slots));
  return m;
}

// The slot of `k` (hash h): its entry's, or the empty one where it goes.
uint64_t probe(Map m, std::string_view k, uint64_t h) {
  uint64_t mask = m.slots() - 1;
  for (uint64_t i = h & mask;; i = (i + 1) & mask) {
    int64_t s = immVal(m.slot(i));
    if (s == 0) return i;
    if (uint64_t(s) >> 31 == h && view(m.key(uint64_t(s & 0x7fffffff) - 1)) == k) return i;
  }
}

// Entry e (key and value) placed anew into m's slots.
void place(Map m, uint64_t e) {
  uint64_t h = hashOf(view(m.key(e)));
  m.slot(probe(m, view(m.key(e)), h)) = imm(int64_t(h << 31 | (e + 1)));
}

// A copy of m's entries with `slots` slots (unshared).
V copyOf(Map m, uint64_t slots) {
  V r = newMap(slots);
  Map c{static_cast<ArrObj*>(obj(r))};
  int64_t n = m.count();
  c.o->elems[0] = imm(n);
  for (int64_t e = 0; e < n; ++e) {
    c.key(uint64_t(e)) = share(m.key(uint64_t(e)));
    c.val(uint64_t(e)) = share(m.val(uint64_t(e)));
    place(c, uint64_t(e));
  }
  gc::noteCopy();
  return r;
}

Map mapOf(V m) { return Map{static_cast<ArrObj*>(obj(m))}; }

// k set to v in m — or to f old v if k had the value old (with f, not 0) —
// with one probe when m is updated in place (nothing else refers to it and it
// has room), else into a copy (twice as many slots when full).
V upsert(V m, V k, V v, V f) {
  Map x = mapOf(m);
  std::string_view key = view(k);
  uint64_t h = hashOf(key);
  uint64_t i = probe(x, key, h);
  if (int64_t s = immVal(x.slot(i)); s != 0) {
    uint64_t e = uint64_t(s & 0x7fffffff) - 1;
    if (f) {
      V args[2] = {isShared(x.o) ? share(x.val(e)) : x.val(e), v};
      v = apply(f, 2, args);
    }
    if (isShared(x.o)) {
      m = copyOf(x, x.slots());
      x = mapOf(m);
    }
    arrShapeMemo(x.o) = 0;
    x.val(e) = v;
    return m;
  }
  uint64_t e = uint64_t(x.count());
  if ((e + 1) * 2 > x.slots() || isShared(x.o)) {
    m = copyOf(x, (e + 1) * 2 > x.slots() ? x.slots() * 2 : x.slots());
    x = mapOf(m);
    i = probe(x, key, h);
  }
  arrShapeMemo(x.o) = 0;
  x.key(e) = k;
  x.val(e) = v;
  x.slot(i) = imm(int64_t(h << 31 | (e + 1)));
  x.o->elems[0] = imm(int64_t(e + 1));
  return m;
}

// The index of k's entry, or -1.
int64_t entryOf(V m, V k) {
  Map x = mapOf(m);
  std::string_view key = view(k);
  int64_t s = immVal(x.slot(probe(x, key, hashOf(key))));
  return s ? (s & 0x7fffffff) - 1 : -1;
}

V empty(const V*, uint32_t) { return newMap(8); }                             // {A} tt
V insert(const V* a, uint32_t) { return upsert(a[3], a[1], a[2], 0); }        // {A} k v m
V insertWith(const V* a, uint32_t) { return upsert(a[4], a[2], a[3], a[1]); } // {A} f k v m
V find(const V* a, uint32_t) { return ofI64(entryOf(a[2], a[1])); }           // {A} k m
V size(const V* a, uint32_t) { return imm(mapOf(a[1]).count()); }             // {A} m

// Entry i's key or value ({A} m i).
uint64_t entryIndex(const V* a, uint32_t span) {
  int64_t n = mapOf(a[1]).count();
  if (!isImm(a[2]) || immVal(a[2]) >= n)
    fail(fmt::format("index {} is out of range for a map of {} entries", showNat(a[2]), n).c_str(),
         span);
  return uint64_t(immVal(a[2]));
}
V keyAt(const V* a, uint32_t span) { return share(mapOf(a[1]).key(entryIndex(a, span))); }
V valAt(const V* a, uint32_t span) { return share(mapOf(a[1]).val(entryIndex(a, span))); }

} // namespace

void registerStrMap() {
  registerPrim(id(ax::map_empty), empty);
  registerPrim(id(ax::map_insert), insert);         // (keeps: k, v stored; m updated)
  registerPrim(id(ax::map_insertWith), insertWith); // (the same, and f)
  for (auto [x, f] : {std::pair<ax, PrimFn>{ax::map_find, find},
                      {ax::map_size, size},
                      {ax::map_keyAt, keyAt},
                      {ax::map_valAt, valAt}}) {
    registerPrim(id(x), f);
    primKeeps(id(x), 0); // (they only look)
  }
}

} // namespace thorin::plug::text
