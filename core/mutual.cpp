// `mutual` blocks (Agda's): data types and functions that refer to each
// other. The block is one entry (one unit for a reload): first every data
// type's type former and every signature is checked and entered, then the
// constructors (each strictly positive in all the block's types), then the
// definitions, each in a scope where all of the block's names are known.
#include <fmt/format.h>

#include "eval.hpp"
#include "toplevel.hpp"

namespace thorin {

void TopLevel::defineMutual(const Entry& e, bool prelude) {
  w_.beginEntry();
  size_t firstMeta = w_.metas.size();
  // Which signature each definition completes.
  std::vector<const Entry*> sigs;
  auto sigOf = [&](Name n) -> const Entry* {
    for (const Entry* s : sigs)
      if (s->name == n) return s;
    return nullptr;
  };
  for (const Entry& sub : e.block) {
    if (sub.kind != EntryKind::Signature) continue;
    if (sigOf(sub.name))
      fail(sub.nameSpan, fmt::format("'{}' has two signatures in this mutual block", str(sub.name)));
    sigs.push_back(&sub);
  }
  std::vector<DataDecl> datas;
  std::vector<TopId> block;
  for (const Entry& sub : e.block)
    if (sub.kind == EntryKind::Data) {
      datas.push_back(declareData(sub, prelude));
      block.push_back(datas.back().self);
    }
  // The signatures (and typed definitions): entered without definitions.
  std::vector<std::pair<const Entry*, TopId>> declared;
  for (const Entry& sub : e.block) {
    bool typedDef = sub.kind == EntryKind::Def && sub.ty;
    if (sub.kind != EntryKind::Signature && !typedDef) continue;
    size_t first = w_.metas.size();
    Elab el(w_);
    Cxt c;
    Tm* ty = el.check(c, sub.ty, vUniverse());
    el.requireSolved(first);
    TopEntry te;
    te.name = sub.name;
    te.type = ty;
    te.span = sub.nameSpan;
    te.prelude = prelude;
    declared.push_back({&sub, w_.addTop(std::move(te))});
  }
  size_t k = 0;
  for (const Entry& sub : e.block)
    if (sub.kind == EntryKind::Data) finishData(sub, datas[k++], block, prelude);
  // The definitions.
  std::vector<bool> done(declared.size(), false);
  for (const Entry& sub : e.block) {
    if (sub.kind != EntryKind::Def && sub.kind != EntryKind::Clauses) continue;
    Name target = sub.name;
    size_t d = 0;
    while (d < declared.size() && declared[d].first->name != target)
      ++d;
    if (sub.kind == EntryKind::Clauses && d == declared.size())
      fail(sub.nameSpan,
           fmt::format("the clauses of '{}' have no signature in this mutual block", str(target)),
           {fmt::format("write `{} : type` in the block", str(target))});
    if (d < declared.size() && done[d])
      fail(sub.nameSpan, fmt::format("'{}' is defined twice in this mutual block", str(target)));
    Entry def = sub;
    def.kind = EntryKind::Def;
    if (d < declared.size()) done[d] = true;
    define(def, prelude, d < declared.size() ? int32_t(declared[d].second) : -1);
  }
  for (size_t d = 0; d < declared.size(); ++d)
    if (!done[d])
      fail(declared[d].first->nameSpan,
           fmt::format("the signature of '{}' has no definition in this mutual block",
                       str(declared[d].first->name)),
           {fmt::format("write `{} = …` or its clauses in the block", str(declared[d].first->name))});
  // The data types' eliminators, one mutual definition.
  std::vector<const Entry*> dataEntries;
  for (const Entry& sub : e.block)
    if (sub.kind == EntryKind::Data) dataEntries.push_back(&sub);
  if (!dataEntries.empty()) tryEliminators(dataEntries, block, prelude);
  reportGoals(firstMeta, block.empty() ? declared[0].second : block[0]);
}

} // namespace thorin
