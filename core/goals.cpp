// Goals: `?name` (or `?`) in a definition is an interaction point, as in
// Agda. Elaboration goes on around it (a metavariable), the definition is
// added, and each goal it leaves is shown with its type and the local
// context; `:goals` lists those still open. Running code that reaches one
// is a run-time error (runtime/erase.cpp).
#include <fmt/format.h>

#include "pretty.hpp"
#include "toplevel.hpp"
#include "zonk.hpp"

namespace thorin {

Diagnostic TopLevel::goalDiagnostic(MetaId m) {
  MetaEntry& e = w_.metas[m];
  std::vector<Name> ctx;
  std::vector<std::pair<Name, std::string>> entries;
  Tm* ty = w_.metaTypeTm(m);
  for (uint32_t i = 0; i < e.ctxLen && (ty->tag == TTag::Pi || ty->tag == TTag::Let); ++i) {
    if (ty->name && str(ty->name) != "_")
      entries.push_back({ty->name, fmt::format("{} : {}", str(ty->name),
                                               show(w_, zonk(w_, w_.scratch, ty->a, Lvl(ctx.size())),
                                                    ctx, kShownTermLimit))});
    ctx.push_back(ty->name);
    ty = ty->tag == TTag::Pi ? ty->b : ty->c;
  }
  // A name bound again later (a variable refined by a match: its shadowing
  // let) is shown once, as the user can refer to it: the last binding.
  std::vector<std::string> context;
  for (size_t i = 0; i < entries.size(); ++i) {
    bool shadowed = false;
    for (size_t j = i + 1; j < entries.size() && !shadowed; ++j)
      shadowed = entries[j].first == entries[i].first;
    if (!shadowed) context.push_back(std::move(entries[i].second));
  }
  Diagnostic d{
      e.span,
      fmt::format("{} : {}", metaName(w_, m),
                  show(w_, zonk(w_, w_.scratch, ty, Lvl(ctx.size())), ctx, kShownTermLimit)),
      {}};
  d.goal = true;
  if (context.empty())
    d.notes.push_back("(nothing in scope)");
  else
    d.notes = std::move(context);
  return d;
}

void TopLevel::reportGoals(size_t firstMeta, TopId owner) {
  for (size_t m = firstMeta; m < w_.metas.size(); ++m) {
    MetaEntry& e = w_.metas[m];
    if (e.solution || e.origin.kind != MetaOrigin::Goal) continue;
    e.goalOf = int32_t(owner);
    out_ << render(goalDiagnostic(MetaId(m)));
  }
}

size_t TopLevel::showGoals() {
  size_t n = 0;
  for (size_t m = 0; m < w_.metas.size(); ++m) {
    MetaEntry& e = w_.metas[m];
    if (e.solution || e.origin.kind != MetaOrigin::Goal || e.goalOf < 0) continue;
    const TopEntry& owner = w_.tops[TopId(e.goalOf)];
    if (owner.retired || w_.lookupTop(owner.name) != e.goalOf) continue; // (replaced)
    out_ << render(goalDiagnostic(MetaId(m)));
    ++n;
  }
  return n;
}

} // namespace thorin
