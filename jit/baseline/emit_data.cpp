// Data values (fn_gen.hpp): a constructor's object (rt::ConObj) or
// immediate, a field read, and a case as a dispatch on the constructor's
// index (runtime/erase.hpp).
#include "fn_gen.hpp"

#include "runtime/abi.hpp"
#include "runtime/share.hpp"

namespace thorin::rt::baseline_gen {

namespace {
const char kImpossibleCase[] = "internal error: an impossible case";
} // namespace

// A constructor applied to its fields: the object is made first, then each
// field stored as it is computed (moved in, as a pair's components).
// A compact cell (kConCell) has its fields from its start, which is its
// word less its tag.
Opnd FnGen::construct(ETm* t) {
  if (t->n == 0) return immOpnd(wordOf(int64_t(t->prim)), MType::None);
  bool cell = t->flags & kConCell;
  Opnd con = callC(reinterpret_cast<void*>(cell ? &thorin_rt_cell : &thorin_rt_con),
                   {immOpnd(t->prim, MType::None), immOpnd(t->n, MType::None)});
  int32_t first = cell ? -int32_t(cellTag(t->prim)) : 8;
  for (uint32_t i = 0; i < t->n; ++i) {
    Opnd v = as(eval(t->args[i]), MType::None);
    if (v.kind == Opnd::Mem || (v.kind == Opnd::Imm && !fits32(v.imm))) {
      a_.emit(x86::Inst::kIdMov, x86::rax, v.op());
      v = regOpnd(x86::rax, false, MType::None);
    }
    a_.emit(x86::Inst::kIdMov, x86::qword_ptr(con.reg, first + int32_t(8 * i)), v.op());
    release(v);
  }
  return con;
}

// Field t->n of a data value: shared when the value is, or when this read
// is not the variable's last use.
// A compact cell's field is a load (its word less its tag), never shared.
Opnd FnGen::field(ETm* t) {
  Opnd d = inReg(as(eval(t->a), MType::None));
  Opnd r = temp(MType::None);
  Label ofObj = a_.newLabel(), done = a_.newLabel();
  a_.test(d.reg.r8(), int32_t(kCellTagBits));
  a_.jz(ofObj);
  a_.mov(r.reg, d.reg);
  a_.and_(r.reg, int32_t(~15));
  a_.mov(r.reg, x86::qword_ptr(r.reg, int32_t(8 * t->n)));
  a_.jmp(done);
  a_.bind(ofObj);
  a_.mov(r.reg, x86::qword_ptr(d.reg, int32_t(8 + 8 * t->n)));
  Label moved = a_.newLabel();
  a_.test(x86::dword_ptr(d.reg, 4), asmjit::imm(int32_t(kConShared)));
  a_.jz(moved);
  shareWord(r);
  a_.bind(moved);
  if (!(t->flags & kNoShare)) shareWord(r);
  a_.bind(done);
  release(d);
  return r;
}

// Jumps to alts[i] (bound by the caller) for a value of constructor i; an
// index with no alternative (impossible) fails.
void FnGen::dispatch(ETm* t, const std::vector<Label>& alts) {
  Opnd d = inReg(as(eval(t->a), MType::None));
  Opnd ix = temp(MType::I64);
  Label obj = a_.newLabel(), known = a_.newLabel();
  if (t->span != kCaseObjects) {
    if (t->span != kCaseImmediates) {
      a_.test(d.reg.r8(), 1);
      a_.jz(obj);
    }
    a_.mov(ix.reg, d.reg);
    a_.sar(ix.reg, 1);
    a_.jmp(known);
  }
  a_.bind(obj);
  if (t->span != kCaseImmediates) { // (a compact cell's word says it; an object's header does)
    Label header = a_.newLabel();
    a_.mov(ix.reg.r32(), d.reg.r32());
    a_.and_(ix.reg.r32(), int32_t(kCellTagBits));
    a_.jz(header);
    a_.shr(ix.reg.r32(), 1);
    a_.dec(ix.reg.r32());
    a_.jmp(known);
    a_.bind(header);
    a_.mov(ix.reg.r32(), x86::dword_ptr(d.reg, 4));
    a_.and_(ix.reg.r32(), int32_t(kConIndex));
  }
  a_.bind(known);
  release(d);
  for (uint32_t i = 0; i < t->n; ++i)
    if (t->args[i]->tag != ETag::Erased) {
      a_.cmp(ix.reg, int32_t(i));
      a_.je(alts[i]);
    }
  release(ix);
  Opnd r = callC(reinterpret_cast<void*>(&thorin_rt_fail),
                 {immOpnd(int64_t(reinterpret_cast<intptr_t>(kImpossibleCase)), MType::None),
                  immOpnd(0, MType::None)});
  release(r);
}

// A case's value.
Opnd FnGen::caseOf(ETm* t) {
  Opnd r = temp(classOf(t));
  std::vector<Label> alts;
  for (uint32_t i = 0; i < t->n; ++i)
    alts.push_back(a_.newLabel());
  Label join = a_.newLabel();
  dispatch(t, alts);
  for (uint32_t i = 0; i < t->n; ++i) {
    if (t->args[i]->tag == ETag::Erased) continue;
    mergeAt(alts[i]);
    into(t->args[i], r);
    a_.jmp(join);
  }
  mergeAt(join);
  return r;
}

// A case in tail position of a loop: each alternative in tail position.
bool FnGen::tailCase(ETm* t, bool last) {
  std::vector<Label> alts;
  for (uint32_t i = 0; i < t->n; ++i)
    alts.push_back(a_.newLabel());
  dispatch(t, alts);
  uint32_t lastAlt = 0;
  for (uint32_t i = 0; i < t->n; ++i)
    if (t->args[i]->tag != ETag::Erased) lastAlt = i;
  bool falls = false;
  for (uint32_t i = 0; i < t->n; ++i) {
    if (t->args[i]->tag == ETag::Erased) continue;
    mergeAt(alts[i]);
    falls = tailInto(t->args[i], last && i == lastAlt) || falls;
  }
  return falls;
}

} // namespace thorin::rt::baseline_gen
