// Which reads of a variable are not its last use (share.hpp).
//
// A read is a variable with a path of projections (`s`, `s.2.2.1`). Two
// passes over an erased body. The first finds, per node, the reads below it
// and those in an owned position — a place that keeps or hands on the
// value: a call's argument, a `let`'s definition, a result, an argument a
// primitive consumes. The second walks down with the reads that come after
// the node (its continuation) and lets an owned read pass unmarked only
// when no read after it, and no owned read by a sibling, overlaps it (one
// path a prefix of the other: `s` and `s.1` overlap, `s.1` and `s.2.1` do
// not — taking a machine state apart field by field moves each field).
// Arguments' order is left open (`f a a`, `g (f a) a`); a borrowed sibling
// read (`set a i (get a j)`) ends before the consumer runs.
#include "share.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace thorin::rt {

namespace {

// A read: the variable's level (high half) and its path of projections,
// as bits after a leading 1 (1: none; 0b10: .1; 0b111: .2.2).
using Read = uint64_t;
using Reads = std::vector<Read>; // sorted, unique
constexpr uint32_t kPlain = 1;
constexpr int kMaxPath = 30;

Read readOf(uint32_t level, uint32_t path) { return Read(level) << 32 | path; }
uint32_t levelOf(Read r) { return uint32_t(r >> 32); }
uint32_t pathOf(Read r) { return uint32_t(r); }
int steps(uint32_t path) { return 31 - __builtin_clz(path); }

bool overlap(uint32_t a, uint32_t b) {
  int la = steps(a), lb = steps(b);
  return la <= lb ? (b >> (lb - la)) == a : (a >> (la - lb)) == b;
}

void unite(Reads& into, const Reads& from) {
  Reads out;
  out.reserve(into.size() + from.size());
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(out));
  into.swap(out);
}
// The reads of variables bound outside `depth` binders.
Reads below(const Reads& s, uint32_t depth) {
  return Reads(s.begin(), std::lower_bound(s.begin(), s.end(), readOf(depth, 0)));
}
// Does a read in `s` overlap r (the same variable, overlapping paths)?
bool overlaps(const Reads& s, Read r) {
  auto it = std::lower_bound(s.begin(), s.end(), readOf(levelOf(r), 0));
  for (; it != s.end() && levelOf(*it) == levelOf(r); ++it)
    if (overlap(pathOf(*it), pathOf(r))) return true;
  return false;
}

struct Summary {
  Reads any;   // read anywhere below (λ bodies included: the closure may run later)
  Reads owned; // read in an owned position, outside λ bodies (captures are marked anyway)
};

// A child slot of a node: the child, the binders it is under, whether a
// read there is owned.
struct Slot {
  ETm* t;
  uint32_t depth;
  bool owned;
};

class Analysis {
public:
  explicit Analysis(Arena& arena) : arena_(arena) {}
  void run(ETm* root) {
    clear(root);
    mark(root, 0, {}, 0);
  }

private:
  Arena& arena_;
  std::unordered_map<const ETm*, Summary> sums_;
  std::unordered_set<const ETm*> decided_;

  void clear(ETm* t) {
    t->flags &= uint8_t(~(kNoShare | kCapturesKnown)); // (a Con's kConCell stays)
    forEachChild(t, 0, [&](ETm* c, uint32_t) { clear(c); });
  }

  // (A node met twice — erased terms may share subterms — shares if either
  // place says so.)
  void decide(ETm* v, bool noShare) {
    if (decided_.insert(v).second) {
      if (noShare) v->flags |= kNoShare;
    } else if (!noShare) {
      v->flags &= uint8_t(~kNoShare);
    }
  }

