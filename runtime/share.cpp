// Which variable reads are not the variable's last use (share.hpp).
//
// Two passes over an erased body. The first finds, per node, the variables
// it reads (by level) and those it reads in an owned position — a place
// that keeps or hands on the value: a call's argument, a `let`'s definition,
// a result, an argument a primitive consumes. The second walks down with
// the variables read after the node (its continuation) and flags a Var in
// an owned position when its variable is read again later, or is also read
// in an owned position by a sibling (arguments' order is left open:
// `f a a`, `g (f a) a`). A borrowed sibling read (`set a i (get a j)`) ends
// before the consumer runs, so it keeps `a`'s read last.
#include "share.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace thorin::rt {

namespace {

using Levels = std::vector<uint32_t>; // sorted, unique

void unite(Levels& into, const Levels& from) {
  Levels out;
  out.reserve(into.size() + from.size());
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(out));
  into.swap(out);
}
bool has(const Levels& s, uint32_t x) { return std::binary_search(s.begin(), s.end(), x); }
// The levels of `s` below `depth` (those of variables bound outside).
Levels below(const Levels& s, uint32_t depth) {
  return Levels(s.begin(), std::lower_bound(s.begin(), s.end(), depth));
}

struct Reads {
  Levels any;   // read anywhere below (λ bodies included: the closure may run later)
  Levels owned; // read in an owned position, outside λ bodies (captures are marked anyway)
};

