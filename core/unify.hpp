// Unification: approximate conversion checking over glued values (rigid /
// flex / full modes) and higher-order pattern unification with renaming,
// occurs and scope checks, pruning and eta-short solutions.
#pragma once
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "nursery.hpp"
#include "world.hpp"

namespace thorin {

enum class UMode : uint8_t { Rigid, Flex, Full };

/// Creates metas during pruning; provided by the elaborator's meta context.
MetaId newMeta(World& w, Tm* closedType, uint32_t ctxLen, Span span, MetaOrigin origin);

/// Two closures of one term in environments holding the same values: equal
/// (a type instantiated twice at the same variables).
bool sameClosure(const Val* t, const Val* u);
/// A cheap, conservative equality (no unfolding, no metas solved): the same
/// variable or global, U, or binders of same domains over sameClosure.
bool sameValue(const Val* a, const Val* b);

class Unifier {
public:
  explicit Unifier(World& w) : w_(w) {}
  /// Unifies two values of the same type at level l; on failure `reason` may
  /// explain why (occurs check, escaping variable, …).
  bool unify(Lvl l, Val* t, Val* u);
  std::string reason;
  /// Set by the caller: a problem with no unique solution yet (`?m y y ≟ t y`,
  /// a variable repeated in the meta's spine and mentioned by t) may be
  /// postponed — unify then returns true and sets `postponed`, and the caller
  /// must retry the whole problem later (Agda postpones such constraints).
  bool mayPostpone = false;
  bool postponed = false;

private:
  // Partial renamings borrow their map from a pool (no allocation per solve).
  struct PRen {
    explicit PRen(Unifier& u) : owner(u), map(u.borrowMap()) { map.clear(); }
    ~PRen() { --owner.mapsInUse_; }
    PRen(const PRen&) = delete;
    Unifier& owner;
    int64_t occ = -1;          // meta being solved (for the occurs check)
    Lvl dom = 0, cod = 0;      // sizes of the solution's and the problem's contexts
    std::vector<int32_t>& map; // cod level → dom level, -1 (none) or -2 (repeated in the spine)
    // Spine arguments that are projections of a variable (`?m x.1`): the
    // variable, the projections (bit i: Proj2), their number, the dom level.
    struct Proj {
      Lvl x;
      uint32_t path;
      uint32_t len;
      int32_t dom;
    };
    std::vector<Proj> projs;
    void lift() {
      map.push_back(int32_t(dom));
      ++dom;
      ++cod;
    }
    void skip() {
      map.push_back(-1);
      ++cod;
    }
    void unlift() {
      map.pop_back();
      --cod;
      --dom;
    }
    void unskip() {
      map.pop_back();
      --cod;
    }
  };
  struct RenameFail {};

  bool go(Lvl l, Val* t, Val* u, UMode m);
  bool goIf(Lvl l, Val* x, Val* y, UMode m);
  bool goCase(Lvl l, Val* x, Val* y, UMode m);
  bool goSp(Lvl l, Spine* a, Spine* b, UMode m);
  bool goSp(Lvl l, Spine* a, Spine* b, UMode m, bool remember);
  bool goSpInit(Lvl l, Spine* a, Spine* b, UMode m, Val*& lastA, Val*& lastB);
  bool solve(Lvl l, Val* flex, Val* rhs);
  bool linearPattern(Lvl l, Spine* sp);
  bool invert(Lvl l, Spine* sp, PRen& ren, std::vector<bool>& keep, bool& linear);
  Val* contractArg(Lvl l, Val* a);
  bool etaExpandMeta(MetaId m, uint32_t k);
  void freeVars(Lvl l, Val* v, std::vector<uint8_t>& fv);
  void pruneLhs(Lvl l, Val* flex, Val* rhs);
  bool postpone(Lvl l, Val* flex, Val* rhs, bool prune = true);
  Tm* renameProjVar(PRen& ren, Val* v);
  Tm* projTm(PRen& ren, Lvl x, uint32_t path, uint32_t len);
  bool intersect(Lvl l, Val* a, Val* b);
  bool invertNatElim(Lvl l, Val* elim, Val* rhs);
  [[gnu::noinline]] int natRules(Lvl l, Val*& t, Val*& u);
  Tm* rename(PRen& ren, Val* v);
  Tm* renameSpine(PRen& ren, Tm* head, Spine* sp, Spine* stop = nullptr);
  Tm* renameCase(PRen& ren, Tm* scrutinee, Val* thunk);
  Tm* renameFlex(PRen& ren, MetaId m, Spine* sp);
  Tm* pruneTy(const std::vector<bool>& keep, Val* ty);
  MetaId pruneMeta(const std::vector<bool>& keep, MetaId m);
  bool mentions(MetaId inSolutionOf, MetaId m);
  bool mentionsTm(Tm* t, MetaId m);
  Tm* lams(MetaId m, const std::vector<Icit>& icits, Tm* body);

