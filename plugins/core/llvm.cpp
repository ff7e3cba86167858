// LLVM lowerings of the core plugin's machine-typed axioms (I64, F64, Bool),
// used by the JIT's unboxed workers. I64 wraps (no nsw); division checks
// for zero (a located run-time error) and wraps INT64_MIN / -1.
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include "core_axioms.hpp"
#include "jit/llvm/llvm_lowering.hpp"

namespace thorin::plug::core {
namespace {

using namespace llvm;
using rt::LowerCx;
using Args = std::vector<Value*>;

Value* add(LowerCx& c, const Args& a) { return c.b.CreateAdd(a[0], a[1]); }
Value* sub(LowerCx& c, const Args& a) { return c.b.CreateSub(a[0], a[1]); }
Value* mul(LowerCx& c, const Args& a) { return c.b.CreateMul(a[0], a[1]); }

// if (y == 0) fail(msg); then the wrapping quotient/remainder.
template <bool Mod> Value* div(LowerCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  Function* f = b.GetInsertBlock()->getParent();
  BasicBlock* bad = BasicBlock::Create(b.getContext(), "divzero", f);
  BasicBlock* ok = BasicBlock::Create(b.getContext(), "div", f);
  b.CreateCondBr(b.CreateICmpEQ(a[1], b.getInt64(0)), bad, ok);
  b.SetInsertPoint(bad);
  b.CreateCall(c.fail, {b.CreateGlobalStringPtr(Mod ? "remainder by zero" : "division by zero"),
                        b.getInt32(c.span)});
  b.CreateUnreachable();
  b.SetInsertPoint(ok);
  Value* m1 = b.CreateICmpEQ(a[1], b.getInt64(-1));
  Value* d = b.CreateSelect(m1, b.getInt64(1), a[1]);
  if (Mod) return b.CreateSelect(m1, b.getInt64(0), b.CreateSRem(a[0], d));
  return b.CreateSelect(m1, b.CreateNeg(a[0]), b.CreateSDiv(a[0], d));
}

template <CmpInst::Predicate P> Value* icmp(LowerCx& c, const Args& a) {
  return c.b.CreateICmp(P, a[0], a[1]);
}
template <CmpInst::Predicate P> Value* fcmp(LowerCx& c, const Args& a) {
  return c.b.CreateFCmp(P, a[0], a[1]);
}
Value* fadd(LowerCx& c, const Args& a) { return c.b.CreateFAdd(a[0], a[1]); }
Value* fsub(LowerCx& c, const Args& a) { return c.b.CreateFSub(a[0], a[1]); }
Value* fmul(LowerCx& c, const Args& a) { return c.b.CreateFMul(a[0], a[1]); }
Value* fdiv(LowerCx& c, const Args& a) { return c.b.CreateFDiv(a[0], a[1]); }
Value* fsqrt(LowerCx& c, const Args& a) { return c.b.CreateUnaryIntrinsic(Intrinsic::sqrt, a[0]); }
Value* i2f(LowerCx& c, const Args& a) { return c.b.CreateSIToFP(a[0], c.b.getDoubleTy()); }

// Math on F64: LLVM's intrinsic where it has one (constant-folded with the
// host's libm, else an instruction or a call of libm's function), or a call
// of libm's function: the primitives' functions (libm.hpp), so that every
// tier computes the same value.
template <Intrinsic::ID id> Value* fmath(LowerCx& c, const Args& a) {
  return c.b.CreateUnaryIntrinsic(id, a[0]);
}
// A call of libm's `name` on F64s. `Pure`: it only reads its arguments
// (-fno-math-errno, as the primitives are built; lgamma also writes
// signgam). Not a builtin: LLVM would rewrite pow(x, 2.0) to x·x and
// pow(x, 0.5) to sqrt, which glibc's pow (within 0.52 ulp, not correctly
// rounded) need not equal.
template <bool Pure> Value* libmCall(LowerCx& c, const char* name, const Args& a) {
  IRBuilder<>& b = c.b;
  Module* m = b.GetInsertBlock()->getModule();
  std::vector<Type*> params(a.size(), b.getDoubleTy());
  FunctionCallee f =
      m->getOrInsertFunction(name, FunctionType::get(b.getDoubleTy(), params, false));
  CallInst* call = b.CreateCall(f, a);
  call->setDoesNotThrow();
  call->addFnAttr(Attribute::NoBuiltin);
  if (Pure) call->setDoesNotAccessMemory();
  return call;
}
Value* fpow(LowerCx& c, const Args& a) { return libmCall<true>(c, "pow", a); }
Value* ftan(LowerCx& c, const Args& a) { return libmCall<true>(c, "tan", a); }
Value* ftanh(LowerCx& c, const Args& a) { return libmCall<true>(c, "tanh", a); }
Value* flgamma(LowerCx& c, const Args& a) { return libmCall<false>(c, "lgamma", a); }

// Bits of an I64: a shift counts modulo 64 (LLVM's shifts by 64 or more are poison).
Value* band(LowerCx& c, const Args& a) { return c.b.CreateAnd(a[0], a[1]); }
Value* bor(LowerCx& c, const Args& a) { return c.b.CreateOr(a[0], a[1]); }
Value* bxor(LowerCx& c, const Args& a) { return c.b.CreateXor(a[0], a[1]); }
Value* bnot(LowerCx& c, const Args& a) { return c.b.CreateNot(a[0]); }
template <Instruction::BinaryOps op> Value* shift(LowerCx& c, const Args& a) {
  return c.b.CreateBinOp(op, a[0], c.b.CreateAnd(a[1], c.b.getInt64(63)));
}

} // namespace

static void registerMachineLowerings() {
  using P = CmpInst::Predicate;
  auto reg = [](ax a, rt::Lowering l) { rt::registerLowering(id(a), l); };
  reg(ax::i64_add, add);
  reg(ax::i64_sub, sub);
  reg(ax::i64_mul, mul);
  reg(ax::i64_div, div<false>);
  reg(ax::i64_mod, div<true>);
  reg(ax::i64_eq, icmp<P::ICMP_EQ>);
  reg(ax::i64_ne, icmp<P::ICMP_NE>);
  reg(ax::i64_lt, icmp<P::ICMP_SLT>);
  reg(ax::i64_le, icmp<P::ICMP_SLE>);
  reg(ax::i64_gt, icmp<P::ICMP_SGT>);
  reg(ax::i64_ge, icmp<P::ICMP_SGE>);
  reg(ax::bool_eq, icmp<P::ICMP_EQ>);
  reg(ax::bool_ne, icmp<P::ICMP_NE>);
  reg(ax::f64_add, fadd);
  reg(ax::f64_sub, fsub);
  reg(ax::f64_mul, fmul);
  reg(ax::f64_div, fdiv);
  reg(ax::f64_eq, fcmp<P::FCMP_OEQ>);
  reg(ax::f64_ne, fcmp<P::FCMP_UNE>);
  reg(ax::f64_lt, fcmp<P::FCMP_OLT>);
  reg(ax::f64_le, fcmp<P::FCMP_OLE>);
  reg(ax::f64_gt, fcmp<P::FCMP_OGT>);
  reg(ax::f64_ge, fcmp<P::FCMP_OGE>);
  reg(ax::f64_sqrt, fsqrt);
  reg(ax::f64_exp, fmath<Intrinsic::exp>);
  reg(ax::f64_log, fmath<Intrinsic::log>);
  reg(ax::f64_sin, fmath<Intrinsic::sin>);
  reg(ax::f64_cos, fmath<Intrinsic::cos>);
  reg(ax::f64_pow, fpow);
  reg(ax::f64_floor, fmath<Intrinsic::floor>);
  reg(ax::f64_ceil, fmath<Intrinsic::ceil>);
  reg(ax::f64_abs, fmath<Intrinsic::fabs>);
  reg(ax::f64_tan, ftan);
  reg(ax::f64_tanh, ftanh);
  reg(ax::f64_lgamma, flgamma);
  reg(ax::i64_and, band);
  reg(ax::i64_or, bor);
  reg(ax::i64_xor, bxor);
  reg(ax::i64_not, bnot);
  reg(ax::i64_shl, shift<Instruction::Shl>);
  reg(ax::i64_shr, shift<Instruction::AShr>);
  reg(ax::i64_ushr, shift<Instruction::LShr>);
  reg(ax::conv_i64ToF64, i2f);
}

} // namespace thorin::plug::core

