// Value classes (value_class.hpp).
#include "value_class.hpp"

#include "core/literal.hpp"
#include "module_gen.hpp"
#include "operand.hpp"
#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

// The machine type `get {A}` reads when A is a literal type.
MType elemHint(ETm* t) {
  if (t->n > 0 && t->args[0]->tag == ETag::Erased) {
    MType m = MType(t->args[0]->n);
    if (m == MType::I64 || m == MType::F64) return m;
  }
  return MType::None;
}

// An I64 or Bool literal's value.
int64_t literal(ETm* t) {
  if (LitKind(t->n) == LitKind::I64) return int64_t(t->bits);
  if (LitKind(t->n) == LitKind::Bool) return t->bits != 0 ? 1 : 0;
  throw Unsupported{__LINE__};
}

MType literalClass(ETm* t) {
  switch (LitKind(t->n)) {
  case LitKind::I64: return MType::I64;
  case LitKind::Bool: return MType::Bool;
  case LitKind::F64: return MType::F64;
  default: return MType::None;
  }
}

MType valueClass(ETm* t, std::vector<MType>& env, ModuleGen& mod, TopId self, const FnSig& sig) {
  switch (t->tag) {
  case ETag::Var:
    if (t->n >= env.size()) throw Unsupported{__LINE__};
    return env[env.size() - 1 - t->n];
  case ETag::Lit: return literalClass(t);
  case ETag::Erased:
  case ETag::Known:
  case ETag::Global:
  case ETag::Con:
  case ETag::Field:
  case ETag::Arr: return MType::None;
  case ETag::Case: { // (impossible alternatives, erased, do not count)
    MType m = MType::None;
    bool first = true;
    for (uint32_t i = 0; i < t->n; ++i) {
      if (t->args[i]->tag == ETag::Erased) continue;
      MType mi = valueClass(t->args[i], env, mod, self, sig);
      if (!first && mi != m) return MType::None;
      m = mi;
      first = false;
    }
    return m;
  }
  case ETag::Let: {
    env.push_back(valueClass(t->a, env, mod, self, sig));
    MType m = valueClass(t->b, env, mod, self, sig);
    env.pop_back();
    return m;
  }
  case ETag::If: {
    MType b = valueClass(t->b, env, mod, self, sig), c = valueClass(t->c, env, mod, self, sig);
    return b == c ? b : MType::None;
  }
  case ETag::Prim: {
    const Prim& p = primById(t->prim);
    const BaselineLowering* l = findBaselineLowering(p.axiom);
    if (!l) return p.result;
    switch (l->op) {
    case BaselineOp::FCompare:
    case BaselineOp::NatCompare: return MType::Bool;
    case BaselineOp::NatToF64: return MType::F64;
    case BaselineOp::ArrGet: return elemHint(t);
    default: return intOp(l->op) || floatOp(l->op) ? p.result : MType::None;
    }
  }
  case ETag::App: {
    if (t->a->tag != ETag::Global || mod.rt.erased(t->a->n).arity != t->n)
      throw Unsupported{__LINE__};
    if (t->a->n == self) return sig.result;
    return mod.direct(t->a->n) ? mod.sig(t->a->n).result : MType::None;
  }
  default: throw Unsupported{__LINE__};
  }
}

} // namespace thorin::rt::baseline_gen
