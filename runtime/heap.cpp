#include "heap.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <sys/mman.h>
#include <sys/time.h>
#include <vector>

#include "core/guard.hpp"
#include "gc.hpp"

namespace thorin::rt {

// The heap is the collector's (gc.hpp). What is left here: the per-run
// count of bytes allocated, which bounds runs with a budget (setHeapCap).
namespace {
struct RunBytes {
  size_t used = 0;
  size_t cap = 0; // 0: none (see setHeapCap)
};
RunBytes gRun;
// (index: MType — None, I64, F64, Bool)
// (16-byte aligned as the heap's objects: bits 1–3 of a pointer mark a cell.)
struct alignas(16) ErasedObj {
  Obj o;
};
ErasedObj gErased[4] = {
    {{OTag::Erased, 0}}, {{OTag::Erased, 1}}, {{OTag::Erased, 2}}, {{OTag::Erased, 3}}};

inline void count(size_t bytes) {
  gRun.used += bytes;
  if (gRun.cap && gRun.used > gRun.cap) [[unlikely]]
    throw BudgetExceeded{};
}
} // namespace

V erased() { return ofObj(&gErased[0].o); }
V erasedType(uint32_t kind) { return ofObj(&gErased[kind < 4 ? kind : 0].o); }
void* alloc(size_t bytes) {
  count(bytes);
  return gc::allocWords(bytes);
}
void* allocData(size_t bytes) {
  count(bytes);
  return gc::allocData(bytes);
}
void* alloc16() {
  count(16);
  return gc::allocWords(16);
}
void release16(void* cell) { gc::releaseWords16(cell); }
void resetHeap() { gRun.used = 0; }
size_t heapBytes() { return gRun.used; }

static Box64* box(uint64_t bits) {
  auto* b = static_cast<Box64*>(allocData(sizeof(Box64)));
  b->tag = OTag::Box64;
  b->n = 0;
  b->bits = bits;
  return b;
}

V ofI64(int64_t x) { return fitsImm(x) ? imm(x) : ofObj(box(uint64_t(x))); }
int64_t toI64(V v) { return isImm(v) ? immVal(v) : int64_t(static_cast<Box64*>(obj(v))->bits); }
V ofF64(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return ofObj(box(b));
}
double toF64(V v) {
  double d;
  std::memcpy(&d, &static_cast<Box64*>(obj(v))->bits, sizeof d);
  return d;
}

V ofNat(uint64_t x) {
  if (x < (uint64_t(1) << 62)) return imm(int64_t(x));
  mpz_t z;
  mpz_init(z);
  mpz_import(z, 1, -1, sizeof x, 0, 0, &x);
  V r = ofNatMpz(z);
  mpz_clear(z);
  return r;
}

V ofNatMpz(const mpz_t z) {
  if (mpz_sizeinbase(z, 2) <= 62) return imm(int64_t(mpz_get_ui(z)));
  size_t n = mpz_size(z);
  auto* b = static_cast<BigNatObj*>(allocData(sizeof(Obj) + sizeof(mp_limb_t) * n));
  b->tag = OTag::BigNat;
  b->n = uint32_t(n);
  std::memcpy(b->limbs, mpz_limbs_read(z), sizeof(mp_limb_t) * n);
  return ofObj(b);
}

// A read-only GMP view of a big Nat's limbs (no copy).
static mpz_srcptr bigView(V v, mpz_t view) {
  auto* b = static_cast<const BigNatObj*>(obj(v));
  return mpz_roinit_n(view, b->limbs, mp_size_t(b->n));
}

void toNatMpz(V v, mpz_t out) {
  if (isImm(v)) {
    mpz_set_ui(out, uint64_t(immVal(v)));
  } else {
    mpz_t view;
    mpz_set(out, bigView(v, view));
  }
}

bool natIsSmall(V v) { return isImm(v); }

StrObj* mkStr(size_t n, size_t capacity) {
  if (capacity > UINT32_MAX) fail("a string of 4 GiB or more (the limit of a String's length)", 0);
  // [flags][capacity][header][bytes]: the value is 16 bytes in, as an array's.
  char* start = static_cast<char*>(allocData(16 + sizeof(Obj) + capacity));
  auto* o = reinterpret_cast<StrObj*>(start + 16);
  strFlags(o) = 0;
  strCapacity(o) = capacity;
  o->tag = OTag::Str;
  o->n = uint32_t(n);
  return o;
}

V ofStr(std::string_view s) {
  StrObj* o = mkStr(s.size(), s.size());
  std::memcpy(o->data, s.data(), s.size());
  return ofObj(o);
}

std::string_view toStr(V v) {
  auto* o = static_cast<StrObj*>(obj(v));
  return {o->data, o->n};
}

V mkClosure(Code code, uint32_t arity, uint32_t nfree) {
  auto* c = static_cast<Closure*>(alloc(sizeof(Closure) + sizeof(V) * nfree));
  c->tag = OTag::Closure;
  c->n = nfree;
  c->code = code;
  c->arity = arity;
  return ofObj(c);
}

V mkPair(V a, V b) {
  auto* p = static_cast<PairObj*>(alloc(sizeof(PairObj)));
  p->tag = OTag::Pair;
  p->n = 0;
  p->a = a; // (moved in: a read that leaves another reference marks it)
  p->b = b;
  return ofObj(p);
}

V mkCon(uint32_t index, uint32_t n) {
  if (n == 0) return imm(index);
  auto* c = static_cast<ConObj*>(alloc(sizeof(Obj) + sizeof(V) * n));
  c->tag = OTag::Con;
  c->n = index | n << kConFieldsShift;
  return ofObj(c);
}

V mkCon2(uint32_t index, V a, V b) {
  V c = mkCon(index, 2);
  auto* o = static_cast<ConObj*>(obj(c));
  o->fields[0] = a;
  o->fields[1] = b;
  return c;
}

V mkCell(uint32_t index, uint32_t n) { return ofObj(alloc(sizeof(V) * n)) | cellTag(index); }

static V mkNeu(NeuKind k, V a, V b) {
  auto* o = static_cast<NeuObj*>(alloc(sizeof(NeuObj)));
  o->tag = OTag::Neutral;
  o->n = uint32_t(k);
  o->a = a;
  o->b = b;
  return ofObj(o);
}

V mkNeuVar(uint32_t lvl) { return mkNeu(NeuKind::Var, lvl, 0); }

// f a, for a neutral f.
static V mkNeuApp(V f, V a) {
  auto* o = static_cast<NeuObj*>(obj(f));
  if (neuKind(o) == NeuKind::Var && o->a < (uint64_t(1) << 29)) {
    auto* r = static_cast<NeuObj*>(alloc(sizeof(Obj) + sizeof(V)));
    r->tag = OTag::Neutral;
    r->n = uint32_t(NeuKind::VarApp) | uint32_t(o->a) << 3;
    r->a = share(a);
    return ofObj(r);
  }
  return mkNeu(NeuKind::App, f, share(a));
}

V proj(V p, uint32_t which) {
  if (!isImm(p) && obj(p)->tag == OTag::Neutral)
    return mkNeu(which == 1 ? NeuKind::Proj1 : NeuKind::Proj2, p, 0);
  if (isImm(p) || obj(p)->tag != OTag::Pair) fail("internal error: projecting a non-pair", 0);
  return pairComponent(static_cast<PairObj*>(obj(p)), which);
}

// An array: its flags word, its shape memo, its header, its elements.
V mkArrRep(OTag tag, uint32_t n) {
  size_t bytes = 2 * sizeof(uint64_t) + sizeof(Obj) + sizeof(V) * size_t(n);
  auto* words = static_cast<uint64_t*>(tag == OTag::Arr ? alloc(bytes) : allocData(bytes));
  words[0] = 0;
  words[1] = 0;
  auto* a = reinterpret_cast<ArrObj*>(words + 2);
  a->tag = tag;
  a->n = n;
  return ofObj(a);
}

V mkArr(uint32_t n) { return mkArrRep(OTag::Arr, n); }

bool arrElemsShaped(V arr, OTag rep, uint32_t len) {
  auto* a = static_cast<ArrObj*>(obj(arr));
  uint64_t code = arrShapeCode(rep, len);
  if (arrShapeMemo(a) == code) return true;
  if (a->tag != OTag::Arr) return false;
  for (uint32_t i = 0; i < a->n; ++i) {
    V e = a->elems[i];
    if (isImm(e) || obj(e)->tag != rep || obj(e)->n != len) return false;
  }
  arrShapeMemo(a) = code;
  return true;
}

V mkArrOf(V ty, uint32_t n) {
  OTag tag = OTag::Arr;
  if (!isImm(ty) && obj(ty)->tag == OTag::Erased) {
    if (obj(ty)->n == 1) tag = OTag::ArrI64;
    if (obj(ty)->n == 2) tag = OTag::ArrF64;
  }
  return mkArrRep(tag, n);
}

V arrElem(const ArrObj* a, uint32_t i) {
  switch (a->tag) {
  case OTag::ArrI64: return ofI64(int64_t(a->elems[i]));
  case OTag::ArrF64: return ofObj(box(a->elems[i]));
  default: return a->elems[i];
  }
}

void arrStore(ArrObj* a, uint32_t i, V v) {
  switch (a->tag) {
  case OTag::ArrI64: a->elems[i] = uint64_t(toI64(v)); break;
  case OTag::ArrF64: a->elems[i] = static_cast<Box64*>(obj(v))->bits; break;
  default: a->elems[i] = share(v);
  }
}

void fail(const char* msg, uint32_t span) { throw Error{msg, span}; }

const char* deoptReasonText(DeoptReason r) {
  switch (r) {
  case DeoptReason::BigNat: return "a Nat of 2^62 or more";
  case DeoptReason::ArrayRep: return "an array in another representation";
  case DeoptReason::BigNatParam: return "a Nat parameter of 2^61 or more";
  case DeoptReason::NotAPair: return "a value of a Σ-type that is not a pair";
  }
  return "an unexpected value";
}

std::atomic<bool> gBudgetTripped{false};

void throwDeopt(uint32_t owner, DeoptReason reason) { throw Deopt{owner, reason}; }

void setHeapCap(size_t bytes) { gRun.cap = bytes; }

namespace {
std::atomic<bool> gSafepoint{false};
}
void (*gSafepointHook)() = nullptr;

void requestSafepoint() {
  gSafepoint.store(true, std::memory_order_release);
  gPollLimit = reinterpret_cast<char*>(~uintptr_t(0));
}

void requestSafepointAfter(std::chrono::microseconds delay) {
  struct sigaction sa {};
  sa.sa_handler = [](int) { requestSafepoint(); }; // (two atomic stores: signal-safe)
  sa.sa_flags = SA_RESTART;                        // (reads at the prompt go on)
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, nullptr);
  itimerval t{};
  auto us = std::max<int64_t>(delay.count(), 1);
  t.it_value.tv_sec = us / 1000000;
  t.it_value.tv_usec = us % 1000000;
  setitimer(ITIMER_REAL, &t, nullptr);
}

