// Erasure: core terms → run-time terms. Types, universes and type formers
// become `Erased` (one shared word at run time); solved metas are inlined;
// saturated applications of axioms become primitive calls; curried λs and
// applications are grouped so that `f a b` is one call of a binary function.
#pragma once
#include <functional>
#include <vector>

#include "core/arena.hpp"
#include "core/literal.hpp"
#include "core/world.hpp"
#include "flat_types.hpp"
#include "primitive.hpp"

namespace thorin::rt {

enum class ETag : uint8_t {
  Var,
  Global,
  Lit,
  Lam,
  App,
  Let,
  If,
  Pair,
  Proj1,
  Proj2,
  Arr,
  Prim,
  PrimPap,
  Erased,
  Known, // ?x in a filter: n = index of x
  Con,   // a data value: prim = constructor index, n fields in args
  Field, // field n of the data value a
  Case,  // a switch on the constructor of a: n alternatives in args, by index
};

struct Lifted;

/// What the runtime learns about an interpreted λ: how often closures of it
/// were called, and its compiled lifted copy once it is hot (runtime/lift.cpp).
/// Not copied with the term: a copy may sit in another context, whose
/// environment has another shape.
struct LamState {
  uint32_t calls = 0;
  const Lifted* lifted = nullptr;
  LamState() = default;
  LamState(const LamState&) {}
  LamState& operator=(const LamState&) {
    calls = 0;
    lifted = nullptr;
    return *this;
  }
};

struct ETm {
  ETag tag;
  uint8_t flags = 0; // Var: kNoShare; Lam: kCapturesKnown (runtime/share.hpp); Con: kConCell
  uint32_t n = 0;    // Var: index; Global: top id; Lam: arity; App, Prim, Arr, Con, Case: number
                     // of args; Field: its index; Lit: LitKind; Erased: the MType of an erased
                     // machine type (else 0)
  uint32_t span = 0; // Prim: World::spans index + 1 (0: unknown); Case: kCase* below
  uint32_t prim = 0; // Prim, PrimPap: primitive id; Con: constructor index
  union {
    uint64_t bits = 0; // Lit; Con: the constructor's TopId; Case: the data type's (printing)
    const void* big;
  };
  ETm* a = nullptr; // Lam: body; App: function; Let: definition; If: condition; Proj: pair;
                    // Field, Case: the data value
  ETm* b = nullptr; // Let: body; If: then; Pair: second; Lam: filter (null: none)
  ETm* c = nullptr; // If: else
  ETm** args = nullptr;
  const Name* names = nullptr;        // Lam: the parameters' names (for printing residual code)
  const uint32_t* captures = nullptr; // Lam: its free variables' indices (runtime/share.hpp)
  uint32_t ncaptures = 0;
  LamState lam; // Lam: run-time state (interpreted closures of it)
};

/// ETm::flags on a Con: its value is a compact cell (rt::mkCell; its fields'
/// types can hold nothing updated in place: runtime/flat_types.hpp).
constexpr uint8_t kConCell = 4;

/// ETm::span of a Case: what the constructors' values are — immediates
/// (constructors without fields), objects, or both (0).
constexpr uint32_t kCaseImmediates = 1;
constexpr uint32_t kCaseObjects = 2;

/// Calls f(slot, depth) for each direct subterm's slot; `depth` counts the
/// binders the subterm is under (λ parameters, let).
template <class F> void forEachChild(ETm* t, uint32_t depth, F&& f) {
  switch (t->tag) {
  case ETag::Lam: f(t->a, depth + t->n); break;
  case ETag::Let:
    f(t->a, depth);
    f(t->b, depth + 1);
    break;
  case ETag::App:
  case ETag::Case: f(t->a, depth); [[fallthrough]];
  case ETag::Con:
  case ETag::Prim:
  case ETag::PrimPap:
  case ETag::Arr:
    for (uint32_t i = 0; i < t->n; ++i)
      f(t->args[i], depth);
    break;
  case ETag::If: f(t->c, depth); [[fallthrough]];
  case ETag::Pair: f(t->b, depth); [[fallthrough]];
  case ETag::Proj1:
  case ETag::Proj2:
  case ETag::Field: f(t->a, depth); break;
  default: break;
  }
}

/// The nodes of `t`, counted up to `limit + 1` (a size check stops early).
size_t countNodes(ETm* t, size_t limit = SIZE_MAX - 1);
/// The variables free in `t` (below `depth` binders), as indices outside them.
void freeVars(ETm* t, uint32_t depth, std::vector<bool>& out);
/// A copy of `t` whose free variable i (below `depth` binders) becomes f(i).
ETm* mapVars(Arena& a, ETm* t, uint32_t depth, const std::function<uint32_t(uint32_t)>& f);

/// The fields of constructor `con` (after its data type's parameters): which
/// of them a data value stores (a field that is a type is erased).
std::vector<bool> storedFields(World& w, TopId con);

/// How the LLVM tier's worker passes a value: a machine type (None: a word)
/// or, for a Σ-type, its two components, each with its own shape — flattened
/// into parameters and returned as a struct, so that no pair is allocated.
struct Shape {
  MType leaf = MType::None;
  std::vector<Shape> parts; // a Σ-type: its two components; empty: a leaf
  bool isPair() const { return !parts.empty(); }
};
/// The leaves of `s`, left to right.
void shapeLeaves(const Shape& s, std::vector<MType>& out);

/// The machine types of a function's parameters and result (None: a word).
struct MachineSig {
  std::vector<MType> params;
  MType result = MType::None;
  bool known = false;
  std::vector<Shape> shapes; // per parameter; a leaf's is params[i]
  Shape resultShape;
};

class Eraser {
public:
  explicit Eraser(World& w, Arena& out) : w_(w), out_(out), flat_(w) {}
  ETm* erase(Tm* t);
  /// The machine types along the type of the top-level entry `id`.
  MachineSig signature(TopId id);
  /// Is this top-level entry a type former (its type ends in U)? Cached.
  bool isTypeFormer(TopId id);
  /// The axiom a top-level entry stands for (itself, or `Nat = %core.Nat`), or null.
  const Axiom* axiomOf(TopId id);

private:
  void unfilledGoal(MetaId m);
  ETm* mk(ETag t);
  ETm* constructor(TopId con, bool cell);
  bool cellable(TopId con, const std::vector<Tm*>& apps);
  ETm* bindFields(const CaseAlt& alt, uint32_t scrut, bool shift);
  ETm* eraseCase(Tm* t);
  ETm* eraseApp(Tm* t);
  ETm* head(Tm* h, uint32_t span, std::vector<ETm*>& args);
  ETm* beta(ETm* f, std::vector<ETm*>& args);
  ETm* apply(ETm* f, std::vector<ETm*>& args);
  World& w_;
  Arena& out_;
  FlatTypes flat_;
};

} // namespace thorin::rt