// Fast paths on words -------------------------------------------------------
namespace thorin::plug::core {
namespace {

using rt::WordCx;

// if (cond) fast else the primitive's run-time implementation.
template <class Fast> Value* fastOr(WordCx& c, Value* cond, const Args& args, Fast fast) {
  return rt::likelyOr(c.b, cond, fast, [&] {
    Value* w = c.slow(args);
    return c.result == rt::MType::None ? w : c.unbox(w, c.result);
  });
}

Value* bothImm(IRBuilder<>& b, Value* x, Value* y) {
  return b.CreateICmpNE(b.CreateAnd(b.CreateAnd(x, y), b.getInt64(1)), b.getInt64(0));
}

// Nat immediates are 2k+1 with k < 2^62. Speculating code assumes they stay
// immediates (a Nat of 2^62 or more deoptimizes); other code calls the
// primitive for big ones.
// A speculating worker checks a Nat parameter once, at its entry, against a
// tighter bound (an immediate below 2^61), and tells LLVM so: the checks of
// the operations on a loop counter derived from it then fold away instead of
// staying in the loop (the entry check fails only where speculation would
// fail soon anyway).
void smallNatAtEntry(WordCx& c, const Args& a) {
  if (!c.deoptAtEntry) return;
  constexpr uint64_t kKey = uint64_t(1) << 63 | 1; // (array checks use other keys)
  auto small = [](IRBuilder<>& hb, Value* w) {
    return hb.CreateAnd(hb.CreateICmpNE(hb.CreateAnd(w, 1), hb.getInt64(0)),
                        hb.CreateICmpULT(w, hb.getInt64(int64_t(1) << 62)));
  };
  auto facts = [&](IRBuilder<>& hb, Value* w) { hb.CreateAssumption(small(hb, w)); };
  for (Value* x : a)
    c.deoptAtEntry(x, kKey, small, rt::DeoptReason::BigNatParam, facts);
}

Value* natAdd(WordCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  smallNatAtEntry(c, a);
  Value* sum = b.CreateSub(b.CreateAdd(a[0], a[1]), b.getInt64(1));
  // Still small when the tagged sum is below 2^63 (k < 2^62).
  Value* ok = b.CreateAnd(bothImm(b, a[0], a[1]), b.CreateICmpSGE(sum, b.getInt64(0)));
  if (c.deopt) {
    rt::expectOr(b, ok, [&] { c.deopt(rt::DeoptReason::BigNat); });
    return sum;
  }
  return fastOr(c, ok, a, [&] { return sum; });
}
// The fast path when both are immediates (`fast` may assume it).
template <class Fast> Value* onImms(WordCx& c, const Args& a, Fast fast) {
  smallNatAtEntry(c, a);
  Value* imms = bothImm(c.b, a[0], a[1]);
  if (!c.deopt) return fastOr(c, imms, a, fast);
  rt::expectOr(c.b, imms, [&] { c.deopt(rt::DeoptReason::BigNat); });
  return fast();
}
Value* natSub(WordCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  return onImms(c, a, [&] {
    Value* d = b.CreateAdd(b.CreateSub(a[0], a[1]), b.getInt64(1));
    return b.CreateSelect(b.CreateICmpUGE(a[0], a[1]), d, b.getInt64(1));
  });
}
template <CmpInst::Predicate P> Value* natCmp(WordCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  // Speculating, both are immediates below 2^63: the signed comparison is
  // the same, and agrees with the (signed) facts LLVM keeps about additions.
  CmpInst::Predicate q = c.deopt ? ICmpInst::getSignedPredicate(P) : P;
  return onImms(c, a, [&] {
    Value* r = b.CreateZExt(b.CreateICmp(q, a[0], a[1]), b.getInt64Ty());
    return b.CreateOr(b.CreateShl(r, 1), b.getInt64(1));
  });
}
// a·b, a / b, a mod b on immediates: the product while below 2^62, the
// quotient and remainder while the divisor is not 0; the rest through the
// primitive (its error for a zero divisor). Speculating, a product of 2^62
// or more deoptimizes, as a sum does.
enum class NatArith { Mul, Div, Mod };
template <NatArith Op> Value* natArith(WordCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  smallNatAtEntry(c, a);
  Value* x = b.CreateLShr(a[0], 1);
  Value* y = b.CreateLShr(a[1], 1);
  auto word = [&](Value* v) { return b.CreateOr(b.CreateShl(v, 1), b.getInt64(1)); };
  Value* imms = bothImm(b, a[0], a[1]);
  if (Op == NatArith::Mul) {
    Value* mul = b.CreateBinaryIntrinsic(Intrinsic::umul_with_overflow, x, y);
    Value* prod = b.CreateExtractValue(mul, 0);
    Value* small = b.CreateAnd(b.CreateNot(b.CreateExtractValue(mul, 1)),
                               b.CreateICmpULT(prod, b.getInt64(int64_t(1) << 62)));
    if (c.deopt) {
      rt::expectOr(b, b.CreateAnd(imms, small), [&] { c.deopt(rt::DeoptReason::BigNat); });
      return word(prod);
    }
    return fastOr(c, b.CreateAnd(imms, small), a, [&] { return word(prod); });
  }
  auto quot = [&] { return word(Op == NatArith::Div ? b.CreateUDiv(x, y) : b.CreateURem(x, y)); };
  Value* nonzero = b.CreateICmpNE(y, b.getInt64(0));
  if (c.deopt) {
    rt::expectOr(b, imms, [&] { c.deopt(rt::DeoptReason::BigNat); });
    rt::expectOr(b, nonzero, [&] { c.slow(a); });
    return quot();
  }
  return fastOr(c, b.CreateAnd(imms, nonzero), a, quot);
}
Value* idxOf(WordCx& c, const Args& a) { // {n} k: k when k < n
  IRBuilder<>& b = c.b;
  if (c.deopt) { // on immediates, k ≥ n is the primitive's run-time error
    return onImms(c, a, [&] {
      rt::expectOr(b, b.CreateICmpSLT(a[1], a[0]), [&] { c.slow(a); });
      return a[1];
    });
  }
  Value* ok = b.CreateAnd(bothImm(b, a[0], a[1]), b.CreateICmpULT(a[1], a[0]));
  return fastOr(c, ok, a, [&] { return a[1]; });
}
Value* idxToNat(WordCx&, const Args& a) { return a[1]; }
// An array's header (representation, length) never changes once built:
// invariant loads, which LLVM may hoist out of loops and merge. Its
// elements do (`set` of an unshared array writes in place, here or in a
// callee the array was handed to): ordinary loads, tagged as elements so
// that readFrom finds them (an invariant load could even be re-read after
// the write, by the register allocator's rematerialisation).
LoadInst* invariantLoad(IRBuilder<>& b, Type* ty, Value* ptr) {
  LoadInst* l = b.CreateLoad(ty, ptr);
  l->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(b.getContext(), {}));
  return l;
}
constexpr const char* kElemMetadata = "thorin.elem";
LoadInst* elemLoad(IRBuilder<>& b, Type* ty, Value* ptr) {
  LoadInst* l = b.CreateLoad(ty, ptr);
  l->setMetadata(kElemMetadata, MDNode::get(b.getContext(), {}));
  l->setAlignment(Align(8));
  return l;
}
Value* arrLen(IRBuilder<>& b, Value* p) {
  return b.CreateZExt(invariantLoad(b, b.getInt32Ty(), b.CreateConstGEP1_64(b.getInt32Ty(), p, 1)),
                      b.getInt64Ty());
}
// The array whose element `w` was read by a speculating `get` on words
// (the fast path's element load at an offset from it), if any.
Value* readFrom(Value* w) {
  auto* l = dyn_cast<LoadInst>(w);
  if (!l || !l->getType()->isIntegerTy(64) || !l->getMetadata(kElemMetadata)) return nullptr;
  auto* g = dyn_cast<GetElementPtrInst>(l->getPointerOperand());
  if (!g || !g->getSourceElementType()->isIntegerTy(8)) return nullptr;
  auto* p = dyn_cast<IntToPtrInst>(g->getPointerOperand());
  return p ? p->getOperand(0) : nullptr;
}
// A row of an array parameter (`get (get m i) j`): instead of each row's
// header (a cache line apart from the element read), m's memory of its rows'
// shape (rt::arrShapeMemo, on m's own line), which the worker's entry has
// set by checking every row of m's entry value (rt::arrElemsShaped). The
// condition to test at the read, or nullptr (m is no parameter). (Another
// matrix at a back edge was not checked: unless it was before, it deoptimizes.)
Value* rowsChecked(WordCx& c, Value* row, rt::OTag rep, uint32_t len) {
  Value* m = readFrom(row);
  if (!m || !c.deoptAtEntry) return nullptr;
  auto rowsOk = [rep, len](IRBuilder<>& hb, Value* arr) {
    Module* mod = hb.GetInsertBlock()->getModule();
    FunctionCallee f = mod->getOrInsertFunction(
        "thorin_rt_elems_shaped",
        FunctionType::get(hb.getInt32Ty(), {hb.getInt64Ty(), hb.getInt32Ty(), hb.getInt32Ty()},
                          false));
    Value* r = hb.CreateCall(f, {arr, hb.getInt32(uint32_t(rep)), hb.getInt32(len)});
    return hb.CreateICmpNE(r, hb.getInt32(0));
  };
  uint64_t key = uint64_t(1) << 62 | rt::arrShapeCode(rep, len);
  if (!c.deoptAtEntry(m, key, rowsOk, rt::DeoptReason::ArrayRep, nullptr)) return nullptr;
  IRBuilder<>& b = c.b;
  Value* at = b.CreateConstGEP1_64(b.getInt8Ty(), b.CreateIntToPtr(m, b.getPtrTy()), -8);
  LoadInst* memo = b.CreateLoad(b.getInt64Ty(), at); // (not invariant: the entry writes it)
  memo->setAlignment(Align(8));
  return b.CreateICmpEQ(memo, b.getInt64(int64_t(rt::arrShapeCode(rep, len))));
}

// {A} {n} arr i. The fast path reads the representation A's machine type
// implies (raw int64 or double for I64 and F64, a word otherwise); any other
// representation, and an index out of range, take the primitive.
Value* arrGet(WordCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  rt::MType m = c.hint == rt::MType::I64 || c.hint == rt::MType::F64 ? c.hint : rt::MType::None;
  rt::OTag rep = m == rt::MType::I64   ? rt::OTag::ArrI64
                 : m == rt::MType::F64 ? rt::OTag::ArrF64
                                       : rt::OTag::Arr;
  Value* p = b.CreateIntToPtr(a[2], b.getPtrTy());
  Value* i = b.CreateLShr(a[3], 1);
  Value* header = invariantLoad(b, b.getInt64Ty(), p); // tag, then length
  Value* repOk = b.CreateICmpEQ(b.CreateTrunc(header, b.getInt32Ty()), b.getInt32(uint32_t(rep)));
  Value* inRange = b.CreateICmpULT(i, b.CreateLShr(header, 32));
  Type* ty = m == rt::MType::F64 ? b.getDoubleTy() : b.getInt64Ty();
  c.result = m;
  // Element k of the index word 2k+1 is at byte 8 + 8k = 4·(2k+1) + 4: an
  // address linear in the word (no shift), so that LLVM sees the reads of
  // `get xs (idx (j + 1))`, `get xs (idx (j + 2))`… as consecutive.
  auto load = [&] {
    Value* off = b.CreateAdd(b.CreateShl(a[3], 2), b.getInt64(4));
    return elemLoad(b, ty, b.CreateGEP(b.getInt8Ty(), p, off));
  };
  if (c.deopt) { // (an index out of range is the primitive's run-time error)
    // A length known from the type (`Array 1024 A`): checked against the
    // header once, the index is then compared with a constant, which LLVM
    // can prove from the `idx` that made it.
    auto* n = dyn_cast<ConstantInt>(a[1]);
    bool known = n && (n->getZExtValue() & 1);
    Value* len = known ? b.getInt64(n->getZExtValue() >> 1) : nullptr;
    auto headerOk = [&](IRBuilder<>& hb, Value* arr) {
      Value* h = invariantLoad(hb, hb.getInt64Ty(), hb.CreateIntToPtr(arr, hb.getPtrTy()));
      Value* ok = hb.CreateICmpEQ(hb.CreateTrunc(h, hb.getInt32Ty()), hb.getInt32(uint32_t(rep)));
      return known ? hb.CreateAnd(ok, hb.CreateICmpEQ(hb.CreateLShr(h, 32), len)) : ok;
    };
    if (known) inRange = b.CreateICmpULT(i, len);
    // Elements of unknown type (a polymorphic reader) may come in any
    // representation: that is not a failed speculation. Of a known type
    // (matmul's rows, `Array 256 (Array 256 F64)`) the array is speculated
    // to have the representation the type implies, as raw ones are: its
    // check then leaves the loop (checked at the worker's entry).
    if (m != rt::MType::None || c.concreteType) {
      // Past the check at entry, the whole array may be read anywhere in the
      // function: loads of a loop-invariant element can leave the loop.
      auto readable = [&](IRBuilder<>& hb, Value* arr) {
        if (!known) return;
        Value* ptr = hb.CreateIntToPtr(arr, hb.getPtrTy());
        uint64_t bytes = 8 * (n->getZExtValue() / 2 + 1);
        hb.CreateAssumption(
            hb.getTrue(),
            {OperandBundleDef("dereferenceable", std::vector<Value*>{ptr, hb.getInt64(bytes)}),
             OperandBundleDef("align", std::vector<Value*>{ptr, hb.getInt64(8)})});
      };
      if (c.deoptAtEntry) {
        // (First that the word is a pointer at all: this check runs before
        // anything is known of the path to the `get`.)
        auto pointer = [](IRBuilder<>& hb, Value* w) {
          return hb.CreateAnd(hb.CreateICmpEQ(hb.CreateAnd(w, 7), hb.getInt64(0)),
                              hb.CreateICmpNE(w, hb.getInt64(0)));
        };
        c.deoptAtEntry(a[2], ~uint64_t(0), pointer, rt::DeoptReason::ArrayRep, nullptr);
        uint64_t key = uint64_t(rep) << 32 | (known ? n->getZExtValue() : 0);
        c.deoptAtEntry(a[2], key, headerOk, rt::DeoptReason::ArrayRep, readable);
      }
      Value* rowsOk = known ? rowsChecked(c, a[2], rep, uint32_t(n->getZExtValue() >> 1)) : nullptr;
      rt::expectOr(b, rowsOk ? rowsOk : headerOk(b, a[2]),
                   [&] { c.deopt(rt::DeoptReason::ArrayRep); });
      rt::expectOr(b, inRange, [&] { c.slow(a); });
      return load();
    }
    if (known) repOk = headerOk(b, a[2]);
  }
  return fastOr(c, b.CreateAnd(repOk, inRange), a, load);
}
// {A} {n} arr i x, with typed arguments (x in its machine type). An array
// nothing else refers to, in the representation A implies, is written in
// place (its shape memo reset: the new element may have another shape);
// a shared one, another representation or an index out of range take the
// primitive, which copies or fails.
Value* arrSet(WordCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  rt::MType m = c.hint == rt::MType::I64 || c.hint == rt::MType::F64 ? c.hint : rt::MType::None;
  rt::OTag rep = m == rt::MType::I64   ? rt::OTag::ArrI64
                 : m == rt::MType::F64 ? rt::OTag::ArrF64
                                       : rt::OTag::Arr;
  Args w(a.size());
  for (size_t k = 0; k < a.size(); ++k)
    w[k] = k == 4 ? a[k] : c.box(a[k], c.argTypes[k]); // (x: boxed on the slow path only)
  Value* p = b.CreateIntToPtr(w[2], b.getPtrTy());
  Value* header = invariantLoad(b, b.getInt64Ty(), p);
  Value* flags = b.CreateLoad(b.getInt64Ty(), b.CreateConstGEP1_64(b.getInt64Ty(), p, -2));
  Value* ok =
      b.CreateAnd(b.CreateICmpEQ(b.CreateTrunc(header, b.getInt32Ty()), b.getInt32(uint32_t(rep))),
                  b.CreateICmpULT(b.CreateLShr(w[3], 1), b.CreateLShr(header, 32)));
  ok = b.CreateAnd(ok, b.CreateICmpEQ(b.CreateAnd(flags, rt::kArrShared), b.getInt64(0)));
  if (m == rt::MType::I64 && c.argTypes[4] == rt::MType::None) // (a word: small I64 only)
    ok = b.CreateAnd(ok, b.CreateICmpNE(b.CreateAnd(a[4], 1), b.getInt64(0)));
  return rt::likelyOr(
      b, ok,
      [&]() -> Value* {
        Value* x = a[4];
        if (m == rt::MType::None)
          x = c.share(c.box(x, c.argTypes[4]));
        else if (c.argTypes[4] == rt::MType::None && m == rt::MType::I64)
          x = b.CreateAShr(x, 1);
        else if (c.argTypes[4] == rt::MType::None)
          x = c.unbox(x, m);
        b.CreateStore(b.getInt64(0), b.CreateConstGEP1_64(b.getInt64Ty(), p, -1)); // shape memo
        Value* off = b.CreateAdd(b.CreateShl(w[3], 2), b.getInt64(4));
        b.CreateStore(x, b.CreateGEP(b.getInt8Ty(), p, off))->setAlignment(Align(8));
        return w[2];
      },
      [&] {
        w[4] = c.box(a[4], c.argTypes[4]);
        return c.slow(w);
      });
}
// s i: byte i of string s (its length in the header, its bytes after it)
// when i is an immediate in range; else the primitive's located error.
Value* strAt(WordCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  Value* p = b.CreateIntToPtr(a[0], b.getPtrTy());
  Value* i = b.CreateLShr(a[1], 1);
  // (The length changes when an unshared string is appended to in place:
  // an ordinary load. Bytes below it never change.)
  Value* len = b.CreateZExt(
      b.CreateLoad(b.getInt32Ty(), b.CreateConstGEP1_64(b.getInt32Ty(), p, 1)), b.getInt64Ty());
  Value* ok =
      b.CreateAnd(b.CreateICmpNE(b.CreateAnd(a[1], 1), b.getInt64(0)), b.CreateICmpULT(i, len));
  return fastOr(c, ok, a, [&] {
    Value* byte = invariantLoad(b, b.getInt8Ty(),
                                b.CreateGEP(b.getInt8Ty(), p, b.CreateAdd(i, b.getInt64(8))));
    return b.CreateOr(b.CreateShl(b.CreateZExt(byte, b.getInt64Ty()), 1), b.getInt64(1));
  });
}
Value* arrLength(WordCx& c, const Args& a) {
  IRBuilder<>& b = c.b;
  Value* len = arrLen(b, b.CreateIntToPtr(a[2], b.getPtrTy()));
  return b.CreateOr(b.CreateShl(len, 1), b.getInt64(1));
}

} // namespace

