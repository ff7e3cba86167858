// Common subterms computed once (cse.hpp).
#include "cse.hpp"

namespace thorin::rt {

namespace {

bool atom(const ETm* t) {
  return t->tag == ETag::Var || t->tag == ETag::Lit || t->tag == ETag::Erased ||
         t->tag == ETag::Global;
}

// A small primitive expression on atoms (at most `room` primitives), and
// at least two of them: what may be shared. (A `let` costs the interpreter
// about what one primitive on atoms does — `fuel / 2` is left to be
// computed twice — and LLVM merges such repeats itself.)
bool candidate(const ETm* t, int& room) {
  if (t->tag != ETag::Prim || --room < 0) return false;
  for (uint32_t i = 0; i < t->n; ++i)
    if (!atom(t->args[i]) && !candidate(t->args[i], room)) return false;
  return true;
}
bool candidate(const ETm* t) {
  constexpr int kMaxPrims = 8;
  int room = kMaxPrims;
  return candidate(t, room) && kMaxPrims - room >= 2;
}

bool same(const ETm* x, const ETm* y) {
  if (x == y) return true;
  if (x->tag != y->tag || x->n != y->n) return false;
  switch (x->tag) {
  case ETag::Var:
  case ETag::Erased:
  case ETag::Global: return true;
  case ETag::Lit: return x->bits == y->bits;
  case ETag::Prim:
    if (x->prim != y->prim) return false;
    for (uint32_t i = 0; i < x->n; ++i)
      if (!same(x->args[i], y->args[i])) return false;
    return true;
  default: return false;
  }
}

// Evaluating it cannot fail: a variable, a literal, an erased type. (A
// global is computed the first time it is read, and that may fail.)
bool total(const ETm* t) {
  return t->tag == ETag::Var || t->tag == ETag::Lit || t->tag == ETag::Erased;
}

// The nodes t evaluates first, outermost first: its first child that is not
// total (everything before it is), then that child's, and so on. A
// conditional and a let stop the chain (their conditions and definitions
// keep their own shape: the tiers read loop tests from them), and so does
// a call of a computed function (the interpreter evaluates its arguments
// first, LLVM's code the function).
std::vector<ETm*> firstEvaluated(ETm* t) {
  constexpr size_t kMaxChain = 16;
  std::vector<ETm*> chain;
  for (ETm* x = t; chain.size() < kMaxChain;) {
    ETm* next = nullptr;
    auto visit = [&](ETm* c) {
      if (!next && !total(c)) next = c;
    };
    switch (x->tag) {
    case ETag::App:
      if (x->a->tag != ETag::Global) return chain;
      [[fallthrough]];
    case ETag::Prim:
    case ETag::Arr:
    case ETag::Con:
      for (uint32_t i = 0; i < x->n; ++i)
        visit(x->args[i]);
      break;
    case ETag::Pair:
      visit(x->a);
      visit(x->b);
      break;
    case ETag::Proj1:
    case ETag::Proj2:
    case ETag::Field: visit(x->a); break;
    default: break;
    }
    if (!next) break;
    chain.push_back(next);
    x = next;
  }
  return chain;
}

// Finds what to share, within a budget of visited nodes (a pathological
// body — thousands of nested primitives — is left as it is).
struct Finder {
  static constexpr size_t kBudget = 200000;
  size_t steps = 0;
  bool over() const { return steps > kBudget; }

  // Occurrences of c in t under no binder, other than `except`.
  uint32_t occurrences(ETm* t, const ETm* c, const ETm* except) {
    if (++steps > kBudget) return 0;
    if (t != except && same(t, c)) return 1;
    uint32_t n = 0;
    forEachChild(t, 0, [&](ETm*& ch, uint32_t d) {
      if (d == 0) n += occurrences(ch, c, except);
    });
    return n;
  }

  // What to share at t: the outermost first-evaluated candidate that occurs
  // again in t, or null. Only where t's own children are evaluated in
  // order (a call, a primitive, a pair, an array).
  ETm* sharedAt(ETm* t) {
    if (t->tag != ETag::App && t->tag != ETag::Prim && t->tag != ETag::Pair && t->tag != ETag::Arr)
      return nullptr;
    for (ETm* c : firstEvaluated(t))
      if (candidate(c) && occurrences(t, c, c) > 0) return over() ? nullptr : c;
    return nullptr;
  }

  bool anyShared(ETm* t) {
    if (sharedAt(t)) return true;
    bool found = false;
    forEachChild(t, 0, [&](ETm*& ch, uint32_t) { found = found || anyShared(ch); });
    return found && !over();
  }
};

class Sharer {
public:
  explicit Sharer(Arena& a) : a_(a) {}

  // Children first: a subterm shared inside a child is bound there. Each
  // binding copies the term it wraps: after kMaxCopied nodes copied so
  // (thousands of nested repeats), no more are made.
  ETm* run(ETm* t) {
    ETm* x = copy(t);
    forEachChild(x, 0, [&](ETm*& ch, uint32_t) { ch = run(ch); });
    if (copied_ > kMaxCopied) return x;
    ETm* c = find_.sharedAt(x);
    if (!c) return x;
    ETm* let = a_.make<ETm>();
    let->tag = ETag::Let;
    let->a = c;
    let->b = replace(x, 0, c);
    return let;
  }

private:
  ETm* copy(ETm* t) {
    ETm* x = a_.make<ETm>(*t);
    if (t->args) {
      x->args = a_.array<ETm*>(t->n);
      std::copy(t->args, t->args + t->n, x->args);
    }
    return x;
  }
  // t under the new let: c (under no binder) becomes its variable, the
  // other free variables move one up.
  ETm* replace(ETm* t, uint32_t depth, const ETm* c) {
    ++copied_;
    ETm* x = copy(t);
    if (depth == 0 && same(t, c)) {
      x->tag = ETag::Var;
      x->n = 0;
      x->args = nullptr;
      return x;
    }
    if (t->tag == ETag::Var) {
      if (t->n >= depth) x->n = t->n + 1;
      return x;
    }
    forEachChild(x, depth, [&](ETm*& ch, uint32_t d) { ch = replace(ch, d, c); });
    return x;
  }

  static constexpr size_t kMaxCopied = 100000;
  Arena& a_;
  Finder find_;
  size_t copied_ = 0;
};

} // namespace

ETm* shareCommonSubterms(Arena& arena, ETm* t) {
  Finder f;
  if (!f.anyShared(t) || f.over()) return t;
  return Sharer(arena).run(t);
}

} // namespace thorin::rt