  // Is t a read — a Var bound within `depth`, under projections? Its inner
  // projections only lead to it: they never share.
  bool chain(ETm* t, uint32_t depth, Read& r) {
    if (t->tag == ETag::Var) {
      if (t->n >= depth) return false;
      r = readOf(depth - 1 - t->n, kPlain);
      return true;
    }
    if (t->tag != ETag::Proj1 && t->tag != ETag::Proj2 && t->tag != ETag::Field) return false;
    if (!chain(t->a, depth, r)) return false;
    decide(t->a, true);
    // (Field i is the path .2 i times then .1: fields are disjoint, as the
    // components of nested pairs are.)
    uint32_t p = pathOf(r);
    uint32_t more = t->tag == ETag::Field ? t->n + 1 : 1;
    if (steps(p) + int(more) <= kMaxPath)
      p = t->tag == ETag::Field ? (p << more | ((1u << more) - 2))
                                : (p << 1 | (t->tag == ETag::Proj2 ? 1 : 0));
    else
      p = kPlain; // (too deep: counted as the whole variable)
    r = readOf(levelOf(r), p);
    return true;
  }

  static bool ownedArg(const ETm* t, uint32_t i) {
    if (t->tag == ETag::App) return true; // (the function itself is only called)
    if (t->tag == ETag::Prim) return primById(t->prim).keeps >> i & 1;
    return false; // array, partial application: their constructors mark
  }

  // The node's children with their positions (not for Lam, Let, If, Case).
  static void slots(ETm* t, uint32_t depth, std::vector<Slot>& out) {
    if (t->tag == ETag::App) out.push_back({t->a, depth, false});
    switch (t->tag) {
    case ETag::App:
    case ETag::Prim:
    case ETag::PrimPap:
    case ETag::Arr:
      for (uint32_t i = 0; i < t->n; ++i)
        out.push_back({t->args[i], depth, ownedArg(t, i)});
      break;
    case ETag::Con: // (a data value owns its fields, as a pair does)
      for (uint32_t i = 0; i < t->n; ++i)
        out.push_back({t->args[i], depth, true});
      break;
    case ETag::Pair:
      out.push_back({t->a, depth, true});
      out.push_back({t->b, depth, true});
      break;
    case ETag::Proj1:
    case ETag::Proj2:
    case ETag::Field: out.push_back({t->a, depth, false}); break;
    default: break;
    }
  }

  // What a child reads, seen from `depth`.
  Summary childReads(ETm* c, uint32_t d, bool owned, uint32_t depth) {
    Summary s;
    if (Read r; chain(c, d, r)) {
      if (levelOf(r) < depth) s.any = {r};
      if (owned) s.owned = s.any;
      return s;
    }
    const Summary& cs = summary(c, d);
    return {below(cs.any, depth), below(cs.owned, depth)};
  }

  const Summary& summary(ETm* t, uint32_t depth) {
    if (auto it = sums_.find(t); it != sums_.end()) return it->second;
    Summary s;
    auto add = [&](ETm* c, uint32_t d, bool owned) {
      Summary cs = childReads(c, d, owned, depth);
      unite(s.any, cs.any);
      unite(s.owned, cs.owned);
    };
    switch (t->tag) {
    case ETag::Lam: s.any = childReads(t->a, depth + t->n, false, depth).any; break;
    case ETag::Let:
      add(t->a, depth, true);
      add(t->b, depth + 1, true);
      break;
    case ETag::If:
      add(t->a, depth, false);
      add(t->b, depth, true);
      add(t->c, depth, true);
      break;
    case ETag::Case:
      add(t->a, depth, false);
      for (uint32_t i = 0; i < t->n; ++i)
        add(t->args[i], depth, true);
      break;
    default: {
      std::vector<Slot> ss;
      slots(t, depth, ss);
      for (const Slot& sl : ss)
        add(sl.t, sl.depth, sl.owned);
    }
    }
    return sums_[t] = std::move(s);
  }

  // A λ at `depth` keeps the variables it reads from outside (their values
  // are marked when a closure of it is made).
  void noteCaptures(ETm* lam, uint32_t depth) {
    Reads outer = childReads(lam->a, depth + lam->n, false, depth).any;
    std::vector<uint32_t> vars;
    for (Read r : outer)
      if (vars.empty() || vars.back() != depth - 1 - levelOf(r))
        vars.push_back(depth - 1 - levelOf(r));
    uint32_t* ix = arena_.array<uint32_t>(vars.size());
    std::copy(vars.begin(), vars.end(), ix);
    lam->captures = ix;
    lam->ncaptures = uint32_t(vars.size());
    lam->flags |= kCapturesKnown;
  }

