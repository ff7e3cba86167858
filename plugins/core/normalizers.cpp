// Normalizers of the core plugin: constant folding and the algebraic
// identities dependent typing needs (n + 0 ▷ n). Each returns nullptr when
// it cannot simplify, which leaves the application stuck. Run-time errors
// (division by zero, out of range) are stuck here, too: the runtime
// evaluator reports them with a location.
#include <cmath>
#include <cstring>
#include <vector>

#include "compare.hpp"
#include "core/axiom.hpp"
#include "core/eval.hpp"
#include "core/literal.hpp"
#include "core_axioms.hpp"
#include "libm.hpp"
#include "nat_limits.hpp"
#include "nat_to_f64.hpp"

namespace thorin::plug::core {
namespace {

bool isLit(const Val* v, LitKind k) { return v->tag == VTag::Lit && LitKind(v->n) == k; }
bool isNat(const Val* v) {
  return v->tag == VTag::Lit && (LitKind(v->n) == LitKind::Nat || LitKind(v->n) == LitKind::BigNat);
}
bool isZero(const Val* v) { return isLit(v, LitKind::Nat) && v->bits == 0; }
bool isOne(const Val* v) { return isLit(v, LitKind::Nat) && v->bits == 1; }

struct Mpz {
  mpz_t z;
  Mpz() { mpz_init(z); }
  explicit Mpz(const Val* v) {
    mpz_init(z);
    litNat(v, z);
  }
  ~Mpz() { mpz_clear(z); }
};

// Nat ---------------------------------------------------------------------
enum class Arith { Add, Sub, Mul, Div, Mod };

template <Arith op> Val* natArith(World& w, Val* const* a) {
  Val *x = a[0], *y = a[1];
  if constexpr (op == Arith::Add) {
    if (isZero(y)) return x;
    if (isZero(x)) return y;
  } else if constexpr (op == Arith::Sub) {
    if (isZero(y)) return x;
  } else if constexpr (op == Arith::Mul) {
    if (isOne(y)) return x;
    if (isOne(x)) return y;
    if (isZero(x) || isZero(y)) return vLit(w, LitKind::Nat, 0);
  }
  if (!isNat(x) || !isNat(y)) return nullptr;
  if (isLit(x, LitKind::Nat) && isLit(y, LitKind::Nat)) {
    uint64_t p = x->bits, q = y->bits, r;
    switch (op) {
    case Arith::Add:
      if (!__builtin_add_overflow(p, q, &r)) return vLit(w, LitKind::Nat, r);
      break;
    case Arith::Sub: return vLit(w, LitKind::Nat, p > q ? p - q : 0);
    case Arith::Mul:
      if (!__builtin_mul_overflow(p, q, &r)) return vLit(w, LitKind::Nat, r);
      break;
    case Arith::Div: return q ? vLit(w, LitKind::Nat, p / q) : nullptr;
    case Arith::Mod: return q ? vLit(w, LitKind::Nat, p % q) : nullptr;
    }
  }
  Mpz p(x), q(y), r;
  switch (op) {
  case Arith::Add: mpz_add(r.z, p.z, q.z); break;
  case Arith::Sub:
    mpz_sub(r.z, p.z, q.z);
    if (mpz_sgn(r.z) < 0) mpz_set_ui(r.z, 0);
    break;
  case Arith::Mul:
    if (productTooLarge(p.z, q.z)) return nullptr; // (stuck: running it is the error)
    mpz_mul(r.z, p.z, q.z);
    break;
  case Arith::Div:
    if (!mpz_sgn(q.z)) return nullptr;
    mpz_fdiv_q(r.z, p.z, q.z);
    break;
  case Arith::Mod:
    if (!mpz_sgn(q.z)) return nullptr;
    mpz_fdiv_r(r.z, p.z, q.z);
    break;
  }
  return vNat(w, r.z);
}

template <Cmp c> Val* natCmp(World& w, Val* const* a) {
  if (!isNat(a[0]) || !isNat(a[1])) return nullptr;
  Mpz p(a[0]), q(a[1]);
  return vBool(w, compare(c, mpz_cmp(p.z, q.z), 0));
}

// I64 (wraps modulo 2^64) ------------------------------------------------
template <Arith op> Val* i64Arith(World& w, Val* const* a) {
  Val *x = a[0], *y = a[1];
  bool lx = isLit(x, LitKind::I64), ly = isLit(y, LitKind::I64);
  if constexpr (op == Arith::Add) {
    if (ly && y->bits == 0) return x;
    if (lx && x->bits == 0) return y;
  } else if constexpr (op == Arith::Sub) {
    if (ly && y->bits == 0) return x;
  } else if constexpr (op == Arith::Mul) {
    if (ly && y->bits == 1) return x;
    if (lx && x->bits == 1) return y;
  }
  if (!lx || !ly) return nullptr;
  uint64_t p = x->bits, q = y->bits;
  int64_t sp = int64_t(p), sq = int64_t(q);
  switch (op) {
  case Arith::Add: return vLit(w, LitKind::I64, p + q);
  case Arith::Sub: return vLit(w, LitKind::I64, p - q);
  case Arith::Mul: return vLit(w, LitKind::I64, p * q);
  case Arith::Div:
    if (!q) return nullptr;
    if (sq == -1) return vLit(w, LitKind::I64, 0 - p); // INT64_MIN / -1 wraps
    return vLit(w, LitKind::I64, uint64_t(sp / sq));
  case Arith::Mod:
    if (!q) return nullptr;
    if (sq == -1) return vLit(w, LitKind::I64, 0);
    return vLit(w, LitKind::I64, uint64_t(sp % sq));
  }
  return nullptr;
}

template <Cmp c> Val* i64Cmp(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::I64) || !isLit(a[1], LitKind::I64)) return nullptr;
  return vBool(w, compare(c, int64_t(a[0]->bits), int64_t(a[1]->bits)));
}

