// Run-time implementations of the core plugin's axioms (the interpreter calls
// them; compiled code calls them or inlines the lowerings of baseline.cpp and llvm.cpp).
// Errors the normalizers leave stuck — division by zero, out-of-range
// conversions and indices — are located run-time errors here.
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <string>

#include "compare.hpp"
#include "core_axioms.hpp"
#include "libm.hpp"
#include "nat_limits.hpp"
#include "nat_to_f64.hpp"
#include "runtime/gc.hpp"
#include "runtime/primitive.hpp"

namespace thorin::plug::core {
namespace {

using namespace rt;

struct Mpz {
  mpz_t z;
  Mpz() { mpz_init(z); }
  explicit Mpz(V v) {
    mpz_init(z);
    toNatMpz(v, z);
  }
  ~Mpz() { mpz_clear(z); }
};

constexpr int64_t kSmall = int64_t(1) << 62;

// Nat -----------------------------------------------------------------------
V natAdd(const V* a, uint32_t) {
  if (isImm(a[0]) && isImm(a[1])) return ofNat(uint64_t(immVal(a[0]) + immVal(a[1])));
  Mpz x(a[0]), y(a[1]), r;
  mpz_add(r.z, x.z, y.z);
  return ofNatMpz(r.z);
}
V natSub(const V* a, uint32_t) {
  if (isImm(a[0]) && isImm(a[1])) {
    int64_t d = immVal(a[0]) - immVal(a[1]);
    return imm(d > 0 ? d : 0);
  }
  Mpz x(a[0]), y(a[1]), r;
  mpz_sub(r.z, x.z, y.z);
  if (mpz_sgn(r.z) < 0) mpz_set_ui(r.z, 0);
  return ofNatMpz(r.z);
}
V natMul(const V* a, uint32_t span) {
  if (isImm(a[0]) && isImm(a[1])) {
    int64_t r;
    if (!__builtin_mul_overflow(immVal(a[0]), immVal(a[1]), &r) && r < kSmall) return imm(r);
  }
  Mpz x(a[0]), y(a[1]), r;
  if (productTooLarge(x.z, y.z))
    fail("the product is too large: a Nat has at most 2^30 bits (128 MB)", span);
  mpz_mul(r.z, x.z, y.z);
  return ofNatMpz(r.z);
}
template <bool Mod> V natDiv(const V* a, uint32_t span) {
  if (isImm(a[1]) && immVal(a[1]) == 0) fail(Mod ? "remainder by zero" : "division by zero", span);
  if (isImm(a[0]) && isImm(a[1]))
    return imm(Mod ? immVal(a[0]) % immVal(a[1]) : immVal(a[0]) / immVal(a[1]));
  Mpz x(a[0]), y(a[1]), r;
  if (Mod)
    mpz_fdiv_r(r.z, x.z, y.z);
  else
    mpz_fdiv_q(r.z, x.z, y.z);
  return ofNatMpz(r.z);
}
int natCompare(const V* a) {
  if (isImm(a[0]) && isImm(a[1]))
    return (immVal(a[0]) > immVal(a[1])) - (immVal(a[0]) < immVal(a[1]));
  Mpz x(a[0]), y(a[1]);
  int c = mpz_cmp(x.z, y.z);
  return (c > 0) - (c < 0);
}

template <Cmp c> V natCmp(const V* a, uint32_t) { return ofBool(compare(c, natCompare(a), 0)); }

// I64 (wrapping) --------------------------------------------------------------
V i64Add(const V* a, uint32_t) {
  return ofI64(int64_t(uint64_t(toI64(a[0])) + uint64_t(toI64(a[1]))));
}
V i64Sub(const V* a, uint32_t) {
  return ofI64(int64_t(uint64_t(toI64(a[0])) - uint64_t(toI64(a[1]))));
}
V i64Mul(const V* a, uint32_t) {
  return ofI64(int64_t(uint64_t(toI64(a[0])) * uint64_t(toI64(a[1]))));
}
template <bool Mod> V i64Div(const V* a, uint32_t span) {
  int64_t x = toI64(a[0]), y = toI64(a[1]);
  if (y == 0) fail(Mod ? "remainder by zero" : "division by zero", span);
  if (y == -1) return ofI64(Mod ? 0 : int64_t(0 - uint64_t(x))); // INT64_MIN / -1 wraps
  return ofI64(Mod ? x % y : x / y);
}
template <Cmp c> V i64Cmp(const V* a, uint32_t) {
  return ofBool(compare(c, toI64(a[0]), toI64(a[1])));
}

// F64 -------------------------------------------------------------------------
V f64Add(const V* a, uint32_t) { return ofF64(toF64(a[0]) + toF64(a[1])); }
V f64Sub(const V* a, uint32_t) { return ofF64(toF64(a[0]) - toF64(a[1])); }
V f64Mul(const V* a, uint32_t) { return ofF64(toF64(a[0]) * toF64(a[1])); }
V f64Div(const V* a, uint32_t) { return ofF64(toF64(a[0]) / toF64(a[1])); }
template <Cmp c> V f64Cmp(const V* a, uint32_t) {
  return ofBool(compare(c, toF64(a[0]), toF64(a[1])));
}
V f64Sqrt(const V* a, uint32_t) { return ofF64(std::sqrt(toF64(a[0]))); }
template <Math1 Libm::*f> V f64Math(const V* a, uint32_t) {
  return ofF64((libm().*f)(toF64(a[0])));
}
V f64Pow(const V* a, uint32_t) { return ofF64(libm().pow(toF64(a[0]), toF64(a[1]))); }

// Bits of an I64 (a shift counts modulo 64) -------------------------------------
uint64_t bits(V v) { return uint64_t(toI64(v)); }
V i64And(const V* a, uint32_t) { return ofI64(int64_t(bits(a[0]) & bits(a[1]))); }
V i64Or(const V* a, uint32_t) { return ofI64(int64_t(bits(a[0]) | bits(a[1]))); }
V i64Xor(const V* a, uint32_t) { return ofI64(int64_t(bits(a[0]) ^ bits(a[1]))); }
V i64Not(const V* a, uint32_t) { return ofI64(int64_t(~bits(a[0]))); }
V i64Shl(const V* a, uint32_t) { return ofI64(int64_t(bits(a[0]) << (bits(a[1]) & 63))); }
V i64Shr(const V* a, uint32_t) { return ofI64(toI64(a[0]) >> (bits(a[1]) & 63)); }
V i64UShr(const V* a, uint32_t) { return ofI64(int64_t(bits(a[0]) >> (bits(a[1]) & 63))); }

template <Cmp c> V wordCmp(const V* a, uint32_t) { return ofBool(compare(c, a[0], a[1])); }
template <Cmp c> V strCmp(const V* a, uint32_t) {
  return ofBool(compare(c, toStr(a[0]), toStr(a[1])));
}

// Conversions -------------------------------------------------------------------
V natToI64(const V* a, uint32_t span) {
  if (!isImm(a[0])) {
    Mpz x(a[0]);
    if (mpz_sizeinbase(x.z, 2) > 63) fail("natToI64: the number does not fit in I64", span);
    return ofI64(int64_t(mpz_get_ui(x.z)));
  }
  return ofI64(immVal(a[0]));
}
V i64ToNat(const V* a, uint32_t span) {
  int64_t x = toI64(a[0]);
  if (x < 0) fail("i64ToNat: the number is negative", span);
  return ofNat(uint64_t(x));
}
V i64ToF64(const V* a, uint32_t) { return ofF64(double(toI64(a[0]))); }
V f64ToI64(const V* a, uint32_t span) {
  double d = toF64(a[0]);
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) // [-2^63, 2^63)
    fail("f64ToI64: the number is out of range for I64 (or NaN)", span);
  return ofI64(int64_t(d));
}
V natToF64(const V* a, uint32_t) {
  if (isImm(a[0])) return ofF64(double(immVal(a[0])));
  Mpz x(a[0]);
  return ofF64(natToF64Nearest(x.z));
}

// Arrays ------------------------------------------------------------------------
uint32_t arrayLength(V n, uint32_t span) {
  if (!isImm(n) || immVal(n) > (int64_t(1) << 31)) fail("array too large", span);
  return uint32_t(immVal(n));
}
V arrBuild(const V* a, uint32_t span) { // {A} n f
  uint32_t n = arrayLength(a[1], span);
  V r = mkArrOf(a[0], n);
  auto* o = static_cast<ArrObj*>(obj(r));
  uint32_t i = 0;
  if (n > 1 && (o->tag == OTag::ArrF64 || o->tag == OTag::ArrI64)) {
    // (The first call makes a hot λ's closure call its compiled copy.)
    arrStore(o, 0, apply1(a[2], imm(0)));
    if (buildRaw(a[2], 1, n, o->tag == OTag::ArrF64, o->elems)) return r;
    i = 1;
  }
  for (; i < n; ++i)
    arrStore(o, i, apply1(a[2], imm(i)));
  return r;
}
ArrObj* checkIndex(V arr, V i, uint32_t span) {
  auto* o = static_cast<ArrObj*>(obj(arr));
  if (!isImm(i) || uint64_t(immVal(i)) >= o->n)
    fail(
        fmt::format("index {} is out of range for an array of length {}", showNat(i), o->n).c_str(),
        span);
  return o;
}
V arrGet(const V* a, uint32_t span) {
  return arrElem(checkIndex(a[2], a[3], span), uint32_t(immVal(a[3])));
}
// An array nothing else refers to is updated in place; a shared one is
// copied, and the copy is the caller's alone (runtime/share.hpp).
V arrSet(const V* a, uint32_t span) {
  ArrObj* o = checkIndex(a[2], a[3], span);
  if (!isShared(o)) {
    arrShapeMemo(o) = 0; // (the new element may have another shape)
    arrStore(o, uint32_t(immVal(a[3])), a[4]);
    return a[2];
  }
  V r = mkArrRep(o->tag, o->n); // the same representation
  auto* c = static_cast<ArrObj*>(obj(r));
  std::memcpy(c->elems, o->elems, sizeof(V) * o->n);
  gc::noteCopy();
  arrStore(c, uint32_t(immVal(a[3])), a[4]);
  return r;
}
V arrLength(const V* a, uint32_t) { return imm(static_cast<ArrObj*>(obj(a[2]))->n); }
V idxOf(const V* a, uint32_t span) { // {n} k: any k < n (a big k can index no array)
  if (natCompare(a + 0) <= 0) {
    fail(fmt::format("idx: {} is out of range for Idx {}", showNat(a[1]), showNat(a[0])).c_str(),
         span);
  }
  return a[1];
}
V idxToNat(const V* a, uint32_t) { return a[1]; }

// Strings -----------------------------------------------------------------------
V strLen(const V* a, uint32_t) { return imm(int64_t(toStr(a[0]).size())); }
V strAt(const V* a, uint32_t span) {
  std::string_view s = toStr(a[0]);
  if (!isImm(a[1]) || uint64_t(immVal(a[1])) >= s.size())
    fail(fmt::format("strAt: index {} is out of range for a string of length {}", showNat(a[1]),
                     s.size())
             .c_str(),
         span);
  return imm(static_cast<unsigned char>(s[size_t(immVal(a[1]))]));
}
// s ++ t. A string nothing else refers to (runtime/share.hpp) with room
// for t grows in place; one being built (unshared, without room) is copied
// with twice the room, so that appending in a loop costs O(1) a byte.
V strCat(const V* a, uint32_t) {
  auto* s = static_cast<StrObj*>(obj(a[0]));
  std::string_view t = toStr(a[1]);
  size_t n = size_t(s->n) + t.size();
  bool unshared = !(strFlags(s) & kArrShared);
  if (unshared && strCapacity(s) >= n) {
    std::memcpy(s->data + s->n, t.data(), t.size()); // (t may be s: its bytes stay)
    s->n = uint32_t(n);
    return a[0];
  }
  size_t room = unshared && s->n > 0 ? std::min<size_t>(2 * n, UINT32_MAX) : n;
  StrObj* r = mkStr(n, std::max(room, n));
  std::memcpy(r->data, s->data, s->n);
  std::memcpy(r->data + s->n, t.data(), t.size());
  return ofObj(r);
}
V natToString(const V* a, uint32_t) { return ofStr(showNat(a[0])); }

// Eliminators ---------------------------------------------------------------------
V natElim(const V* a, uint32_t span) { // P z s n
  if (!isImm(a[3])) fail("natElim: the number is too large to iterate", span);
  V acc = a[1];
  for (int64_t i = 0; i < immVal(a[3]); ++i) {
    V args[2] = {imm(i), acc};
    acc = apply(a[2], 2, args);
  }
  return acc;
}
V boolElim(const V* a, uint32_t) { return immVal(a[3]) ? a[1] : a[2]; }

} // namespace

