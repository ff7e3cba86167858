// Run-time implementations of the text plugin's axioms: strings as bytes.
// Lists are the prelude's (`nil` is constructor 0, `cons x xs` constructor 1
// with the fields x and xs): text.thorin gives these axioms their types, so
// the lists read and built here are always that List.
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "core/literal.hpp"
#include "runtime/gc.hpp"
#include "runtime/primitive.hpp"
#include "str_map.hpp"
#include "text_axioms.hpp"

namespace thorin::plug::text {
namespace {

using namespace rt;

bool isSpace(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

V cons(V x, V xs) { return mkCon2(1, x, xs); } // (the prelude's `cons x xs`)
constexpr V kNil = 1;                          // imm(0)

// The list of the pieces [begin, end) of s, built from the last (only the
// list so far and the newest piece are live across an allocation: both in
// this frame, where the collector sees them).
V piecesOf(V s, const std::vector<std::pair<size_t, size_t>>& pieces) {
  V list = kNil;
  for (size_t i = pieces.size(); i-- > 0;) {
    std::string_view all = toStr(s); // (the string does not move, but read it afresh)
    V piece = ofStr(all.substr(pieces[i].first, pieces[i].second - pieces[i].first));
    list = cons(piece, list);
  }
  return list;
}

V split(const V* a, uint32_t span) { // sep s
  std::string_view sep = toStr(a[0]), s = toStr(a[1]);
  if (sep.empty()) fail("split: the separator is empty", span);
  std::vector<std::pair<size_t, size_t>> pieces;
  size_t from = 0;
  for (size_t at; (at = s.find(sep, from)) != std::string_view::npos; from = at + sep.size())
    pieces.push_back({from, at});
  pieces.push_back({from, s.size()});
  return piecesOf(a[1], pieces);
}

// The next word (Words) or line of s at or after position i: [b, e), with i
// moved past it; false when there is none. (A word is a maximal run of
// non-white-space bytes; a line ends with '\n', a last one without.)
template <bool Words> bool nextPiece(std::string_view s, size_t& i, size_t& b, size_t& e) {
  if (Words) {
    while (i < s.size() && isSpace(s[i]))
      ++i;
    if (i == s.size()) return false;
    for (b = e = i; e < s.size() && !isSpace(s[e]);)
      ++e;
    i = e;
    return true;
  }
  if (i >= s.size()) return false;
  const void* nl = std::memchr(s.data() + i, '\n', s.size() - i);
  b = i;
  e = nl ? size_t(static_cast<const char*>(nl) - s.data()) : s.size();
  i = e + 1;
  return true;
}

// `words s`, `lines s`.
template <bool Words> V pieceList(const V* a, uint32_t) {
  std::string_view s = toStr(a[0]);
  std::vector<std::pair<size_t, size_t>> pieces;
  size_t i = 0, b, e;
  while (nextPiece<Words>(s, i, b, e))
    pieces.push_back({b, e});
  return piecesOf(a[0], pieces);
}

// f applied to acc and each piece in turn, left to right ({A} f z s).
template <bool Words> V foldPieces(const V* a, uint32_t) {
  V acc = a[2];
  size_t i = 0, b, e;
  for (;;) {
    std::string_view s = toStr(a[3]); // (read afresh: f may allocate)
    if (!nextPiece<Words>(s, i, b, e)) return acc;
    V args[2] = {acc, ofStr(s.substr(b, e - b))};
    acc = apply(a[1], 2, args);
  }
}

V join(const V* a, uint32_t) { // sep xs
  std::string out;
  bool first = true;
  for (V l = a[1]; conIndex(l) == 1; l = conFields(l)[1]) {
    if (!first) out += toStr(a[0]);
    first = false;
    out += toStr(conFields(l)[0]);
  }
  return ofStr(out);
}

V substr(const V* a, uint32_t) { // s i n
  std::string_view s = toStr(a[0]);
  size_t i = isImm(a[1]) ? size_t(immVal(a[1])) : SIZE_MAX;
  size_t n = isImm(a[2]) ? size_t(immVal(a[2])) : SIZE_MAX;
  if (i >= s.size()) return ofStr("");
  return ofStr(s.substr(i, n));
}

V find(const V* a, uint32_t) { // s t i
  std::string_view s = toStr(a[0]), t = toStr(a[1]);
  if (!isImm(a[2]) || size_t(immVal(a[2])) > s.size()) return ofI64(-1);
  size_t at = s.find(t, size_t(immVal(a[2])));
  return ofI64(at == std::string_view::npos ? -1 : int64_t(at));
}

V startsWith(const V* a, uint32_t) { return ofBool(toStr(a[0]).starts_with(toStr(a[1]))); }
V endsWith(const V* a, uint32_t) { return ofBool(toStr(a[0]).ends_with(toStr(a[1]))); }

V replace(const V* a, uint32_t) { // s old new
  std::string_view s = toStr(a[0]), from = toStr(a[1]), to = toStr(a[2]);
  std::string out;
  if (from.empty()) { // (between every two bytes, and at both ends, as Python's)
    out.reserve(s.size() + (s.size() + 1) * to.size());
    for (char c : s) {
      out += to;
      out += c;
    }
    out += to;
    return ofStr(out);
  }
  size_t i = 0;
  for (size_t at; (at = s.find(from, i)) != std::string_view::npos; i = at + from.size()) {
    out += s.substr(i, at - i);
    out += to;
  }
  out += s.substr(i);
  return ofStr(out);
}

template <bool Upper> V changeCase(const V* a, uint32_t) {
  std::string s(toStr(a[0]));
  for (char& c : s) { // (branch-free: the compiler vectorizes it)
    unsigned char d = static_cast<unsigned char>(c) - (Upper ? 'a' : 'A');
    c = char(c ^ ((d < 26) << 5));
  }
  return ofStr(s);
}

template <bool Start, bool End> V trimmed(const V* a, uint32_t) {
  std::string_view s = toStr(a[0]);
  while (Start && !s.empty() && isSpace(s.front()))
    s.remove_prefix(1);
  while (End && !s.empty() && isSpace(s.back()))
    s.remove_suffix(1);
  return ofStr(s);
}

V repeat(const V* a, uint32_t span) { // n s
  std::string_view s = toStr(a[1]);
  if (s.empty()) return a[1]; // (any number of nothing)
  if (!isImm(a[0]) || uint64_t(immVal(a[0])) > (uint64_t(UINT32_MAX) / s.size()))
    fail("strRepeat: the string would be 4 GiB or more (the limit of a String's length)", span);
  size_t n = size_t(immVal(a[0]));
  StrObj* r = mkStr(n * s.size(), n * s.size());
  for (size_t i = 0; i < n; ++i)
    std::memcpy(r->data + i * s.size(), s.data(), s.size());
  return ofObj(r);
}

V fromByte(const V* a, uint32_t span) {
  if (!isImm(a[0]) || immVal(a[0]) > 255)
    fail(fmt::format("fromByte: {} is not a byte (0–255)", showNat(a[0])).c_str(), span);
  char c = char(immVal(a[0]));
  return ofStr(std::string_view(&c, 1));
}

V compare(const V* a, uint32_t) {
  int c = toStr(a[0]).compare(toStr(a[1]));
  return ofI64((c > 0) - (c < 0));
}

// Numbers -----------------------------------------------------------------------
V showI64(const V* a, uint32_t) { return ofStr(std::to_string(toI64(a[0]))); }
V showF64(const V* a, uint32_t) { return ofStr(thorin::showF64(toF64(a[0]))); }

bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}
V isNat(const V* a, uint32_t) { return ofBool(allDigits(toStr(a[0]))); }
V toNat(const V* a, uint32_t span) {
  std::string s(toStr(a[0]));
  if (!allDigits(s)) fail("toNat: not a natural number", span);
  mpz_t z;
  mpz_init_set_str(z, s.c_str(), 10);
  V r = ofNatMpz(z);
  mpz_clear(z);
  return r;
}

// A whole string in C++'s from_chars syntax (no spaces, no '+').
template <class T> bool parseWhole(std::string_view s, T& out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (end != s.data() + s.size()) return false;
  if constexpr (std::is_floating_point_v<T>) {
    // Beyond the range of F64: the nearest value (±inf, ±0), as strtod and
    // Python give it, not a failure.
    if (ec == std::errc::result_out_of_range) {
      out = std::strtod(std::string(s).c_str(), nullptr);
      return true;
    }
  }
  return ec == std::errc();
}
V isI64(const V* a, uint32_t) {
  int64_t x;
  return ofBool(parseWhole(toStr(a[0]), x));
}
V toI64(const V* a, uint32_t span) {
  int64_t x;
  if (!parseWhole(toStr(a[0]), x)) fail("toI64: not an I64", span);
  return ofI64(x);
}
V isF64(const V* a, uint32_t) {
  double x;
  return ofBool(parseWhole(toStr(a[0]), x));
}
V toF64(const V* a, uint32_t span) {
  double x;
  if (!parseWhole(toStr(a[0]), x)) fail("toF64: not an F64", span);
  return ofF64(x);
}

// Lists to arrays ------------------------------------------------------------------
V fromList(const V* a, uint32_t span) { // {A} n xs
  if (!isImm(a[1]) || immVal(a[1]) > (int64_t(1) << 31)) fail("array too large", span);
  uint32_t n = uint32_t(immVal(a[1]));
  V r = mkArrOf(a[0], n);
  auto* o = static_cast<ArrObj*>(obj(r));
  V l = a[2];
  for (uint32_t i = 0; i < n; ++i, l = conField(l, 1)) {
    if (conIndex(l) != 1) fail("listToArray: the list is shorter than the array", span);
    arrStore(o, i, conField(l, 0));
  }
  return r;
}

// Stable merge sort, bottom up: `le x y` (a thorin function) says x may come
// first; of two elements, the earlier one is taken unless le says no. Any le
// is safe (a relation that is no order gives some permutation). ({A} le xs)
V sortBy(const V* a, uint32_t) {
  std::vector<V, gc::RootAllocator<V>> xs, tmp;
  for (V l = a[2]; conIndex(l) == 1; l = conField(l, 1))
    xs.push_back(share(conField(l, 0))); // (each is handed to le again and again)
  size_t n = xs.size();
  tmp.resize(n);
  auto le = [&](V x, V y) {
    V args[2] = {x, y};
    return immVal(apply(a[1], 2, args)) != 0;
  };
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = std::min(lo + w, n), hi = std::min(lo + 2 * w, n), i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = le(xs[i], xs[j]) ? xs[i++] : xs[j++];
      while (i < mid)
        tmp[k++] = xs[i++];
      while (j < hi)
        tmp[k++] = xs[j++];
    }
    xs.swap(tmp);
  }
  V list = kNil;
  for (size_t i = n; i-- > 0;)
    list = cons(xs[i], list);
  return list;
}

} // namespace

