// The run-time value representation shared by the interpreter of erased terms
// and by JIT-compiled code, and the support functions compiled code calls.
//
// A value is one 64-bit word. Odd words are immediates (63-bit signed
// integers: I64 that fit, Nat below 2^62, Bool, Unit, Idx); even words point
// to heap objects with a header. Types are known statically, so a primitive
// knows whether a word holds an I64, a Nat or an F64 (always boxed here;
// unboxed inside compiled workers). Objects live in the collector's heap
// (runtime/gc.hpp).
//
// Arrays whose element type is I64 or F64 store the raw machine words
// (`ArrI64`, `ArrF64`), so compiled code reads an element with one load and
// no unboxing; other arrays store words (`Arr`). The element type reaches
// `build` as its erased type argument, a word that remembers which machine
// type it was (`erasedType`). Every reader accepts every representation.
#pragma once
#include <gmp.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace thorin::rt {

using V = uint64_t;

enum class OTag : uint32_t {
  Box64,
  BigNat,
  Str,
  Closure,
  Pap,
  Pair,
  Arr,
  Erased,
  ArrI64,
  ArrF64,
  Neutral,
  Con
};

struct Obj {
  OTag tag;
  uint32_t n; // Str: length; Closure: number of free variables; Pap: args; Arr: length
};
struct Box64 : Obj {
  uint64_t bits;
};
struct BigNatObj : Obj { // n: limbs (at least one: smaller numbers are immediates)
  mp_limb_t limbs[1];
};
struct StrObj : Obj {
  char data[1];
};
struct Closure;
/// Entry of every function value: `args` holds exactly `arity` arguments.
using Code = V (*)(Closure* self, const V* args);
struct Closure : Obj {
  Code code;
  uint32_t arity;
  uint32_t pad;
  V free[1]; // n free variables (interpreted closures: their code and environment)
};
struct Pap : Obj { // a function applied to fewer arguments than its arity
  V fn;
  V args[1];
};
struct PairObj : Obj {
  V a, b;
};
struct ArrObj : Obj { // tag Arr: words; ArrI64: int64_t bits; ArrF64: double bits
  V elems[1];
};
/// A value of a data type built by a constructor with fields: its header's n
/// holds the constructor's index (kConIndex bits), the number of fields
/// (from bit kConFieldsShift) and the shared bit (kConShared). A constructor
/// without fields is the immediate imm(index): no allocation.
struct ConObj : Obj {
  V fields[1];
};
constexpr uint32_t kConIndex = 0xffff;
constexpr uint32_t kConFieldsShift = 16;
constexpr uint32_t kConShared = 1u << 31;
inline uint32_t conFieldCount(const Obj* o) { return (o->n >> kConFieldsShift) & 0x7fff; }
/// A compact cell: a data value of constructor index i < kCellIndices made
/// where its fields' types can hold nothing updated in place (no array, no
/// string: runtime/flat_types.hpp) is its fields alone, no header, and the
/// word pointing to it carries i + 1 in bits 1–3 (objects are 16-byte
/// aligned): a list's cell or a tree's node is 16 bytes instead of 32.
/// Reading a field never marks anything (what it holds is never updated in
/// place), so it needs no shared bit.
constexpr uint32_t kCellIndices = 7;
constexpr V kCellTagBits = 14;
inline bool isCell(V v) { return !(v & 1) && (v & kCellTagBits); }
/// Does v point to an object with a header (not an immediate, not a cell)?
inline bool hasHeader(V v) { return !(v & 15); }
inline V cellTag(uint32_t index) { return V(index + 1) << 1; }
inline V* cellFields(V v) { return reinterpret_cast<V*>(v & ~V(15)); }

/// A stuck value (an accumulator, as in Coq's VM): made only when a normal
/// form is computed by running code (Runtime::normalize). Applying or
/// projecting a neutral value makes a bigger one; nothing else meets one.
/// VarApp is an application of a variable to one argument in 16 bytes
/// instead of 24: the commonest neutral value (`s (s (s …))` of a Church
/// numeral, ten million deep in NatConv10M, is made of nothing else).
enum class NeuKind : uint32_t { Var, App, Proj1, Proj2, VarApp };
struct NeuObj : Obj { // n: NeuKind, and for VarApp the variable's level above it
  V a;                // Var: the de Bruijn level; App, Proj: the neutral value it extends;
                      // VarApp: the argument (there is no b)
  V b;                // App: the argument
};
inline NeuKind neuKind(const Obj* o) { return NeuKind(o->n & 7); }
/// VarApp: the level of the variable applied.
inline uint32_t neuVarAppLevel(const Obj* o) { return o->n >> 3; }
/// App or VarApp: the argument. (Through words, not fields: a VarApp is 16
/// bytes, and reading `b` of a NeuObj* lets the compiler load it before it
/// knows the kind — past the end of a VarApp, which may be the heap's last
/// word before an unmapped page.)
inline V neuArg(const NeuObj* o) {
  const V* words = reinterpret_cast<const V*>(o) + 1;
  return neuKind(o) == NeuKind::VarApp ? words[0] : words[1];
}

