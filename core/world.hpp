// The World: everything a session knows — top-level definitions, metavariables,
// the arenas that hold their terms, and transactional snapshots so that a
// failed entry leaves no trace.
#pragma once
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "arena.hpp"
#include "source.hpp"
#include "stable_vector.hpp"
#include "value.hpp"

namespace thorin {

/// What a `data` declaration made (core/data.cpp), in the perm arena.
struct DataInfo {
  uint32_t params = 0, indices = 0;
  uint32_t nCons = 0;
  const uint32_t* cons = nullptr; // the constructors' TopIds, in order
  const bool* positive = nullptr; // per parameter: it occurs strictly positively
  int32_t elim = -1;              // its generated eliminator (core/eliminator.cpp), if any
};

struct TopEntry {
  Name name;
  Tm* type = nullptr;
  Tm* def = nullptr; // nullptr for a postulate
  Span span;
  bool prelude = false;
  const struct Axiom* axiom = nullptr; // `.ax %plugin.name`: its row in the axiom table
  int32_t alias = -1;         // an axiom: the definition `Nat = %core.Nat` naming it, for printing
  uint64_t stamp = 0;         // unique per (entry, definition): ids are reused after a rollback
  int8_t closedCallable = -1; // a function on builtin data (see World::closedCall); -1: unknown
  int8_t recursive = -1;      // its definition calls itself; -1: unknown
  bool retired = false;       // replaced by a reload: out of scope for good (its id stays valid)
  const DataInfo* data = nullptr; // a data type: its declaration
  int32_t conOf = -1;             // a constructor: its data type
  uint32_t conIndex = 0;          // a constructor: its position in the declaration
  uint64_t seq = 0;               // position in definition order (a reload renumbers what it keeps)
  // Values cached for the current scratch epoch.
  uint32_t epoch = 0;
  Val* tyVal = nullptr;
  Val* headVal = nullptr; // VTop with empty spine (shares its unfolding)
  Val* defVal = nullptr;
};

/// Why a meta was created (for the "unsolved metavariable" message).
struct MetaOrigin {
  enum Kind : uint8_t {
    Hole,
    HoleType,
    Implicit,
    BinderType,
    Domain,
    Codomain,
    FirstType,
    SecondType,
    ElemType, // of an array literal checked against an unknown type
    Goal // `?name`: an interaction point, reported, not an error
  };
  Kind kind = Hole;
  Name name; // the implicit argument's or the binder's name
  std::string describe() const;
};

struct MetaEntry {
  Tm* solution = nullptr; // closed term λ x₁…xₙ. t
  // Closed type Π (x₁ : A₁)… → A over the meta's context. Built lazily (most
  // metas are solved without anyone asking for it) from `ctx`/`tyInCtx`,
  // which are only valid while the meta's own entry is being elaborated.
  Tm* type = nullptr;
  uint32_t ctxLen;                  // number of context binders in `type` (Π or let)
  bool lazyType = false;            // `type` is still to be built from ctx/tyInCtx
  const void* ctx = nullptr;        // the elaborator's context (Local*) at creation
  Val* tyInCtx = nullptr;           // the meta's type in that context
  const Name* boundNames = nullptr; // names of the bound variables it is applied to
  uint32_t nBound = 0;
  uint32_t block; // the top-level entry that created it
  int32_t goalOf = -1; // a goal: the definition it is in (once that is added)
  Span span;
  MetaOrigin origin;
  uint32_t epoch = 0;
  Val* solVal = nullptr;
  Val* tyVal = nullptr;
  Val* headVal = nullptr;
  uint32_t visitStamp = 0; // occurs-check memo
};

class World {
public:
  struct Snapshot {
    Arena::Mark perm;
    size_t tops, metas, undo, sources, loaded;
  };
  World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  Arena perm;    // terms, types, meta solutions: as long as the world lives
  Arena scratch; // values and syntax of the current entry or command

