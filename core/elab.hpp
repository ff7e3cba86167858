// Bidirectional elaboration of surface syntax into core terms: checking,
// inference, Agda-style implicit argument insertion (also by name), fresh
// contextual metavariables, and located errors with the user's names.
#pragma once
#include <utility>

#include "axiom.hpp"
#include "diagnostic.hpp"
#include "syntax.hpp"
#include "unify.hpp"

namespace thorin {

/// A bound (λ, Π) or defined (let) local variable.
/// Masks and bound names of contexts, shared along a chain of binders:
/// the context ending at a local is a prefix (Elab::mask).
struct MaskBuf {
  uint8_t* mask;
  Name* names;
  uint32_t cap, capNames, used, usedNames;
};

struct Local {
  Local* prev;
  Name name;
  Val* ty;
  Lvl lvl;
  bool defined;
  bool visible; // false for binders the elaborator inserted
  Tm* defTm;
  Tm* tyTm = nullptr;               // quoted lazily, for meta types
  const uint8_t* mask = nullptr;    // bound/defined mask of the context ending here
  const Name* boundNames = nullptr; // names of the bound variables, oldest first
  uint32_t nBound = 0;
  MaskBuf* maskBuf = nullptr; // (mask and boundNames are its prefixes)
  // The nearest older local a name can find (visible, not `_`): looking a
  // name up skips the binders of `A × B × …` and `A → B → …`, which would
  // otherwise make a chain of them quadratic.
  Local* namedPrev = nullptr;
};

struct Cxt {
  Env* env = nullptr;
  Lvl lvl = 0;
  Local* locals = nullptr;
  std::vector<Name> names() const;
};

class Elab {
public:
  explicit Elab(World& w) : w_(w), unifier_(w) { w.closeMetaType = closeMetaType; }
  static Tm* closeMetaType(World& w, MetaId m);

  Tm* check(Cxt& c, Raw* r, Val* a);
  std::pair<Tm*, Val*> infer(Cxt& c, Raw* r);
  /// Infer, then insert metas for leading implicit arguments.
  std::pair<Tm*, Val*> inferInsert(Cxt& c, Raw* r);

  Cxt bind(const Cxt& c, Name x, Val* ty, bool visible = true);
  Tm* embed(Cxt& c, Val* ty, bool dependent);
  Tm* checkPairUnknown(Cxt& c, RPair* p, Val* a);
  Cxt define(const Cxt& c, Name x, Tm* def, Val* vdef, Val* ty);
  Tm* freshMeta(Cxt& c, Val* ty, Span span, MetaOrigin origin);

  /// Decides the numeric literals checked against a type that was not known
  /// yet (see postponeNumber); a type nobody fixed defaults to Nat (F64 for
  /// `2.5`), as when nothing is expected.
  /// (onlyOf ≥ 0: only the literals whose type is that unsolved meta.)
  void finish(int64_t onlyOf = -1);
  /// finish(), then throws an Error listing every unsolved meta created
  /// since `firstMeta`.
  void requireSolved(size_t firstMeta);

  /// `ty` = IO ?A with ?A unknown (`exit 1` run at the prompt): ?A := Unit,
  /// as GHCi defaults it. True if ty is an IO type.
  bool settleAction(Cxt& c, Val* ty);