void prims() {
  auto reg = [](ax x, PrimFn f, uint32_t keeps = 0) {
    registerPrim(id(x), f);
    primKeeps(id(x), keeps); // (most only look at their arguments)
  };
  reg(ax::split, split);
  reg(ax::lines, pieceList<false>);
  reg(ax::words, pieceList<true>);
  reg(ax::join, join);
  reg(ax::foldWords, foldPieces<true>, 1u << 1 | 1u << 2); // {A} f z s: z, handed to f
  reg(ax::foldLines, foldPieces<false>, 1u << 1 | 1u << 2);
  reg(ax::substr, substr);
  reg(ax::find, find);
  reg(ax::startsWith, startsWith);
  reg(ax::endsWith, endsWith);
  reg(ax::replace, replace);
  reg(ax::toUpper, changeCase<true>);
  reg(ax::toLower, changeCase<false>);
  reg(ax::trim, trimmed<true, true>);
  reg(ax::trimStart, trimmed<true, false>);
  reg(ax::trimEnd, trimmed<false, true>);
  reg(ax::repeat, repeat);
  reg(ax::fromByte, fromByte);
  reg(ax::compare, compare);
  reg(ax::showI64, showI64);
  reg(ax::showF64, showF64);
  reg(ax::isNat, isNat);
  reg(ax::toNat, toNat);
  reg(ax::isI64, isI64);
  reg(ax::toI64, toI64);
  reg(ax::isF64, isF64);
  reg(ax::toF64, toF64);
  reg(ax::fromList, fromList, 1u << 2); // {A} n xs: xs's elements, stored
  reg(ax::sortBy, sortBy, 1u << 2);     // {A} le xs: the elements, in the result
  registerStrMap();
}

} // namespace thorin::plug::text
