// What the code being emitted knows (fn_gen.hpp): facts of branches
// (a variable compared with a literal), of a loop's entry (its parameters'
// checked facts), and of straight-line paths (indices checked below a
// bound).
#include "fn_gen.hpp"

#include "core/literal.hpp"
#include "runtime/abi.hpp"
#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

// c, a comparison of an I64 variable with a small literal, as a fact
// (that it has the value `value`).
bool FnGen::asFact(ETm* c, bool value, Fact& f) {
  if (c->tag != ETag::Prim || c->n != 2) return false;
  const BaselineLowering* l = findBaselineLowering(primById(c->prim).axiom);
  if (!l || l->op != BaselineOp::Compare) return false;
  ETm *x = c->args[0], *y = c->args[1];
  x86::CondCode cc = l->cc;
  if (x->tag == ETag::Lit) {
    std::swap(x, y);
    cc = x86::reverseCond(cc);
  }
  if (x->tag != ETag::Var || x->n >= env_.size() || y->tag != ETag::Lit ||
      env_[env_.size() - 1 - x->n].cls == MType::None)
    return false;
  int64_t k = literal(y);
  if (!fits32(k)) return false;
  f = Fact{env_[env_.size() - 1 - x->n], value ? cc : x86::negateCond(cc), k};
  return true;
}

// The value of c when loop l (a copy) is entered: 1, 0, or -1 (unknown).
// Known when c tests a parameter that starts as a variable of which the
// code around knows it.
int FnGen::atEntry(const Loop& l, ETm* c) {
  Fact f;
  if (!asFact(c, true, f)) return -1;
  for (size_t i = 0; i < l.params.size(); ++i) {
    if (!l.params[i].same(f.home) || l.from[i].kind == Opnd::Imm) continue;
    for (const Fact& g : facts_)
      if (g.home.same(l.from[i]) && g.imm == f.imm) {
        if (g.cc == f.cc) return 1;
        if (g.cc == x86::negateCond(f.cc)) return 0;
      }
  }
  return -1;
}

// The fact known of operand o (a parameter's home), if any.
const ParamFact* FnGen::factOf(const Opnd& o) const {
  if (!useFacts_ || loops_.empty()) return nullptr;
  const Loop& l = *loops_.front();
  for (size_t i = 0; i < l.params.size() && i < pfacts_.size(); ++i)
    if (l.params[i].same(o) && o.kind != Opnd::Imm) return &pfacts_[i];
  return nullptr;
}

// Jumps to `fail` unless the parameters meet their facts (at a back edge,
// `same`: those passed unchanged, and arrays, which are, need no check).
void FnGen::factChecks(const std::vector<Opnd>& params, Label fail, bool backEdge,
                       const std::vector<bool>* same, const std::vector<bool>* immNew) {
  for (size_t i = 0; i < params.size(); ++i) {
    const ParamFact& f = pfacts_[i];
    if (same && (*same)[i]) continue;
    Opnd p = params[i];
    if (f.imm && !(immNew && (*immNew)[i])) {
      a_.emit(x86::Inst::kIdTest, p.op(), asmjit::imm(1));
      a_.jz(fail);
    }
    if (f.below && !backEdge) {
      a_.emit(x86::Inst::kIdCmp, p.op(), asmjit::imm(f.below));
      a_.jae(fail);
    }
    if (f.arr && !backEdge) {
      if (p.kind != Opnd::Reg) {
        a_.emit(x86::Inst::kIdMov, x86::rax, p.op());
        p = regOpnd(x86::rax, false, MType::None);
      }
      a_.test(p.reg.r8(), 7);
      a_.jnz(fail);
      a_.cmp(x86::dword_ptr(p.reg), uint32_t(f.rep));
      a_.jne(fail);
      a_.cmp(x86::dword_ptr(p.reg, 4), f.len);
      a_.jne(fail);
      if (f.rows) rowsCheck(p, f.rows, fail);
    }
  }
}

// Jumps to `fail` unless every element of the array in `p` has the shape
// `code`: known (remembered in the array), or checked out of line.
void FnGen::rowsCheck(const Opnd& p, uint64_t code, Label fail) {
  Label check = a_.newLabel(), done = a_.newLabel();
  a_.cmp(x86::qword_ptr(p.reg, -8), asmjit::imm(int64_t(code)));
  a_.jne(check);
  a_.bind(done);
  coldStart();
  Saves saves = liveSaves({}, true);
  cold_.push_back([this, p, code, check, done, fail, saves] {
    a_.bind(check);
    save(saves);
    a_.mov(x86::rdi, p.reg);
    a_.mov(x86::esi, uint32_t(code & 0x7f));
    a_.mov(x86::edx, uint32_t(code >> 8));
    a_.mov(x86::rax, addr(&thorin_rt_elems_shaped));
    a_.call(x86::rax);
    restore(saves, false); // (not rax)
    a_.test(x86::al, x86::al);
    a_.jz(fail);
    a_.jmp(done);
  });
}

void FnGen::mergeAt(Label l) {
  a_.bind(l);
  belowKnown_.clear();
}

bool FnGen::knownBelow(const Opnd& o, int64_t word) const {
  if (o.kind != Opnd::Reg || o.temp || o.isF()) return false;
  for (auto& [r, w] : belowKnown_)
    if (r == o.reg.id() && uint64_t(w) <= uint64_t(word)) return true;
  return false;
}

void FnGen::checkedBelow(const Opnd& o, int64_t word) {
  if (o.kind == Opnd::Reg && !o.temp && !o.isF()) belowKnown_.push_back({o.reg.id(), word});
}

void FnGen::forgetBelow(const Opnd& o) {
  if (o.kind != Opnd::Reg || o.isF()) return;
  std::erase_if(belowKnown_, [&](auto& e) { return e.first == o.reg.id(); });
}

} // namespace thorin::rt::baseline_gen