  std::string showVal(const Cxt& c, Val* v);
  std::string showTm(const Cxt& c, Tm* t);
  /// Warnings found (unreachable clauses), for the caller to print once the
  /// definition is accepted.
  std::vector<Diagnostic> warnings;
  void warn(Diagnostic d);

private:
  /// `term`: the term checked (for a message about it, see cannotHaveType).
  void unifyOrFail(Cxt& c, Span span, Val* expected, Val* actual, Raw* term = nullptr);
  void cannotHaveType(Cxt& c, Raw* term, Val* expected);
  bool unifyMayPostpone(Cxt& c, Val* expected, Val* actual, bool& postponed);
  [[noreturn]] void mismatch(Cxt& c, Span span, Val* expected, Val* actual);
  /// Type checks the unifier postponed (`?P y y ≟ Eq x y` waits for ?P to be
  /// solved elsewhere), retried after each later one; finish() reports those
  /// left.
  struct Delayed {
    Cxt c;
    Span span;
    Tm *expected, *actual;
  };
  std::vector<Delayed> delayed_;
  void retryDelayed(bool final);
  std::pair<Tm*, Val*> insert(Cxt& c, Span span, Tm* t, Val* ty);
  std::pair<Tm*, Val*> insertUntil(Cxt& c, Span span, Name x, Tm* t, Val* ty);
  std::pair<Tm*, Val*> inferApp(Cxt& c, RApp* r);
  std::pair<Tm*, Val*> inferAppExpecting(Cxt& c, RApp* r, Val* expected);
  std::pair<Tm*, Val*> applyArg(Cxt& c, RApp* r, Tm* t, Val* ty);
  void checkLiteral(Tm* fn, Raw* lit);
  Tm* appTm(RApp* r, Tm* t, Tm* u);
  std::pair<Tm*, Val*> inferProj(Cxt& c, RProj* r);
  std::pair<Tm*, Val*> inferVar(Cxt& c, RVar* r);
  // Builtin data (literals, operators, conditionals, arrays): elab_builtin.cpp.
  Tm* checkNumber(Raw* r, Builtin type);
  // A literal checked against an unsolved metavariable: a fresh meta for its
  // value, decided by finish() once the type is known (`build 4 (λ i. 10)`
  // checked against `Array 4 I64` learns that A is I64 only from the result).
  Tm* postponeNumber(Cxt& c, Raw* r, Val* ty);
  /// A literal, or an operator on operands of a type not known yet (a fresh
  /// meta for the result): decided by finish().
  struct Postponed {
    Cxt c;
    Raw* r;
    Val* ty;                       // the literal's type / the operands' type
    Tm* meta;                      // stands for the literal / the operation
    Tm *x = nullptr, *y = nullptr; // the operands (an operator only)
  };
  std::vector<Postponed> postponed_;
  void decideNumber(Postponed& p);
  void decideOperator(Postponed& p);
  /// `x op y` on operands of type `ty` (known): the term and its type.
  std::pair<Tm*, Val*> operation(Cxt& c, RBinOp* r, Tm* x, Tm* y, Val* ty);
  Tm* checkIndex(Cxt& c, Raw* r, Val* size);
  Tm* filter(Cxt& c, struct RLam* l);
  bool inFilter_ = false;
  std::pair<Tm*, Val*> inferNumber(Raw* r);
  std::pair<Tm*, Val*> inferString(Raw* r);
  Tm* checkIf(Cxt& c, RIf* r, Val* a);
  // Pattern matching: match.cpp.
  friend class Matcher;
  Tm* checkCase(Cxt& c, struct RCase* r, Val* a);
  std::pair<Tm*, Val*> inferCase(Cxt& c, struct RCase* r);
  Tm* checkClauses(Cxt& c, struct RClauses* r, Val* a);
  std::pair<Tm*, Val*> inferIf(Cxt& c, RIf* r);
  // `do` blocks (elab_do.cpp).
  Val* ioOf(Val* x, Span where);
  Val* ioArg(Cxt& c, Val* ty, Span where);
  Tm* checkDo(Cxt& c, struct RDo* r, Val* a);
  std::pair<Tm*, Val*> inferDo(Cxt& c, struct RDo* r);
  Tm* statements(Cxt& c, struct RDo* r, uint32_t i, Val* ty, Val* res);
  std::pair<Tm*, Val*> elabBinOp(Cxt& c, RBinOp* r, Val* expected);
  void noOperatorOn(Cxt& c, RBinOp* r, Val* ty);
  std::pair<Tm*, Val*> elabArray(Cxt& c, RArray* r, Val* expected);
  /// The entry declaring the axiom `id` (an error if its plugin is not loaded).
  TopId axiomTop(AxiomId id, Span where);
  /// The builtin type or constant playing role `b` (an error if no loaded
  /// plugin provides it).
  TopId builtin(Builtin b, Span where);
  Val* builtinType(Builtin b, Span where) { return w_.topHead(builtin(b, where)); }
  /// If `v` (forced) is an axiom applied to nothing but `args`, its name.
  AxiomId axiomHead(Val* v);
  static Tm* tyTm(World& w, Local* l);
  const uint8_t* mask(const Cxt& c);
  void extendMask(Local* l, Local* prev);
  Val* evalIn(Cxt& c, Tm* t);
  Val* instantiate(Cxt& c, Val* closure, Tm* arg);

  World& w_;
  Unifier unifier_;
  Tm* lastApp_ = nullptr; // appTm's last result, and whether its head is a builtin
  bool lastAppBuiltin_ = false;
};

} // namespace thorin