inline bool isImm(V v) { return v & 1; }
inline V imm(int64_t x) { return (uint64_t(x) << 1) | 1; }
inline int64_t immVal(V v) { return int64_t(v) >> 1; }
inline Obj* obj(V v) { return reinterpret_cast<Obj*>(v); }
inline V ofObj(const void* o) { return reinterpret_cast<V>(o); }
inline bool fitsImm(int64_t x) { return x >= -(int64_t(1) << 62) && x < (int64_t(1) << 62); }

/// The value of every erased term (types, proofs of nothing at run time).
V erased();
/// An erased type that is a machine type (`kind`: 1 = I64, 2 = F64, as
/// MType), for primitives that pick a representation by it (`build`).
V erasedType(uint32_t kind);

// The heap ----------------------------------------------------------------
/// An object that holds values (words the collector reads).
void* alloc(size_t bytes);
/// An object that holds none (numbers, bytes).
void* allocData(size_t bytes);
/// A 16-byte cell, reusing one given back by release16 when there is one.
void* alloc16();
/// Gives back a dead 16-byte cell (from alloc16) for reuse in this run.
void release16(void* cell);
/// A run ends: the count of its bytes starts again.
void resetHeap();
/// Bytes allocated since the run started.
size_t heapBytes();

// Conversions between words and machine data -------------------------------
V ofI64(int64_t x);
int64_t toI64(V v);
V ofF64(double d);
double toF64(V v);
V ofNat(uint64_t x);
V ofNatMpz(const mpz_t z);
/// Nat as GMP (callers own `out`, initialised).
void toNatMpz(V v, mpz_t out);
bool natIsSmall(V v);
V ofStr(std::string_view s);
std::string_view toStr(V v);
inline V ofBool(bool b) { return imm(b); }

V mkClosure(Code code, uint32_t arity, uint32_t nfree);
V mkPair(V a, V b);
/// The bound variable of level `lvl`, as a neutral value.
V mkNeuVar(uint32_t lvl);
/// Projection 1 or 2 of a pair or of a neutral value (not inlined: the cold
/// path of compiled projections).
V proj(V p, uint32_t which);
/// An array of n words. The two words before its header (arrFlags,
/// arrShapeMemo) start 0.
V mkArr(uint32_t n);
/// An array of n elements in representation `tag` (Arr, ArrI64, ArrF64).
V mkArrRep(OTag tag, uint32_t n);
/// An array's flags: kArrShared once a second reference to it may exist
/// (see `set`).
inline uint64_t& arrFlags(ArrObj* a) { return reinterpret_cast<uint64_t*>(a)[-2]; }
constexpr uint64_t kArrShared = 1;
inline bool isShared(ArrObj* a) { return arrFlags(a) & kArrShared; }
/// A pair's shared bit (in its header's n): its components may be read
/// through another reference, so each one taken out is shared too.
constexpr uint32_t kPairShared = 1;
/// Marks `v` shared if it is an array or a string (nothing else is ever
/// updated in place: runtime/share.hpp) or a pair (which may hold one);
/// returns v.
/// A string's flags (kArrShared, as an array's) and its capacity: the two
/// words before its header. Its bytes past its length are room to append
/// in place (`strCat` of a string nothing else refers to).
inline uint64_t& strFlags(StrObj* s) { return reinterpret_cast<uint64_t*>(s)[-2]; }
inline uint64_t& strCapacity(StrObj* s) { return reinterpret_cast<uint64_t*>(s)[-1]; }
/// A string of length n with room for `capacity` bytes (unshared).
StrObj* mkStr(size_t n, size_t capacity);
inline V share(V v) {
  if (hasHeader(v)) { // (not an immediate nor a compact cell)
    Obj* o = obj(v);
    if (o->tag == OTag::Arr || o->tag == OTag::ArrI64 || o->tag == OTag::ArrF64 ||
        o->tag == OTag::Str) // (both keep their flags 16 bytes before the header)
      arrFlags(static_cast<ArrObj*>(o)) |= kArrShared;
    else if (o->tag == OTag::Pair)
      o->n |= kPairShared;
    else if (o->tag == OTag::Con)
      o->n |= kConShared;
  }
  return v;
}
/// The index of the constructor that built a data value.
inline uint32_t conIndex(V v) {
  if (isImm(v)) return uint32_t(immVal(v));
  if (v & kCellTagBits) return uint32_t((v & kCellTagBits) >> 1) - 1;
  return obj(v)->n & kConIndex;
}
/// Field i of a data value, shared if the value is.
inline V conField(V v, uint32_t i) {
  if (isCell(v)) return cellFields(v)[i];
  auto* c = static_cast<ConObj*>(obj(v));
  return c->n & kConShared ? share(c->fields[i]) : c->fields[i];
}
/// The fields of a data value with fields (a ConObj's or a cell's).
inline V* conFields(V v) {
  return isCell(v) ? cellFields(v) : static_cast<ConObj*>(obj(v))->fields;
}
/// A data value of constructor `index` with `n` fields (to be filled;
/// stored fields are moved in, as a pair's components).
V mkCon(uint32_t index, uint32_t n);
/// The same as a compact cell (index < kCellIndices, n > 0).
V mkCell(uint32_t index, uint32_t n);
/// A data value of constructor `index` with the two fields a, b (an object
/// with a header: what plugins build, `cons x xs` of the prelude's List).
V mkCon2(uint32_t index, V a, V b);
/// Component `which` (1, 2) of a pair, shared if the pair is.
inline V pairComponent(PairObj* p, uint32_t which) {
  V c = which == 1 ? p->a : p->b;
  return p->n & kPairShared ? share(c) : c;
}
/// Arrays are immutable: once every element of an array of words is found to
/// be an array of one representation and length, it stays so. The word
/// before the header remembers that shape (arrShapeCode; 0: none known), so
/// that compiled loops over the rows of a matrix check each row's header
/// once per matrix instead of once per element read.
inline uint64_t& arrShapeMemo(ArrObj* a) { return reinterpret_cast<uint64_t*>(a)[-1]; }
constexpr uint64_t arrShapeCode(OTag rep, uint32_t len) {
  return (uint64_t(len) << 8) | 0x80 | uint32_t(rep);
}
/// Whether every element of `arr` (an array of words) is an array of
/// representation `rep` and length `len`; remembered when it is.
bool arrElemsShaped(V arr, OTag rep, uint32_t len);
/// An array of n elements in the representation for the erased element type `ty`.
V mkArrOf(V ty, uint32_t n);
/// Element i as a word (boxing raw I64/F64 elements).
V arrElem(const ArrObj* a, uint32_t i);
/// Stores the word v as element i (unboxing it for raw arrays).
void arrStore(ArrObj* a, uint32_t i, V v);

