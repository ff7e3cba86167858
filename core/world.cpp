#include "world.hpp"

#include "axiom.hpp"
#include "runner.hpp"

#include "eval.hpp"

namespace thorin {

std::string MetaOrigin::describe() const {
  switch (kind) {
  case Hole: return "hole";
  case HoleType: return "type of a hole";
  case Implicit: return "implicit argument {" + std::string(str(name)) + "}";
  case BinderType: return "type of '" + std::string(str(name)) + "'";
  case Domain: return "domain of a function";
  case Codomain: return "codomain of a function";
  case FirstType: return "first component type";
  case SecondType: return "second component type";
  case ElemType: return "element type of an array";
  case Goal: return name.id ? "goal ?" + std::string(str(name)) : "goal ?";
  }
  return "metavariable";
}

World::World() : perm(256 * 1024), scratch(1 << 20) {}

TopId World::addTop(TopEntry e) {
  TopId id = TopId(tops.size());
  if (topByName_.size() <= e.name.id) topByName_.resize(e.name.id + 1, -1);
  undo_.push_back({e.name.id, topByName_[e.name.id]});
  topByName_[e.name.id] = int32_t(id);
  e.stamp = ++stamps;
  e.seq = ++seqs;
  tops.push_back(std::move(e));
  return id;
}

void World::bind(TopId id) {
  Name n = tops[id].name;
  if (topByName_.size() <= n.id) topByName_.resize(n.id + 1, -1);
  if (topByName_[n.id] == int32_t(id)) return;
  undo_.push_back({n.id, topByName_[n.id]});
  topByName_[n.id] = int32_t(id);
}

void World::markPrelude() {
  preludeScope_ = topByName_;
  preludeLoaded = loadedFiles.size();
  preludeMetas = metas.size();
}

void World::resetScope() {
  for (uint32_t n = 0; n < topByName_.size(); ++n) {
    int32_t want = n < preludeScope_.size() ? preludeScope_[n] : -1;
    if (topByName_[n] == want) continue;
    undo_.push_back({n, topByName_[n]});
    topByName_[n] = want;
  }
}

const Source* World::addSource(std::string path, std::string text, uint32_t firstLine,
                               uint32_t lexFrom) {
  // A byte-order mark (editors on Windows write one) is not part of the text:
  // columns count from the first character after it.
  if (text.starts_with("\xEF\xBB\xBF")) {
    text.erase(0, 3);
    lexFrom = lexFrom >= 3 ? lexFrom - 3 : 0;
  }
  sources.push_back(std::make_unique<Source>(std::move(path), std::move(text), firstLine));
  sources.back()->lexFrom = lexFrom;
  return sources.back().get();
}

void World::beginEntry() {
  scratch.clear(size_t(8) << 20);
  survivors[0].clear(1 << 20);
  survivors[1].clear(1 << 20);
  ++epoch;
  ++block;
}

World::Snapshot World::snapshot() const {
  return {perm.mark(), tops.size(), metas.size(), undo_.size(), sources.size(), loadedFiles.size()};
}

void World::rollback(const Snapshot& s) {
  if (runner && tops.size() > s.tops) runner->onRollback(*this, TopId(s.tops));
  while (undo_.size() > s.undo) {
    topByName_[undo_.back().name] = undo_.back().old;
    undo_.pop_back();
  }
  tops.resize(s.tops);
  metas.resize(s.metas, MetaEntry{});
  sources.resize(s.sources);
  loadedFiles.resize(s.loaded);
  perm.reset(s.perm);
  perm.trim(); // (a failed load of a huge file must not keep what it took)
  scratch.clear(size_t(8) << 20);
  survivors[0].clear(1 << 20);
  survivors[1].clear(1 << 20);
  ++epoch;
}

void World::refresh(TopEntry& e) {
  if (e.epoch == epoch) return;
  e.epoch = epoch;
  e.tyVal = e.headVal = e.defVal = nullptr;
}

void World::refresh(MetaEntry& e) {
  if (e.epoch == epoch) return;
  e.epoch = epoch;
  e.solVal = e.tyVal = e.headVal = nullptr;
}

Val* World::topType(TopId id) {
  auto& e = tops[id];
  refresh(e);
  if (!e.tyVal) e.tyVal = eval(*this, nullptr, e.type);
  return e.tyVal;
}

Val* World::topHead(TopId id) {
  auto& e = tops[id];
  refresh(e);
  if (!e.headVal) {
    Val* v = mkVal(*this, VTag::Top);
    v->n = id;
    if (e.axiom && e.axiom->norm) {
      v->axiom = 1;
      // A constant axiom (`%core.true`) is its normalizer's value.
      if (e.axiom->arity == 0)
        if (Val* c = e.axiom->norm(*this, nullptr)) v = c;
    }
    e.headVal = v;
  }
  return e.headVal;
}

Val* World::topDef(TopId id) {
  auto& e = tops[id];
  refresh(e);
  if (!e.def) return nullptr;
  if (!e.defVal) e.defVal = eval(*this, nullptr, e.def);
  return e.defVal;
}

Val* World::metaHead(MetaId m) {
  auto& e = metas[m];
  refresh(e);
  if (!e.headVal) {
    Val* v = mkVal(*this, VTag::Flex);
    v->n = m;
    e.headVal = v;
  }
  return e.headVal;
}

Val* World::metaSolution(MetaId m) {
  auto& e = metas[m];
  refresh(e);
  if (!e.solVal) e.solVal = eval(*this, nullptr, e.solution);
  return e.solVal;
}

Tm* World::metaTypeTm(MetaId m) {
  auto& e = metas[m];
  if (!e.type && e.lazyType && closeMetaType) e.type = closeMetaType(*this, m);
  return e.type;
}

Val* World::metaType(MetaId m) {
  Tm* ty = metaTypeTm(m);
  auto& e = metas[m];
  refresh(e);
  if (!e.tyVal) e.tyVal = eval(*this, nullptr, ty);
  return e.tyVal;
}

Tm* World::varTm(Ix i) {
  if (i >= 4096) { // (deep contexts are rare: no need to keep those)
    Tm* t = mkTm(perm, TTag::Var);
    t->n = i;
    return t;
  }
  return sharedLeaf(varTms_, TTag::Var, i);
}

int32_t World::axiomEntry(uint32_t axiom) const {
  for (TopId id = TopId(tops.size()); id-- > 0;)
    if (tops[id].axiom && tops[id].axiom->id == axiom && !tops[id].retired) return int32_t(id);
  return -1;
}

Tm* World::topTm(TopId id) { return sharedLeaf(topTms_, TTag::Top, id); }

// The leaf term (tag, n) of a table that holds one for each n up to the largest asked.
Tm* World::sharedLeaf(StableVector<Tm>& table, TTag tag, uint32_t n) {
  while (table.size() <= n) {
    Tm t;
    t.tag = tag;
    t.n = uint32_t(table.size());
    table.push_back(t);
  }
  return &table[n];
}

Val* World::var(Lvl l) {
  if (varsEpoch_ != epoch) {
    vars_.clear();
    varsEpoch_ = epoch;
  }
  while (vars_.size() <= l) {
    Val* v = mkVal(*this, VTag::Rigid);
    v->n = Lvl(vars_.size());
    vars_.push_back(v);
  }
  return vars_[l];
}

} // namespace thorin