void prims() {
  using M = MType;
  // (Every primitive here only looks at its arguments, except the few that
  // name the ones they keep or hand on: primKeeps below.)
  auto prim = [](ax a, PrimFn fn, std::initializer_list<M> sig = {}, M res = M::None,
                 M value = M::None) {
    registerPrim(id(a), fn, sig, res, value);
    primKeeps(id(a), 0);
  };
  prim(ax::nat_add, natAdd);
  prim(ax::nat_sub, natSub);
  prim(ax::nat_mul, natMul);
  prim(ax::nat_div, natDiv<false>);
  prim(ax::nat_mod, natDiv<true>);
  prim(ax::nat_eq, natCmp<Cmp::Eq>);
  prim(ax::nat_ne, natCmp<Cmp::Ne>);
  prim(ax::nat_lt, natCmp<Cmp::Lt>);
  prim(ax::nat_le, natCmp<Cmp::Le>);
  prim(ax::nat_gt, natCmp<Cmp::Gt>);
  prim(ax::nat_ge, natCmp<Cmp::Ge>);
  const std::initializer_list<M> ii = {M::I64, M::I64}, ff = {M::F64, M::F64};
  prim(ax::i64_add, i64Add, ii, M::I64);
  prim(ax::i64_sub, i64Sub, ii, M::I64);
  prim(ax::i64_mul, i64Mul, ii, M::I64);
  prim(ax::i64_div, i64Div<false>, ii, M::I64);
  prim(ax::i64_mod, i64Div<true>, ii, M::I64);
  prim(ax::i64_eq, i64Cmp<Cmp::Eq>, ii, M::Bool);
  prim(ax::i64_ne, i64Cmp<Cmp::Ne>, ii, M::Bool);
  prim(ax::i64_lt, i64Cmp<Cmp::Lt>, ii, M::Bool);
  prim(ax::i64_le, i64Cmp<Cmp::Le>, ii, M::Bool);
  prim(ax::i64_gt, i64Cmp<Cmp::Gt>, ii, M::Bool);
  prim(ax::i64_ge, i64Cmp<Cmp::Ge>, ii, M::Bool);
  prim(ax::f64_add, f64Add, ff, M::F64);
  prim(ax::f64_sub, f64Sub, ff, M::F64);
  prim(ax::f64_mul, f64Mul, ff, M::F64);
  prim(ax::f64_div, f64Div, ff, M::F64);
  prim(ax::f64_eq, f64Cmp<Cmp::Eq>, ff, M::Bool);
  prim(ax::f64_ne, f64Cmp<Cmp::Ne>, ff, M::Bool);
  prim(ax::f64_lt, f64Cmp<Cmp::Lt>, ff, M::Bool);
  prim(ax::f64_le, f64Cmp<Cmp::Le>, ff, M::Bool);
  prim(ax::f64_gt, f64Cmp<Cmp::Gt>, ff, M::Bool);
  prim(ax::f64_ge, f64Cmp<Cmp::Ge>, ff, M::Bool);
  prim(ax::f64_sqrt, f64Sqrt, {M::F64}, M::F64);
  const std::pair<ax, PrimFn> math[] = {
      {ax::f64_exp, f64Math<&Libm::exp>},     {ax::f64_log, f64Math<&Libm::log>},
      {ax::f64_sin, f64Math<&Libm::sin>},     {ax::f64_cos, f64Math<&Libm::cos>},
      {ax::f64_tan, f64Math<&Libm::tan>},     {ax::f64_tanh, f64Math<&Libm::tanh>},
      {ax::f64_floor, f64Math<&Libm::floor>}, {ax::f64_ceil, f64Math<&Libm::ceil>},
      {ax::f64_abs, f64Math<&Libm::fabs>},    {ax::f64_lgamma, f64Math<&Libm::lgamma>}};
  for (auto [a, fn] : math)
    prim(a, fn, {M::F64}, M::F64);
  prim(ax::f64_pow, f64Pow, ff, M::F64);
  prim(ax::i64_and, i64And, ii, M::I64);
  prim(ax::i64_or, i64Or, ii, M::I64);
  prim(ax::i64_xor, i64Xor, ii, M::I64);
  prim(ax::i64_not, i64Not, {M::I64}, M::I64);
  prim(ax::i64_shl, i64Shl, ii, M::I64);
  prim(ax::i64_shr, i64Shr, ii, M::I64);
  prim(ax::i64_ushr, i64UShr, ii, M::I64);
  prim(ax::bool_eq, wordCmp<Cmp::Eq>, {M::Bool, M::Bool}, M::Bool);
  prim(ax::bool_ne, wordCmp<Cmp::Ne>, {M::Bool, M::Bool}, M::Bool);
  prim(ax::str_eq, strCmp<Cmp::Eq>);
  prim(ax::str_ne, strCmp<Cmp::Ne>);
  prim(ax::str_lt, strCmp<Cmp::Lt>);
  prim(ax::str_le, strCmp<Cmp::Le>);
  prim(ax::str_gt, strCmp<Cmp::Gt>);
  prim(ax::str_ge, strCmp<Cmp::Ge>);
  // Conversions from words to machine numbers: their values' classes.
  prim(ax::conv_natToI64, natToI64, {}, M::None, M::I64);
  prim(ax::conv_i64ToNat, i64ToNat);
  prim(ax::conv_i64ToF64, i64ToF64, {M::I64}, M::F64);
  prim(ax::conv_f64ToI64, f64ToI64, {}, M::None, M::I64);
  prim(ax::conv_natToF64, natToF64, {}, M::None, M::F64);
  prim(ax::arr_build, arrBuild);
  prim(ax::arr_get, arrGet);
  prim(ax::arr_set, arrSet);
  prim(ax::arr_length, arrLength);
  prim(ax::idx_of, idxOf);
  prim(ax::idx_toNat, idxToNat);
  prim(ax::str_len, strLen);
  prim(ax::str_at, strAt);
  prim(ax::str_cat, strCat);
  prim(ax::nat_toString, natToString);
  prim(ax::nat_elim, natElim);
  prim(ax::bool_elim, boolElim);
  primKeeps(id(ax::arr_set), 1u << 2);             // {A} {n} a i x: a, updated in place
  primKeeps(id(ax::str_cat), 1u << 0);             // s t: s, appended to in place
  primKeeps(id(ax::nat_elim), 1u << 1);            // P z s n: z, handed to s
  primKeeps(id(ax::bool_elim), 1u << 1 | 1u << 2); // P t f b: t or f, returned
}

} // namespace thorin::plug::core
