// Normalization by evaluation: eval (terms → values), application, forcing of
// glued heads, and quote (values → terms).
#pragma once
#include "world.hpp"

namespace thorin {

Val* eval(World& w, Env* env, Tm* t);
Val* apply(World& w, Val* closureOwner, Val* arg); // Lam / Pi / Sigma closures
Val* vApp(World& w, Val* f, Val* a, Icit i);
/// f (a top-level head) applied to a, left as it is: the normal form a
/// normalizer builds is not normalized again (its axiom is not run).
Val* vAppNormal(World& w, Val* f, Val* a, Icit i);
Val* vProj1(World& w, Val* v);
Val* vProj2(World& w, Val* v);
/// `if c …` with the branches in `thunk` (a Thunk of the If term).
Val* vIf(World& w, Val* c, Val* thunk);
/// A case on `s` with the alternatives in `thunk` (a Thunk of the Case term).
Val* vCase(World& w, Val* s, Val* thunk);
/// Applies the eliminations of `sp` that are newer than `stop`.
Val* vAppSpine(World& w, Val* f, Spine* sp, Spine* stop = nullptr);

Val* forceHead(World& w, Val* v);
Val* forceAllHead(World& w, Val* v);
bool recursiveTopEntry(World& w, Val* v);
bool stuckOnIfForced(World& w, Val* v);

// (The fast paths are inline: most values on the hot paths of conversion
// checking are neither metas nor definitions, and a call costs more than
// the test.)

/// `x + k` or `k + x` (Nat addition, k a small literal, both forced): x,
/// with k set; else nullptr.
Val* natOffset(World& w, Val* v, uint64_t& k);
/// Unfolds solved metas at the head.
inline Val* force(World& w, Val* v) { return v->tag == VTag::Flex ? forceHead(w, v) : v; }
/// Unfolds solved metas and top-level definitions at the head.
inline Val* forceAll(World& w, Val* v) {
  if (v->tag != VTag::Flex && v->tag != VTag::Top) return v;
  // (Unfolded before, to a value that is neither: the cached unfolding.)
  if (Val* u = v->a; u && u->tag != VTag::Flex && u->tag != VTag::Top) return u;
  return forceAllHead(w, v);
}
/// Is v a top-level definition (applied) that calls itself, so that
/// unfolding it need not end?
inline bool recursiveTop(World& w, Val* v) {
  if (v->tag != VTag::Top || v->axiom || (v->topFacts & kTopNotRecursive)) return false;
  return recursiveTopEntry(w, v);
}
/// Is the call v stuck in its own body, not one step from another call
/// (`append nil (append ys zs)` is `append ys zs`: not stuck itself)?
bool stuckItself(World& w, Val* v);
/// A recursive definition applied to arguments on which its unfolding is
/// stuck on a conditional (`fib n`, n a variable): normal forms and
/// conversion keep it folded, since unfolding its branches never ends.
inline bool stuckRecursiveCall(World& w, Val* v) {
  return recursiveTop(w, v) && stuckOnIfForced(w, forceAll(w, v)) && stuckItself(w, v);
}
/// One unfolding step of a Top or solved Flex head (nullptr if impossible).
Val* unfold(World& w, Val* v);

struct QuoteOpts {
  bool unfoldTops = false; // normal forms
  bool unfoldMetas = true; // show meta solutions
  /// Terms to be printed with a size limit: at most this many nodes, the
  /// rest cut (a `Irrelevant` node with n = kCutTerm, printed "…"). A
  /// value may be quadratic in its source (n nested λs' inferred type).
  size_t* budget = nullptr;
};
Tm* quote(World& w, Arena& out, Lvl l, Val* v, QuoteOpts o = {});
/// Full normal form of a closed-or-open term at level l.
Tm* normalize(World& w, Arena& out, Lvl l, Env* env, Tm* t);

Val* mkVal(World& w, VTag tag);
/// The shared value of U.
Val* vUniverse();
/// A placeholder for a variable that is never looked at.
Val* vUnused();
inline Env* extend(World& w, Env* e, Val* v) { return w.scratch.make<Env>(e, v); }

} // namespace thorin