  // `after`: the reads after t. `base`: the first level of t's activation
  // (variables below it are captured: marked when captured).
  void mark(ETm* t, uint32_t depth, const Reads& after, uint32_t base) {
    if (Read r; chain(t, depth, r)) return decide(t, true); // (the root: nothing after)
    switch (t->tag) {
    case ETag::Lam: noteCaptures(t, depth); return owned(t->a, depth + t->n, {}, {}, depth);
    case ETag::Let: {
      Reads afterDef = after;
      unite(afterDef, childReads(t->b, depth + 1, false, depth).any);
      owned(t->a, depth, afterDef, {}, base);
      return owned(t->b, depth + 1, after, {}, base);
    }
    case ETag::If: {
      Reads afterCond = after;
      for (ETm* br : {t->b, t->c})
        unite(afterCond, childReads(br, depth, false, depth).any);
      borrowed(t->a, depth, afterCond, base);
      owned(t->b, depth, after, {}, base);
      return owned(t->c, depth, after, {}, base);
    }
    case ETag::Case: {
      Reads afterScrutinee = after;
      for (uint32_t i = 0; i < t->n; ++i)
        unite(afterScrutinee, childReads(t->args[i], depth, false, depth).any);
      borrowed(t->a, depth, afterScrutinee, base);
      for (uint32_t i = 0; i < t->n; ++i)
        owned(t->args[i], depth, after, {}, base);
      return;
    }
    default: return children(t, depth, after, base);
    }
  }

  // t in an owned position; `siblings`: the owned reads of the other
  // children of t's parent.
  void owned(ETm* t, uint32_t depth, const Reads& after, const Reads& siblings, uint32_t base) {
    Read r;
    if (!chain(t, depth, r)) return mark(t, depth, after, base);
    if (levelOf(r) < base) return decide(t, true); // (captured: marked when captured)
    decide(t, !overlaps(after, r) && !overlaps(siblings, r));
  }

  void borrowed(ETm* t, uint32_t depth, const Reads& after, uint32_t base) {
    if (Read r; chain(t, depth, r)) return decide(t, true);
    mark(t, depth, after, base);
  }

  void children(ETm* t, uint32_t depth, const Reads& after, uint32_t base) {
    std::vector<Slot> ss;
    slots(t, depth, ss);
    std::vector<Summary> own(ss.size());
    for (size_t k = 0; k < ss.size(); ++k)
      own[k] = childReads(ss[k].t, ss[k].depth, ss[k].owned, depth);
    // (Many children — an array literal — are taken together: a little
    // less precise, never quadratic.)
    bool many = ss.size() > 16;
    Summary all;
    if (many)
      for (const Summary& s : own) {
        unite(all.any, s.any);
        unite(all.owned, s.owned);
      }
    for (size_t k = 0; k < ss.size(); ++k) {
      Summary others = all;
      if (!many)
        for (size_t j = 0; j < ss.size(); ++j)
          if (j != k) {
            unite(others.any, own[j].any);
            unite(others.owned, own[j].owned);
          }
      // A read that is a child itself ends before the parent runs: only the
      // parent's continuation and the siblings' owned reads come after it.
      // Anything deeper may run after a sibling did.
      if (Read r; chain(ss[k].t, depth, r)) {
        if (ss[k].owned)
          owned(ss[k].t, depth, after, others.owned, base);
        else
          decide(ss[k].t, true);
        continue;
      }
      Reads later = after;
      unite(later, others.any);
      mark(ss[k].t, depth, later, base);
    }
  }
};

} // namespace

void markShares(ETm* body, Arena& arena) { Analysis(arena).run(body); }

} // namespace thorin::rt