  // (Stable addresses: millions of entries grow without moving.)
  StableVector<TopEntry> tops;
  StableVector<MetaEntry> metas;
  std::vector<std::unique_ptr<Source>> sources;
  // Positions of builtin applications (App::m = index + 1), for run-time errors.
  std::vector<Span> spans;
  uint32_t addSpan(Span s) {
    spans.push_back(s);
    return uint32_t(spans.size());
  }
  std::vector<std::string> loadedFiles; // canonical paths, for `.import` once-only
  uint32_t epoch = 1;
  uint64_t stamps = 0;     // never rolled back
  uint64_t seqs = 0;       // TopEntry::seq
  bool hasFilters = false; // some λ has a partial-evaluation filter (the runtime specializes)
  uint32_t block = 0;
  uint32_t visitStamp = 0;
  size_t preludeMetas = 0; // metas created by the prelude (hidden from :out)

  // Minor collections during long conversion checks (see nursery.hpp): while
  // `nursery` is set, cache writes into values are logged so that the
  // collector can drop caches that would point at freed memory.
  class Nursery* nursery = nullptr;
  uint32_t gen = 0; // id of the active nursery, stamped on new values
  uint32_t lastGen = 0;
  std::vector<Val*> cacheLog;
  Arena survivors[2];
  int survivorsCur = 0;

  /// Latest top-level definition with this name, or -1.
  int32_t lookupTop(Name n) const { return n.id < topByName_.size() ? topByName_[n.id] : -1; }
  /// lookupTop for the elaborator: the lookup is logged in `lookupLog` (if
  /// set), which is what an incremental reload checks to keep an entry.
  int32_t resolve(Name n) {
    int32_t id = lookupTop(n);
    if (lookupLog) lookupLog->push_back({n.id, id});
    return id;
  }
  std::vector<std::pair<uint32_t, int32_t>>* lookupLog = nullptr;
  /// Brings an existing entry back into scope under its name (a reload keeps
  /// it); undone by a rollback.
  void bind(TopId id);
  /// The scope as the prelude left it: reloads start from there.
  void markPrelude();
  /// Returns to the prelude's scope (undone by a rollback).
  void resetScope();
  /// Forgets how to undo the name bindings made since `s` (a reload has been
  /// committed: nothing will roll back past it).
  void commitScope(const Snapshot& s) { undo_.resize(std::min(undo_.size(), s.undo)); }
  size_t preludeLoaded = 0; // loadedFiles of the prelude
  TopId addTop(TopEntry e);

  /// `lexFrom`: where in `text` the program starts (Source::lexFrom).
  const Source* addSource(std::string path, std::string text, uint32_t firstLine = 1,
                          uint32_t lexFrom = 0);

  /// Starts a new top-level entry: fresh scratch, new meta block.
  void beginEntry();
  bool frozen(MetaId m) const { return metas[m].block != block; }

  Snapshot snapshot() const;
  void rollback(const Snapshot& s);

  // Cached values (valid for the current epoch).
  Val* topType(TopId id);
  Val* topHead(TopId id);
  Val* topDef(TopId id); // nullptr for postulates
  Val* metaHead(MetaId m);
  Val* metaSolution(MetaId m); // requires solved
  Val* metaType(MetaId m);
  Tm* metaTypeTm(MetaId m);
  /// Builds a meta's closed type from its context (set by the elaborator).
  Tm* (*closeMetaType)(World& w, MetaId m) = nullptr;
  /// The runtime that evaluation and unification may ask (core/runner.hpp:
  /// closed calls, conversion by running code), or null; set by
  /// Runner::attach.
  class Runner* runner = nullptr;
  Val* var(Lvl l);
  /// The variable term with index i, shared: meta solutions and types are
  /// mostly variables, and these never change once built.
  Tm* varTm(Ix i);
  /// The term naming top-level entry `id`, shared likewise: a definition is
  /// named ~10 times in terms and solutions for each time it is defined.
  Tm* topTm(TopId id);
  /// The entry in scope that declares the axiom `id` (-1: none).
  int32_t axiomEntry(uint32_t id) const;

private:
  static Tm* sharedLeaf(StableVector<Tm>& table, TTag tag, uint32_t n);
  void refresh(TopEntry& e);
  void refresh(MetaEntry& e);
  std::vector<int32_t> topByName_;
  struct Undo {
    uint32_t name;
    int32_t old;
  };
  std::vector<Undo> undo_;
  std::vector<int32_t> preludeScope_;
  std::vector<Val*> vars_;
  uint32_t varsEpoch_ = 0;
  StableVector<Tm> varTms_; // outside `perm`: a rollback must not free them
  StableVector<Tm> topTms_; // (a rolled-back id is reused with the same term)
};

} // namespace thorin