  // Roots for the nursery collector: the values and spines held by active
  // frames of go/goSp, registered for the frame's lifetime.
  struct RootScope {
    std::vector<Nursery::Root>& roots;
    size_t n;
    RootScope(std::vector<Nursery::Root>& r, Val** a, Val** b) : roots(r), n(r.size()) {
      r.push_back({Nursery::Root::Value, a});
      r.push_back({Nursery::Root::Value, b});
    }
    RootScope(std::vector<Nursery::Root>& r, Spine** a, Spine** b) : roots(r), n(r.size()) {
      r.push_back({Nursery::Root::Spine, a});
      r.push_back({Nursery::Root::Spine, b});
    }
    ~RootScope() { roots.resize(n); }
  };
  std::vector<Nursery::Root> roots_;
  // Pairs of spine arguments found equal during the current top-level
  // problem, where both spines repeat an argument (`X + X` against `Y + Y`):
  // the shared subterms would otherwise be compared once per occurrence,
  // exponential in the depth of the sharing. Cleared when the problem starts
  // and when the nursery moves values (then addresses may be reused).
  struct PairHash {
    size_t operator()(const std::pair<Val*, Val*>& p) const {
      return std::hash<uintptr_t>()(reinterpret_cast<uintptr_t>(p.first) * 0x9E3779B97F4A7C15u ^
                                    reinterpret_cast<uintptr_t>(p.second));
    }
  };
  std::unordered_set<std::pair<Val*, Val*>, PairHash> proven_;
  bool provenEqual(Val* a, Val* b) const { return !proven_.empty() && proven_.count({a, b}); }
  bool nonLinear_ = false;  // the last solve failed on a variable repeated in the spine
  bool notPattern_ = false; // … on an argument that is not a variable (`?f 3 ≟ 4`)
  // Long conversions of closed terms (see convertClosed).
  bool convertClosed(Lvl l, Val* t, Val* u, UMode m);
  struct LazyBudgetOut {};
  size_t lazySteps_ = 0;  // non-zero: the steps left to the evaluator before running code
  bool lazyOnly_ = false; // within convertClosed: no nested attempt
  std::vector<int32_t>& borrowMap() {
    if (mapsInUse_ == mapPool_.size()) mapPool_.push_back(std::make_unique<std::vector<int32_t>>());
    return *mapPool_[mapsInUse_++];
  }
  std::vector<std::unique_ptr<std::vector<int32_t>>> mapPool_;
  size_t mapsInUse_ = 0;
  // Reused buffers of the non-reentrant steps of solving.
  std::vector<Spine*> argsBuf_;
  std::vector<uint8_t> seenBuf_;
  std::vector<bool> keepBuf_;
  std::vector<Lvl> varsBuf_;
  std::vector<Icit> icitsBuf_;
  std::vector<Name> namesBuf_;

  World& w_;
};

/// Eta-contracts `λ x₁…xₙ. body` (binders of the given icits) before its
/// binders are built: returns the new body and lowers `n` to the binders
/// left (`λ x₁…xₙ. f x₁…xₙ` ⇒ `f` when the xᵢ do not occur in f).
Tm* etaContractBody(Arena& a, Tm* body, const Icit* icits, size_t& n);

} // namespace thorin