void poll() {
  if (gBudgetTripped.load(std::memory_order_relaxed)) [[unlikely]]
    throw BudgetExceeded{};
  if (gSafepoint.load(std::memory_order_relaxed)) [[unlikely]] {
    gSafepoint.store(false, std::memory_order_relaxed);
    if (gSafepointHook) gSafepointHook();
  }
  guard();
}

[[gnu::noinline, gnu::optimize("no-tree-loop-distribute-patterns")]] static V
applySlow(V f, uint32_t n, const V* args);

// The common cases first, in a function small enough to need few saved
// registers (compiled code calls it for every call of an unknown function).
// (Its copies of a few words stay loops, not calls of memcpy.)
[[gnu::optimize("no-tree-loop-distribute-patterns")]] V apply(V f, uint32_t n, const V* args) {
  if (!isImm(f)) {
    Obj* o = obj(f);
    if (o->tag == OTag::Closure) {
      auto* c = static_cast<Closure*>(o);
      if (n == c->arity) return c->code(c, args);
    } else if (o->tag == OTag::Neutral && n == 1) {
      return mkNeuApp(f, args[0]);
    } else if (o->tag == OTag::Pap) {
      // A partial application given its missing arguments (`(n5 N s) x`).
      auto* p = static_cast<Pap*>(o);
      Obj* fo = obj(p->fn);
      constexpr uint32_t kMax = 8;
      if (fo->tag == OTag::Closure && p->n + n == static_cast<Closure*>(fo)->arity &&
          p->n + n <= kMax) {
        V all[kMax];
        for (uint32_t i = 0; i < p->n; ++i)
          all[i] = p->args[i];
        for (uint32_t i = 0; i < n; ++i)
          all[p->n + i] = args[i];
        auto* c = static_cast<Closure*>(fo);
        return c->code(c, all);
      }
    }
  }
  return applySlow(f, n, args);
}