// Errors ------------------------------------------------------------------
/// A run-time error: `span` indexes World::spans (0: unknown position).
struct Error {
  std::string msg;
  uint32_t span;
};
[[noreturn]] void fail(const char* msg, uint32_t span);
/// Compiled code met a case its speculation left out (a `Nat` of 2^62 or
/// more, a `Nat` parameter of a loop of 2^61 or more, an array in another
/// representation than its element type implies, a value of a Σ-type that is
/// not a pair where a worker takes it apart):
/// the run starts again with `owner`'s code compiled without speculation.
/// Programs are pure, so running again gives the same result.
enum class DeoptReason : uint32_t { BigNat, ArrayRep, BigNatParam, NotAPair };
const char* deoptReasonText(DeoptReason r);
struct Deopt {
  uint32_t owner; // the TopId whose code speculated
  DeoptReason reason;
};
/// Throws Deopt from the executable, whose unwinder knows JIT code's frames
/// (the LLVM module's own copy does not: runtime/unwind.hpp).
[[noreturn]] void throwDeopt(uint32_t owner, DeoptReason reason);
/// A run with a budget (a normal form computed by running code) went past
/// its heap cap or its deadline; the caller falls back to the evaluator.
struct BudgetExceeded {};
/// The heap may grow to `bytes` in this run (0: no cap).
void setHeapCap(size_t bytes);
/// Set by the deadline's watchdog (with gPollLimit tripped, so that compiled
/// code calls poll()): the next poll() throws BudgetExceeded.
extern std::atomic<bool> gBudgetTripped;
/// A safepoint: the next poll() (on the thread that runs the program) calls
/// gSafepointHook. Requested from other threads (the JIT's: LLVM is ready,
/// or baseline code has run long enough to be worth optimizing); trips
/// gPollLimit, so that compiled code polls too.
void requestSafepoint();
/// requestSafepoint() once `delay` has passed, from a one-shot SIGALRM timer:
/// a thread would cost its creation and, at exit, its teardown (~0.1 ms of
/// a short run).
void requestSafepointAfter(std::chrono::microseconds delay);
extern void (*gSafepointHook)();
/// Checks for Ctrl-C and deep recursion; called on every interpreted
/// application and at the entry of compiled functions.
void poll();

// Application -------------------------------------------------------------
V apply(V f, uint32_t n, const V* args);
V apply1(V f, V a);
/// out[i] ← f i for i in [from, n) as raw F64 (`f64`) or I64 bits, by calling
/// the worker of f's compiled lifted λ directly: no closure call and no box
/// per element (a build into a raw array). False if f is no such closure
/// (nothing is called then).
bool buildRaw(V f, uint32_t from, uint32_t n, bool f64, uint64_t* out);

// Printing, by type (the type's axiom name, "" for anything else) ----------
std::string showNat(V v);

} // namespace thorin::rt