static void registerWordLowerings() {
  using P = CmpInst::Predicate;
  auto reg = [](ax a, rt::WordLowering l) { rt::registerWordLowering(id(a), l); };
  reg(ax::nat_add, natAdd);
  reg(ax::nat_sub, natSub);
  reg(ax::nat_mul, natArith<NatArith::Mul>);
  reg(ax::nat_div, natArith<NatArith::Div>);
  reg(ax::nat_mod, natArith<NatArith::Mod>);
  reg(ax::nat_eq, natCmp<P::ICMP_EQ>);
  reg(ax::nat_ne, natCmp<P::ICMP_NE>);
  reg(ax::nat_lt, natCmp<P::ICMP_ULT>);
  reg(ax::nat_le, natCmp<P::ICMP_ULE>);
  reg(ax::nat_gt, natCmp<P::ICMP_UGT>);
  reg(ax::nat_ge, natCmp<P::ICMP_UGE>);
  reg(ax::idx_of, idxOf);
  reg(ax::idx_toNat, idxToNat);
  reg(ax::arr_get, arrGet);
  reg(ax::arr_length, arrLength);
  reg(ax::str_at, strAt);
  rt::registerWordLowering(id(ax::arr_set), arrSet, /*typedArgs=*/true);
}

} // namespace thorin::plug::core

namespace thorin::plug::core {
/// The LLVM half of the core plugin, compiled into the LLVM module
/// (thorin_add_plugin(core STATIC)): registered when the module syncs with
/// the plugins the executable has loaded (jit/llvm/llvm_lowering.hpp).
void llvm() {
  registerMachineLowerings();
  registerWordLowerings();
}
} // namespace thorin::plug::core