// F64 --------------------------------------------------------------------
template <Arith op> Val* f64Arith(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::F64) || !isLit(a[1], LitKind::F64)) return nullptr;
  double p = litF64(a[0]), q = litF64(a[1]);
  switch (op) {
  case Arith::Add: return vF64(w, p + q);
  case Arith::Sub: return vF64(w, p - q);
  case Arith::Mul: return vF64(w, p * q);
  case Arith::Div: return vF64(w, p / q);
  case Arith::Mod: return nullptr;
  }
  return nullptr;
}

template <Cmp c> Val* f64Cmp(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::F64) || !isLit(a[1], LitKind::F64)) return nullptr;
  return vBool(w, compare(c, litF64(a[0]), litF64(a[1])));
}

template <Cmp c> Val* boolCmp(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::Bool) || !isLit(a[1], LitKind::Bool)) return nullptr;
  return vBool(w, compare(c, a[0]->bits, a[1]->bits));
}

template <Cmp c> Val* strCmp(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::Str) || !isLit(a[1], LitKind::Str)) return nullptr;
  return vBool(w, compare(c, litStr(a[0]->big), litStr(a[1]->big)));
}

// Conversions -------------------------------------------------------------
Val* natToI64(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::Nat) || a[0]->bits > uint64_t(INT64_MAX)) return nullptr;
  return vLit(w, LitKind::I64, a[0]->bits);
}
Val* i64ToNat(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::I64) || int64_t(a[0]->bits) < 0) return nullptr;
  return vLit(w, LitKind::Nat, a[0]->bits);
}
Val* i64ToF64(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::I64)) return nullptr;
  return vF64(w, double(int64_t(a[0]->bits)));
}
Val* f64ToI64(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::F64)) return nullptr;
  double d = litF64(a[0]);
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return nullptr; // [-2^63, 2^63)
  return vLit(w, LitKind::I64, uint64_t(int64_t(d)));
}
Val* natToF64(World& w, Val* const* a) {
  if (!isNat(a[0])) return nullptr;
  if (isLit(a[0], LitKind::Nat)) return vF64(w, double(a[0]->bits));
  Mpz p(a[0]);
  return vF64(w, natToF64Nearest(p.z));
}
Val* f64Sqrt(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::F64)) return nullptr;
  return vF64(w, std::sqrt(litF64(a[0])));
}
// libm's function on a literal: the primitive's call (libm.hpp).
template <Math1 Libm::*f> Val* f64Math(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::F64)) return nullptr;
  return vF64(w, (libm().*f)(litF64(a[0])));
}
Val* f64Pow(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::F64) || !isLit(a[1], LitKind::F64)) return nullptr;
  return vF64(w, libm().pow(litF64(a[0]), litF64(a[1])));
}

