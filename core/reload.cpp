// Incremental reloading. A load records, per file, each definition's text and
// the top-level names its elaboration looked up (with what they meant). A
// reload walks the files again in order, in the prelude's scope: a definition
// whose text matches a recorded one whose lookups all still resolve the same
// way is kept — its TopEntry, metas and compiled code stay, it is only
// brought back into scope. Anything else is elaborated again, as a new entry,
// so that everything that looked up a changed definition sees a different id
// and is elaborated again too. The reload is one transaction: on an error the
// world (scope, positions, records) is exactly as before.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "toplevel.hpp"

namespace thorin {

TopLevel::Reuse TopLevel::keepEntry(const Entry& e, const Source* src, uint32_t begin,
                                    size_t file) {
  if (!report_) return Reuse::NewText;
  auto it = old_.find(staging_[file].watched);
  if (it == old_.end()) return Reuse::NewText;
  OldFile& of = it->second;
  auto m = of.byText.find(std::string_view(src->text).substr(begin, e.span.end - begin));
  if (m == of.byText.end()) return Reuse::NewText;
  auto idx =
      std::find_if(m->second.begin(), m->second.end(), [&](uint32_t i) { return !of.taken[i]; });
  if (idx == m->second.end()) return Reuse::NewText;
  of.taken[*idx] = true;
  const EntryRecord& o = of.rec->entries[*idx];
  auto gone = [&](int32_t id) {
    return id < 0 || size_t(id) >= w_.tops.size() || w_.tops[id].retired;
  };
  if (gone(o.id) || std::any_of(o.more.begin(), o.more.end(), gone)) return Reuse::SameText;
  auto own = [&](int32_t id) { // (the entry's own names: bound with it below)
    return id == o.id || std::find(o.more.begin(), o.more.end(), id) != o.more.end();
  };
  for (auto [n, id] : o.lookups)
    if (!own(id) && w_.lookupTop(Name{n}) != id) return Reuse::SameText;

  w_.bind(TopId(o.id));
  for (int32_t id : o.more)
    w_.bind(TopId(id));
  EntryRecord r = o;
  r.begin = begin;
  r.end = e.span.end;
  if (src != of.rec->src || begin != o.begin) {
    // The text moved (lines above it changed): move its positions along.
    Move mv{TopId(o.id),
            w_.tops[o.id].span,
            o.spansBegin,
            o.spansEnd,
            of.rec->src,
            o.begin,
            o.end,
            src,
            int64_t(begin) - int64_t(o.begin)};
    auto shift = [&](Span& s) {
      s = Span{src, uint32_t(s.begin + mv.delta), uint32_t(s.end + mv.delta)};
    };
    shift(w_.tops[o.id].span);
    for (uint32_t i = o.spansBegin; i < o.spansEnd && i < w_.spans.size(); ++i) {
      Span& s = w_.spans[i];
      if (s.src == mv.oldSrc && s.begin >= o.begin && s.end <= o.end) shift(s);
    }
    moves_.push_back(mv);
  }
  staging_[file].entries.push_back(std::move(r));
  ++report_->total;
  return Reuse::Kept;
}

void TopLevel::recordEntry(const Entry& e, uint32_t begin, size_t file, bool sameText,
                           std::vector<std::pair<uint32_t, int32_t>>& lookups,
                           uint32_t spansBegin) {
  std::sort(lookups.begin(), lookups.end());
  lookups.erase(std::unique(lookups.begin(), lookups.end()), lookups.end());
  EntryRecord r;
  r.begin = begin;
  r.end = e.span.end;
  std::vector<int32_t> ids = definedTops(e);
  r.id = ids.empty() ? -1 : ids[0];
  r.more.assign(ids.begin() + (ids.empty() ? 0 : 1), ids.end());
  r.lookups = std::move(lookups);
  r.spansBegin = spansBegin;
  r.spansEnd = uint32_t(w_.spans.size());
  staging_[file].entries.push_back(std::move(r));
  if (!report_) return;
  ++report_->total;
  ++report_->rechecked;
  if (sameText) return; // re-checked because something it uses changed
  // (A mutual block is named by its first definition.)
  int32_t first = staging_[file].entries.back().id;
  Name key = e.kind == EntryKind::Mutual && first >= 0 ? w_.tops[first].name : e.name;
  std::string name(str(key));
  auto it = old_.find(staging_[file].watched);
  bool existed = it != old_.end() &&
                 std::any_of(it->second.rec->entries.begin(), it->second.rec->entries.end(),
                             [&](const EntryRecord& o) { return w_.tops[o.id].name == key; });
  auto& list = existed ? report_->changed : report_->added;
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

// Definition order, for :browse and :out: the entry's definition, or a data
// type and then its constructors.
// The entries a definition made: itself; a data type's constructors and
// eliminator; everything a mutual block declares.
std::vector<int32_t> TopLevel::definedTops(const Entry& e) {
  std::vector<int32_t> ids;
  if (e.kind == EntryKind::Mutual) {
    for (const Entry& sub : e.block)
      if (sub.kind != EntryKind::Def && sub.kind != EntryKind::Clauses) // (defined by a signature)
        for (int32_t id : definedTops(sub))
          ids.push_back(id);
    for (const Entry& sub : e.block) // (a definition without a signature)
      if (sub.kind == EntryKind::Def &&
          (sub.ty || std::none_of(e.block.begin(), e.block.end(), [&](const Entry& s) {
            return s.kind == EntryKind::Signature && s.name == sub.name;
          })))
        ids.push_back(w_.lookupTop(sub.name));
    return ids;
  }
  int32_t id = w_.lookupTop(e.name);
  ids.push_back(id);
  for (const ConDecl& c : e.cons)
    ids.push_back(w_.lookupTop(c.name));
  if (const DataInfo* d = id >= 0 ? w_.tops[id].data : nullptr; d && d->elim >= 0)
    ids.push_back(d->elim);
  return ids;
}

void TopLevel::walkEntry(const Entry& e) {
  for (int32_t id : definedTops(e))
    walk_.push_back(TopId(id));
}

void TopLevel::undoMoves() {
  for (auto mv = moves_.rbegin(); mv != moves_.rend(); ++mv) {
    w_.tops[mv->id].span = mv->oldName;
    uint32_t nb = uint32_t(mv->oldBegin + mv->delta), ne = uint32_t(mv->oldEnd + mv->delta);
    for (uint32_t i = mv->spansBegin; i < mv->spansEnd && i < w_.spans.size(); ++i) {
      Span& s = w_.spans[i];
      if (s.src == mv->newSrc && s.begin >= nb && s.end <= ne)
        s = Span{mv->oldSrc, uint32_t(s.begin - mv->delta), uint32_t(s.end - mv->delta)};
    }
  }
  moves_.clear();
}

ReloadReport TopLevel::reload(const std::vector<std::string>& files) {
  Timer t;
  ReloadReport rep;
  auto snap = w_.snapshot();
  auto loadedBefore = w_.loadedFiles;
  for (auto& f : records_) {
    OldFile& of = old_[f.watched];
    of.rec = &f;
    of.taken.assign(f.entries.size(), false);
    for (uint32_t i = 0; i < f.entries.size(); ++i) {
      const EntryRecord& r = f.entries[i];
      of.byText[std::string_view(f.src->text).substr(r.begin, r.end - r.begin)].push_back(i);
    }
  }
  report_ = &rep;
  attempted_.clear();
  walk_.clear();
  w_.loadedFiles.resize(std::min(w_.loadedFiles.size(), w_.preludeLoaded));
  w_.resetScope();
  bool ok = true;
  for (auto& f : files)
    if (!loadFile(f)) {
      ok = false;
      break;
    }
  report_ = nullptr;
  if (!ok) {
    undoMoves();
    w_.rollback(snap);
    w_.loadedFiles = std::move(loadedBefore);
    staging_.clear();
    walk_.clear();
    old_.clear();
    return rep;
  }
  commitReload(snap, rep);
  rep.ok = true;
  rep.seconds = t.seconds();
  return rep;
}

void TopLevel::commitReload(const World::Snapshot& snap, ReloadReport& rep) {
  std::vector<bool> live(w_.tops.size());
  std::set<std::string> names;
  for (auto& f : staging_)
    for (auto& e : f.entries) {
      live[size_t(e.id)] = true;
      for (int32_t id : e.more)
        live[size_t(id)] = true;
      names.insert(std::string(str(w_.tops[e.id].name)));
    }
  for (auto& f : records_)
    for (auto& e : f.entries) {
      std::string n(str(w_.tops[e.id].name));
      if (!names.count(n) &&
          std::find(rep.removed.begin(), rep.removed.end(), n) == rep.removed.end())
        rep.removed.push_back(n);
    }
  // What is not in the files any more (or was typed at the prompt) leaves
  // scope for good, and its compiled code (with the code compiled against it)
  // is dropped.
  for (TopId id = 0; id < snap.tops; ++id) {
    TopEntry& te = w_.tops[id];
    if (te.prelude || te.retired || live[id]) continue;
    te.retired = true;
    if (opts_.runner) opts_.runner->invalidate(w_, id);
  }
  // Definition order is file order again (for :browse and :out).
  for (TopId id : walk_)
    w_.tops[id].seq = ++w_.seqs;
  walk_.clear();
  records_ = std::move(staging_);
  staging_.clear();
  old_.clear();
  moves_.clear();
  w_.commitScope(snap);
}

std::vector<std::string> TopLevel::watchedFiles() const {
  std::vector<std::string> out;
  for (auto& f : records_)
    out.push_back(f.watched);
  out.insert(out.end(), attempted_.begin(), attempted_.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

static std::string nameList(const std::vector<std::string>& names) {
  const size_t shown = 5;
  std::string s;
  for (size_t i = 0; i < names.size() && i < shown; ++i)
    s += (i ? ", " : "") + names[i];
  if (names.size() > shown) s += fmt::format(" and {} more", names.size() - shown);
  return s;
}

std::string ReloadReport::summary(const std::vector<std::string>& files) const {
  std::string what;
  auto part = [&](const char* verb, const std::vector<std::string>& names) {
    if (names.empty()) return;
    what += fmt::format("{}{} {}", what.empty() ? "" : "; ", verb, nameList(names));
  };
  part("changed", changed);
  part("added", added);
  part("removed", removed);
  if (full)
    what = fmt::format("re-checked all {} definitions in {}", total, formatSeconds(seconds));
  else
    what =
        fmt::format("{}{}re-checked {} of {} definitions in {}", what.empty() ? "no changes" : what,
                    "; ", rechecked, total, formatSeconds(seconds));
  return fmt::format("reloaded {}: {}", fmt::join(files, ", "), what);
}

} // namespace thorin
