// Entry facts (entry_facts.hpp).
#include "entry_facts.hpp"

#include <algorithm>
#include <functional>

#include "core/literal.hpp"
#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

std::vector<ParamFact> findEntryFacts(const LoopPlan& plan, ETm* body, const FnSig& sig) {
  std::vector<ParamFact> pfacts(plan.arity());
  // Which parameter `t` (a variable at `depth` binders inside the body) is.
  auto paramOf = [&](ETm* t, uint32_t depth) {
    uint32_t arity = plan.arity();
    if (t->tag != ETag::Var || t->n < depth || t->n - depth >= arity) return -1;
    return int(arity - 1 - (t->n - depth));
  };
  std::function<void(ETm*, uint32_t, bool)> walk = [&](ETm* t, uint32_t depth, bool tail) {
    if (t->tag == ETag::Prim) {
      const BaselineLowering* l = findBaselineLowering(primById(t->prim).axiom);
      if (l && (l->op == BaselineOp::NatAdd || l->op == BaselineOp::NatSub ||
                l->op == BaselineOp::NatMul || l->op == BaselineOp::NatDiv ||
                l->op == BaselineOp::NatMod || l->op == BaselineOp::NatCompare ||
                l->op == BaselineOp::IdxOf || l->op == BaselineOp::NatToF64))
        for (uint32_t i = 0; i < t->n; ++i)
          if (int p = paramOf(t->args[i], depth); p >= 0 && sig.params[p] == MType::None)
            pfacts[p].imm = true;
      if (l && l->op == BaselineOp::ArrGet && t->args[1]->tag == ETag::Lit &&
          LitKind(t->args[1]->n) == LitKind::Nat && t->args[1]->bits < (uint64_t(1) << 31) &&
          t->args[0]->tag == ETag::Erased)
        if (int p = paramOf(t->args[2], depth); p >= 0 && sig.params[p] == MType::None) {
          MType m = elemHint(t);
          OTag rep = m == MType::I64 ? OTag::ArrI64 : m == MType::F64 ? OTag::ArrF64 : OTag::Arr;
          uint32_t len = uint32_t(t->args[1]->bits);
          ParamFact& f = pfacts[p];
          if (f.arr && (f.rep != rep || f.len != len)) f.noArr = true;
          f.arr = true, f.rep = rep, f.len = len;
        }
      // get {A} {n} (get {B} {m} p i) j: p's rows have A's representation and length n
      if (l && l->op == BaselineOp::ArrGet && t->args[1]->tag == ETag::Lit &&
          LitKind(t->args[1]->n) == LitKind::Nat && t->args[1]->bits < (uint64_t(1) << 22) &&
          t->args[2]->tag == ETag::Prim && t->args[2]->n == 4 &&
          findBaselineLowering(primById(t->args[2]->prim).axiom) == l)
        if (int p = paramOf(t->args[2]->args[2], depth); p >= 0 && sig.params[p] == MType::None) {
          MType m = elemHint(t);
          OTag rep = m == MType::I64 ? OTag::ArrI64 : m == MType::F64 ? OTag::ArrF64 : OTag::Arr;
          uint64_t code = arrShapeCode(rep, uint32_t(t->args[1]->bits));
          ParamFact& f = pfacts[p];
          if (f.rows && f.rows != code) f.noRows = true;
          f.rows = code;
        }
      if (l && l->op == BaselineOp::ArrGet && t->args[1]->tag == ETag::Lit &&
          LitKind(t->args[1]->n) == LitKind::Nat && t->args[1]->bits < (uint64_t(1) << 30))
        if (int p = paramOf(t->args[3], depth); p >= 0 && sig.params[p] == MType::None) {
          int64_t w = wordOf(int64_t(t->args[1]->bits));
          ParamFact& f = pfacts[p];
          f.below = f.below ? std::min(f.below, w) : w;
        }
    }
    bool selfTail = tail && plan.selfCall(t);
    if (selfTail)
      for (uint32_t i = 0; i < t->n; ++i)
        if (paramOf(t->args[i], depth) != int(i)) pfacts[i].noArr = true;
    switch (t->tag) { // (tail positions: a let's body, an if's branches, `e ⊕ self(…)`)
    case ETag::Let:
      walk(t->a, depth, false);
      walk(t->b, depth + 1, tail);
      return;
    case ETag::If:
      walk(t->a, depth, false);
      walk(t->b, depth, tail);
      walk(t->c, depth, tail);
      return;
    default: break;
    }
    bool acc = tail && plan.accTail(t);
    uint32_t k = 0;
    forEachChild(t, depth, [&](ETm* c, uint32_t d) { walk(c, d, acc && k++ == 1); });
  };
  walk(body, 0, true);
  for (ParamFact& f : pfacts) {
    if (f.noArr) f.arr = false, f.below = 0;
    if (f.noRows || !f.arr || f.rep != OTag::Arr) f.rows = 0;
  }
  return pfacts;
}

bool anyFact(const std::vector<ParamFact>& pfacts) {
  for (const ParamFact& f : pfacts)
    if (f.imm || f.arr || f.below || f.rows) return true;
  return false;
}

} // namespace thorin::rt::baseline_gen