// Bits of an I64 ---------------------------------------------------------------
enum class Bits { And, Or, Xor, Shl, Shr, UShr };

// x op y on literals (a shift counts modulo 64); x & 0 is 0, and x op u is x
// for op's unit u (-1 for &, 0 for the others; a shift by 0 modulo 64).
template <Bits op> Val* i64Bits(World& w, Val* const* a) {
  Val *x = a[0], *y = a[1];
  bool lx = isLit(x, LitKind::I64), ly = isLit(y, LitKind::I64);
  bool shift = op == Bits::Shl || op == Bits::Shr || op == Bits::UShr;
  uint64_t unit = op == Bits::And ? ~uint64_t(0) : 0;
  if (ly && (shift ? (y->bits & 63) == 0 : y->bits == unit)) return x;
  if (!shift && lx && x->bits == unit) return y;
  if (op == Bits::And && ((lx && x->bits == 0) || (ly && y->bits == 0)))
    return vLit(w, LitKind::I64, 0);
  if (!lx || !ly) return nullptr;
  uint64_t p = x->bits, q = y->bits, n = q & 63;
  switch (op) {
  case Bits::And: return vLit(w, LitKind::I64, p & q);
  case Bits::Or: return vLit(w, LitKind::I64, p | q);
  case Bits::Xor: return vLit(w, LitKind::I64, p ^ q);
  case Bits::Shl: return vLit(w, LitKind::I64, p << n);
  case Bits::Shr: return vLit(w, LitKind::I64, uint64_t(int64_t(p) >> n));
  case Bits::UShr: return vLit(w, LitKind::I64, p >> n);
  }
  return nullptr;
}
Val* i64Not(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::I64)) return nullptr;
  return vLit(w, LitKind::I64, ~a[0]->bits);
}

// Arrays ------------------------------------------------------------------
constexpr uint64_t kMaxArray = uint64_t(1) << 24; // larger arrays stay symbolic here

Val* arrBuild(World& w, Val* const* a) { // {A} n f
  if (!isLit(a[1], LitKind::Nat) || a[1]->bits > kMaxArray) return nullptr;
  uint32_t n = uint32_t(a[1]->bits);
  Val* v = mkVal(w, VTag::Arr);
  v->n = n;
  v->elems = w.perm.array<Val*>(n);
  for (uint32_t i = 0; i < n; ++i)
    v->elems[i] = vApp(w, a[2], vLit(w, LitKind::Idx, i), Icit::Expl);
  return v;
}
Val* arrGet(World&, Val* const* a) { // {A} {n} arr i
  if (a[2]->tag != VTag::Arr || !isLit(a[3], LitKind::Idx) || a[3]->bits >= a[2]->n) return nullptr;
  return a[2]->elems[a[3]->bits];
}
Val* arrSet(World& w, Val* const* a) { // {A} {n} arr i x
  if (a[2]->tag != VTag::Arr || !isLit(a[3], LitKind::Idx) || a[3]->bits >= a[2]->n) return nullptr;
  Val* v = mkVal(w, VTag::Arr);
  v->n = a[2]->n;
  v->elems = w.perm.array<Val*>(v->n);
  std::memcpy(v->elems, a[2]->elems, sizeof(Val*) * v->n);
  v->elems[a[3]->bits] = a[4];
  return v;
}
Val* arrLength(World& w, Val* const* a) { // {A} {n} arr
  if (a[2]->tag == VTag::Arr) return vLit(w, LitKind::Nat, a[2]->n);
  if (isNat(a[1])) return a[1];
  return nullptr;
}
Val* idxOf(World& w, Val* const* a) { // {n} k
  if (!isLit(a[0], LitKind::Nat) || !isLit(a[1], LitKind::Nat) || a[1]->bits >= a[0]->bits)
    return nullptr;
  return vLit(w, LitKind::Idx, a[1]->bits);
}
Val* idxToNat(World& w, Val* const* a) { // {n} i
  if (!isLit(a[1], LitKind::Idx)) return nullptr;
  return vLit(w, LitKind::Nat, a[1]->bits);
}

