#include "flat_types.hpp"

#include <algorithm>

#include "core/axiom.hpp"
#include "core/term.hpp"
#include "heap.hpp"

namespace thorin::rt {

namespace {
// Enough for any type a user writes; a pathological one is just not flat.
constexpr int kFuel = 2000;

// Builtin types whose values are immediates or immutable boxes.
bool flatBuiltin(const Axiom* ax) {
  const AxiomTable& t = AxiomTable::get();
  for (Builtin b : {Builtin::Nat, Builtin::I64, Builtin::F64, Builtin::Bool, Builtin::Unit})
    if (t.is(ax->id, b)) return true;
  return false;
}

// Is a field of this type a type (erased)?
bool isTypeField(const Tm* ty) {
  while (ty->tag == TTag::Pi)
    ty = ty->b;
  return ty->tag == TTag::U;
}
} // namespace

bool FlatTypes::cellable(TopId con, const std::vector<const Tm*>& params) {
  const TopEntry& te = w_.tops[con];
  if (te.conOf < 0 || te.conIndex >= kCellIndices) return false;
  fuel_ = kFuel;
  std::vector<bool> env; // (the application's variables: unknown)
  for (const Tm* p : params)
    if (!flat(p, env)) return false;
  return flatData(TopId(te.conOf));
}

bool FlatTypes::flatData(TopId d) {
  if (auto it = decided_.find(d); it != decided_.end()) return it->second;
  if (std::find(deciding_.begin(), deciding_.end(), d) != deciding_.end()) return true;
  const DataInfo& info = *w_.tops[d].data;
  deciding_.push_back(d);
  bool ok = true;
  for (uint32_t c = 0; ok && c < info.nCons; ++c) {
    std::vector<bool> env;
    uint32_t i = 0;
    for (const Tm* ty = w_.tops[info.cons[c]].type; ok && ty->tag == TTag::Pi; ty = ty->b, ++i) {
      bool param = i < info.params;
      ok = param || isTypeField(ty->a) || flat(ty->a, env);
      env.push_back(param); // (a field is a value, or a type nothing here knows)
    }
  }
  deciding_.pop_back();
  // (Only a decision that assumed nothing still being decided is kept.)
  if (deciding_.empty() || !ok) decided_[d] = ok;
  return ok;
}

bool FlatTypes::flat(const Tm* t, std::vector<bool>& env) {
  if (--fuel_ < 0) return false;
  switch (t->tag) {
  case TTag::Pi: // (a closure's captures are marked shared when captured)
  case TTag::U: return true;
  case TTag::Var: return t->n < env.size() && env[env.size() - 1 - t->n];
  case TTag::Sigma: {
    if (!flat(t->a, env)) return false;
    env.push_back(false);
    bool ok = flat(t->b, env);
    env.pop_back();
    return ok;
  }
  case TTag::Meta: {
    const Tm* s = w_.metas[t->n].solution;
    std::vector<bool> none;
    return s && flat(s, none);
  }
  case TTag::InsertedMeta: { // (its solution: λ over the variables it is applied to)
    const Tm* s = w_.metas[t->n].solution;
    if (!s) return false;
    std::vector<bool> bound;
    for (; s->tag == TTag::Lam; s = s->a)
      bound.push_back(false);
    return flat(s, bound);
  }
  case TTag::Top:
  case TTag::App: {
    std::vector<const Tm*> args;
    const Tm* h = t;
    for (; h->tag == TTag::App; h = h->a)
      args.push_back(h->b);
    std::reverse(args.begin(), args.end());
    return flatHead(h, args, env);
  }
  default: return false;
  }
}

// A type former applied to args: a builtin, a data type (its parameters
// flat), or a definition without arguments (`MyNat = Nat`), unfolded.
bool FlatTypes::flatHead(const Tm* h, const std::vector<const Tm*>& args, std::vector<bool>& env) {
  if (h->tag != TTag::Top) return false;
  const TopEntry& e = w_.tops[h->n];
  if (e.axiom) {
    if (args.empty()) return flatBuiltin(e.axiom);
    return AxiomTable::get().is(e.axiom->id, Builtin::Idx); // (`Idx n`: an immediate)
  }
  if (e.data) {
    if (args.size() < e.data->params) return false;
    for (uint32_t i = 0; i < e.data->params; ++i)
      if (!flat(args[i], env)) return false;
    return flatData(h->n);
  }
  if (e.def && args.empty()) {
    std::vector<bool> none;
    return flat(e.def, none);
  }
  return false;
}

} // namespace thorin::rt