static V applySlow(V f, uint32_t n, const V* args) {
  while (true) {
    if (isImm(f)) fail("internal error: applying a number", 0);
    Obj* o = obj(f);
    switch (o->tag) {
    case OTag::Closure: {
      auto* c = static_cast<Closure*>(o);
      if (n == c->arity) return c->code(c, args);
      if (n < c->arity) {
        auto* p = static_cast<Pap*>(alloc(sizeof(Pap) + sizeof(V) * n));
        p->tag = OTag::Pap;
        p->n = n;
        p->fn = f;
        for (uint32_t i = 0; i < n; ++i)
          p->args[i] = share(args[i]);
        return ofObj(p);
      }
      f = c->code(c, args);
      args += c->arity;
      n -= c->arity;
      break;
    }
    case OTag::Pap: {
      auto* p = static_cast<Pap*>(o);
      V* all = static_cast<V*>(alloca(sizeof(V) * (p->n + n)));
      // (Loops, not memcpy: a handful of words, on the hot path of
      // normal forms by running code.)
      for (uint32_t i = 0; i < p->n; ++i)
        all[i] = p->args[i];
      for (uint32_t i = 0; i < n; ++i)
        all[p->n + i] = args[i];
      return applySlow(p->fn, p->n + n, all);
    }
    case OTag::Erased: return f; // a type family applied at run time
    case OTag::Neutral:
      for (uint32_t i = 0; i < n; ++i)
        f = mkNeuApp(f, args[i]);
      return f;
    default: fail("internal error: applying a non-function", 0);
    }
  }
}

V apply1(V f, V a) { return apply(f, 1, &a); }

std::string showNat(V v) {
  if (isImm(v)) return std::to_string(immVal(v));
  mpz_t view;
  char* p = mpz_get_str(nullptr, 10, bigView(v, view));
  std::string s(p);
  void (*freefn)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &freefn);
  freefn(p, s.size() + 1);
  return s;
}

} // namespace thorin::rt