// Strings -----------------------------------------------------------------
Val* strLen(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::Str)) return nullptr;
  return vLit(w, LitKind::Nat, litStr(a[0]->big).size());
}
Val* strAt(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::Str) || !isLit(a[1], LitKind::Nat)) return nullptr;
  std::string_view s = litStr(a[0]->big);
  if (a[1]->bits >= s.size()) return nullptr;
  return vLit(w, LitKind::Nat, static_cast<unsigned char>(s[a[1]->bits]));
}
Val* strCat(World& w, Val* const* a) {
  if (!isLit(a[0], LitKind::Str) || !isLit(a[1], LitKind::Str)) return nullptr;
  if (litStr(a[0]->big).empty()) return a[1];
  if (litStr(a[1]->big).empty()) return a[0];
  // (A literal's length is 32 bits: a longer one stays `strCat x y`, and
  // running it is the runtime's located error.)
  if (litStr(a[0]->big).size() + litStr(a[1]->big).size() > UINT32_MAX) return nullptr;
  return vStr(w, std::string(litStr(a[0]->big)) + std::string(litStr(a[1]->big)));
}
Val* natToString(World& w, Val* const* a) {
  if (!isNat(a[0])) return nullptr;
  return vStr(w, showLit(LitKind(a[0]->n), a[0]->bits, a[0]->big));
}

// Eliminators ---------------------------------------------------------------
// The value of the declaration of axiom `a` (nullptr if none is in scope).
Val* axiomHead(World& w, ax a) {
  int32_t top = w.axiomEntry(id(a));
  return top < 0 ? nullptr : w.topHead(TopId(top));
}

// x + k or k + x with k ≥ 1 a literal: x + (k - 1), the predecessor.
Val* predOfSum(World& w, Val* n) {
  uint64_t k;
  Val* x = natOffset(w, n, k);
  if (!x || k == 0) return nullptr;
  if (k == 1) return x;
  Val* add = w.topHead(n->n);
  return vApp(w, vApp(w, add, x, Icit::Expl), vLit(w, LitKind::Nat, k - 1), Icit::Expl);
}

Val* natElim(World& w, Val* const* a) { // P z s n
  // On a successor, one step: natElim P z s (x + 1) ▷ s x (natElim P z s x),
  // so that a type computed by natElim unfolds on `n + 1` (Vec (n + 1) is
  // A × Vec n), as a pattern-matching definition does on `suc n` in Agda.
  if (Val* x = predOfSum(w, a[3])) {
    Val* elim = axiomHead(w, ax::nat_elim);
    if (!elim) return nullptr;
    Val* rec = elim;
    for (int i = 0; i < 3; ++i)
      rec = vApp(w, rec, a[i], Icit::Expl);
    rec = vApp(w, rec, x, Icit::Expl);
    return vApp(w, vApp(w, a[2], x, Icit::Expl), rec, Icit::Expl);
  }
  if (!isLit(a[3], LitKind::Nat) || a[3]->bits > (uint64_t(1) << 32)) return nullptr;
  Val* acc = a[1];
  for (uint64_t i = 0; i < a[3]->bits; ++i)
    acc = vApp(w, vApp(w, a[2], vLit(w, LitKind::Nat, i), Icit::Expl), acc, Icit::Expl);
  return acc;
}
Val* boolElim(World&, Val* const* a) { // P t f b
  if (!isLit(a[3], LitKind::Bool)) return nullptr;
  return a[3]->bits ? a[1] : a[2];
}