// A child slot of a node: the child, the binders it is under, whether a Var
// there is an owned read.
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
  std::unordered_map<const ETm*, Reads> reads_;
  std::unordered_set<const ETm*> decided_;

  // (A node met twice — erased terms may share subterms — shares if either
  // place says so.)
  void decide(ETm* v, bool noShare) {
    if (decided_.insert(v).second) {
      if (noShare) v->flags |= kNoShare;
    } else if (!noShare) {
      v->flags &= uint8_t(~kNoShare);
    }
  }

  // A λ at `depth` keeps the variables it reads from outside (their values
  // are marked when a closure of it is made).
  void noteCaptures(ETm* lam, uint32_t depth) {
    Levels outer = childReads(lam->a, depth + lam->n, false, depth).any;
    uint32_t* ix = arena_.array<uint32_t>(outer.size());
    for (size_t i = 0; i < outer.size(); ++i)
      ix[i] = depth - 1 - outer[i];
    lam->captures = ix;
    lam->ncaptures = uint32_t(outer.size());
    lam->flags |= kCapturesKnown;
  }

  void clear(ETm* t) {
    t->flags = 0;
    forEachChild(t, 0, [&](ETm* c, uint32_t) { clear(c); });
  }

  static bool ownedArg(const ETm* t, uint32_t i) {
    if (t->tag == ETag::App) return true; // (the function itself is only called)
    if (t->tag == ETag::Prim) return primById(t->prim).keeps >> i & 1;
    return false; // pair, array, partial application: their constructors mark
  }

  // The node's children with their positions (not for Lam, Let, If).
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
    case ETag::Pair:
      out.push_back({t->a, depth, false});
      out.push_back({t->b, depth, false});
      break;
    case ETag::Proj1:
    case ETag::Proj2: out.push_back({t->a, depth, false}); break;
    default: break;
    }
  }

  static bool isVarBelow(const ETm* t, uint32_t depth) {
    return t->tag == ETag::Var && t->n < depth;
  }
  static uint32_t level(const ETm* t, uint32_t depth) { return depth - 1 - t->n; }

  // What a child reads, seen from `depth` (a Var child: its one level).
  Reads childReads(ETm* c, uint32_t d, bool owned, uint32_t depth) {
    Reads r;
    if (isVarBelow(c, d)) {
      if (level(c, d) < depth) r.any = {level(c, d)};
      if (owned) r.owned = r.any;
      return r;
    }
    const Reads& cr = reads(c, d);
    return {below(cr.any, depth), below(cr.owned, depth)};
  }

  const Reads& reads(ETm* t, uint32_t depth) {
    if (auto it = reads_.find(t); it != reads_.end()) return it->second;
    Reads r;
    auto add = [&](ETm* c, uint32_t d, bool owned) {
      Reads cr = childReads(c, d, owned, depth);
      unite(r.any, cr.any);
      unite(r.owned, cr.owned);
    };
    switch (t->tag) {
    case ETag::Lam: r.any = childReads(t->a, depth + t->n, false, depth).any; break;
    case ETag::Let:
      add(t->a, depth, true);
      add(t->b, depth + 1, true);
      break;
    case ETag::If:
      add(t->a, depth, false);
      add(t->b, depth, true);
      add(t->c, depth, true);
      break;
    default: {
      std::vector<Slot> ss;
      slots(t, depth, ss);
      for (const Slot& s : ss)
        add(s.t, s.depth, s.owned);
    }
    }
    return reads_[t] = std::move(r);
  }

  // A Var in an owned position: it shares unless this is its last read (or
  // the variable is captured: its value was marked when captured).
  void ownedRead(ETm* v, uint32_t depth, uint32_t base, bool readAgain) {
    decide(v, level(v, depth) < base || !readAgain);
  }

  // `after`: the levels read after t. `base`: the first level of t's
  // activation (variables below it are captured: marked when captured).
  void mark(ETm* t, uint32_t depth, const Levels& after, uint32_t base) {
    switch (t->tag) {
    case ETag::Var: return decide(t, true); // (the root itself)
    case ETag::Lam:
      noteCaptures(t, depth);
      return tail(t->a, depth + t->n, {}, depth);
    case ETag::Let: {
      Levels afterDef = after;
      unite(afterDef, childReads(t->b, depth + 1, false, depth).any);
      tail(t->a, depth, afterDef, base);
      return tail(t->b, depth + 1, after, base);
    }
    case ETag::If: {
      Levels afterCond = after;
      for (ETm* br : {t->b, t->c})
        unite(afterCond, childReads(br, depth, false, depth).any);
      if (isVarBelow(t->a, depth)) decide(t->a, true); // (a Bool)
      else mark(t->a, depth, afterCond, base);
      tail(t->b, depth, after, base);
      return tail(t->c, depth, after, base);
    }
    default: return children(t, depth, after, base);
    }
  }

  // t in a position whose value is kept (a result, a let's definition).
  void tail(ETm* t, uint32_t depth, const Levels& after, uint32_t base) {
    if (t->tag == ETag::Var && !isVarBelow(t, depth)) return decide(t, true); // (free in the root)
    if (isVarBelow(t, depth)) return ownedRead(t, depth, base, has(after, level(t, depth)));
    mark(t, depth, after, base);
  }

  void children(ETm* t, uint32_t depth, const Levels& after, uint32_t base) {
    std::vector<Slot> ss;
    slots(t, depth, ss);
    // Per child: what the others read (any / owned), by counting.
    std::unordered_map<uint32_t, uint32_t> anyCount, ownedCount;
    std::vector<Reads> own(ss.size());
    for (size_t k = 0; k < ss.size(); ++k) {
      own[k] = childReads(ss[k].t, ss[k].depth, ss[k].owned, depth);
      for (uint32_t x : own[k].any)
        ++anyCount[x];
      for (uint32_t x : own[k].owned)
        ++ownedCount[x];
    }
    for (size_t k = 0; k < ss.size(); ++k) {
      const Slot& s = ss[k];
      if (isVarBelow(s.t, depth)) {
        if (!s.owned) {
          decide(s.t, true);
          continue;
        }
        uint32_t x = level(s.t, depth);
        ownedRead(s.t, depth, base, has(after, x) || ownedCount[x] > 1);
        continue;
      }
      Levels others = after;
      Levels more;
      for (auto [x, c] : anyCount)
        if (c > (has(own[k].any, x) ? 1u : 0u)) more.push_back(x);
      std::sort(more.begin(), more.end());
      unite(others, more);
      mark(s.t, depth, others, base);
    }
  }
};

} // namespace

void markShares(ETm* body, Arena& arena) { Analysis(arena).run(body); }

} // namespace thorin::rt