Val* constTrue(World& w, Val* const*) { return vBool(w, true); }
Val* constFalse(World& w, Val* const*) { return vBool(w, false); }
Val* constTt(World& w, Val* const*) { return vLit(w, LitKind::Unit, 0); }

} // namespace

void normalizers() {
  AxiomTable& t = AxiomTable::get();
  auto norm = [&](ax a, Normalizer n) { t[id(a)].norm = n; };
  // The roles core code knows these axioms by (core/builtins.hpp).
  const std::pair<Builtin, ax> roles[] = {{Builtin::Nat, ax::Nat},
                                          {Builtin::Bool, ax::Bool},
                                          {Builtin::Unit, ax::Unit},
                                          {Builtin::I64, ax::I64},
                                          {Builtin::F64, ax::F64},
                                          {Builtin::String, ax::String},
                                          {Builtin::Idx, ax::Idx},
                                          {Builtin::Array, ax::Array},
                                          {Builtin::True, ax::true_},
                                          {Builtin::False, ax::false_},
                                          {Builtin::NatAdd, ax::nat_add},
                                          {Builtin::NatElim, ax::nat_elim},
                                          {Builtin::IdxOf, ax::idx_of},
                                          {Builtin::ArrGet, ax::arr_get},
                                          {Builtin::ArrLength, ax::arr_length}};
  for (auto [role, a] : roles)
    t.setBuiltin(role, id(a));
  norm(ax::true_, constTrue);
  norm(ax::false_, constFalse);
  norm(ax::tt, constTt);

  // Operators: `op` on Nat, I64, F64 (each axiom's normalizer; none: not on that type).
  struct Op {
    const char* sym;
    ax nat, i64, f64;
    Normalizer natN, i64N, f64N;
  };
  const Op ops[] = {
      {"+", ax::nat_add, ax::i64_add, ax::f64_add, natArith<Arith::Add>, i64Arith<Arith::Add>,
       f64Arith<Arith::Add>},
      {"-", ax::nat_sub, ax::i64_sub, ax::f64_sub, natArith<Arith::Sub>, i64Arith<Arith::Sub>,
       f64Arith<Arith::Sub>},
      {"*", ax::nat_mul, ax::i64_mul, ax::f64_mul, natArith<Arith::Mul>, i64Arith<Arith::Mul>,
       f64Arith<Arith::Mul>},
      {"/", ax::nat_div, ax::i64_div, ax::f64_div, natArith<Arith::Div>, i64Arith<Arith::Div>,
       f64Arith<Arith::Div>},
      {"%", ax::nat_mod, ax::i64_mod, ax::f64_div, natArith<Arith::Mod>, i64Arith<Arith::Mod>,
       nullptr},
      {"==", ax::nat_eq, ax::i64_eq, ax::f64_eq, natCmp<Cmp::Eq>, i64Cmp<Cmp::Eq>, f64Cmp<Cmp::Eq>},
      {"!=", ax::nat_ne, ax::i64_ne, ax::f64_ne, natCmp<Cmp::Ne>, i64Cmp<Cmp::Ne>, f64Cmp<Cmp::Ne>},
      {"<", ax::nat_lt, ax::i64_lt, ax::f64_lt, natCmp<Cmp::Lt>, i64Cmp<Cmp::Lt>, f64Cmp<Cmp::Lt>},
      {"<=", ax::nat_le, ax::i64_le, ax::f64_le, natCmp<Cmp::Le>, i64Cmp<Cmp::Le>, f64Cmp<Cmp::Le>},
      {">", ax::nat_gt, ax::i64_gt, ax::f64_gt, natCmp<Cmp::Gt>, i64Cmp<Cmp::Gt>, f64Cmp<Cmp::Gt>},
      {">=", ax::nat_ge, ax::i64_ge, ax::f64_ge, natCmp<Cmp::Ge>, i64Cmp<Cmp::Ge>, f64Cmp<Cmp::Ge>},
  };
  struct OnType {
    const char* sym;
    ax axiom, type;
    Normalizer n;
  };
  std::vector<OnType> operators = {{"==", ax::bool_eq, ax::Bool, boolCmp<Cmp::Eq>},
                                   {"!=", ax::bool_ne, ax::Bool, boolCmp<Cmp::Ne>},
                                   {"==", ax::str_eq, ax::String, strCmp<Cmp::Eq>},
                                   {"!=", ax::str_ne, ax::String, strCmp<Cmp::Ne>},
                                   {"<", ax::str_lt, ax::String, strCmp<Cmp::Lt>},
                                   {"<=", ax::str_le, ax::String, strCmp<Cmp::Le>},
                                   {">", ax::str_gt, ax::String, strCmp<Cmp::Gt>},
                                   {">=", ax::str_ge, ax::String, strCmp<Cmp::Ge>}};
  for (const Op& o : ops) {
    operators.push_back({o.sym, o.nat, ax::Nat, o.natN});
    operators.push_back({o.sym, o.i64, ax::I64, o.i64N});
    operators.push_back({o.sym, o.f64, ax::F64, o.f64N});
  }
  for (const OnType& o : operators)
    if (o.n) {
      norm(o.axiom, o.n);
      t.setOperator(id(o.axiom), o.sym, id(o.type));
    }

  // Units (x + 0 = x, x * 1 = x) for the specializer and the tiers; integer
  // addition and multiplication (wrapping on I64) are associative and
  // commutative, F64's are not.
  double one = 1.0;
  uint64_t oneBits;
  std::memcpy(&oneBits, &one, sizeof one);
  for (ax a : {ax::nat_add, ax::i64_add})
    t[id(a)].facts = {0, std::nullopt, true};
  for (ax a : {ax::nat_mul, ax::i64_mul})
    t[id(a)].facts = {1, 0, true};
  t[id(ax::f64_mul)].facts = {oneBits, std::nullopt, false};

  norm(ax::conv_natToI64, natToI64);
  norm(ax::conv_i64ToNat, i64ToNat);
  norm(ax::conv_i64ToF64, i64ToF64);
  norm(ax::conv_f64ToI64, f64ToI64);
  norm(ax::conv_natToF64, natToF64);
  norm(ax::f64_sqrt, f64Sqrt);
  norm(ax::f64_exp, f64Math<&Libm::exp>);
  norm(ax::f64_log, f64Math<&Libm::log>);
  norm(ax::f64_sin, f64Math<&Libm::sin>);
  norm(ax::f64_cos, f64Math<&Libm::cos>);
  norm(ax::f64_tan, f64Math<&Libm::tan>);
  norm(ax::f64_tanh, f64Math<&Libm::tanh>);
  norm(ax::f64_floor, f64Math<&Libm::floor>);
  norm(ax::f64_ceil, f64Math<&Libm::ceil>);
  norm(ax::f64_abs, f64Math<&Libm::fabs>);
  norm(ax::f64_lgamma, f64Math<&Libm::lgamma>);
  norm(ax::f64_pow, f64Pow);
  norm(ax::i64_and, i64Bits<Bits::And>);
  norm(ax::i64_or, i64Bits<Bits::Or>);
  norm(ax::i64_xor, i64Bits<Bits::Xor>);
  norm(ax::i64_shl, i64Bits<Bits::Shl>);
  norm(ax::i64_shr, i64Bits<Bits::Shr>);
  norm(ax::i64_ushr, i64Bits<Bits::UShr>);
  norm(ax::i64_not, i64Not);
  norm(ax::arr_build, arrBuild);
  norm(ax::arr_get, arrGet);
  norm(ax::arr_set, arrSet);
  norm(ax::arr_length, arrLength);
  norm(ax::idx_of, idxOf);
  norm(ax::idx_toNat, idxToNat);
  norm(ax::str_len, strLen);
  norm(ax::str_at, strAt);
  norm(ax::str_cat, strCat);
  norm(ax::nat_toString, natToString);
  norm(ax::nat_elim, natElim);
  norm(ax::bool_elim, boolElim);
}

} // namespace thorin::plug::core
