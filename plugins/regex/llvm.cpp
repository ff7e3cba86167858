// The regex plugin's LLVM half (compiled into the LLVM module: the plugin is
// STATIC). `matches`, `count` and `searchFrom` whose pattern is known where
// the code is compiled — a literal given to `re`, or a constant definition
// of one — call that pattern's own matcher (known.hpp): no look-up by the
// pattern's text at each call, the matcher made at the first. The pattern's
// text and the matcher's slot are globals of the module, so that the IR is
// the same from run to run (the code cache).
#include <unordered_map>

#include <llvm/IR/Module.h>

#include "core/literal.hpp"
#include "jit/llvm/llvm_lowering.hpp"
#include "known.hpp"
#include "matcher.hpp"
#include "pattern.hpp"
#include "regex_axioms.hpp"
#include "runtime/erase.hpp"

namespace thorin::plug::regex {
namespace {

using namespace llvm;
using rt::ETag;
using rt::ETm;
using rt::WordCx;
using Args = std::vector<Value*>;

// The text of argument i when it is `re "…"` known here, and valid.
std::optional<std::string> knownPattern(WordCx& c, size_t i) {
  if (!c.known || i >= c.terms.size() || !knownRoom()) return std::nullopt;
  const ETm* t = c.known(c.terms[i]);
  if (!t || t->tag != ETag::Prim || t->prim != id(ax::re) || t->n != 1) return std::nullopt;
  const ETm* lit = c.known(t->args[0]);
  if (!lit || lit->tag != ETag::Lit || LitKind(lit->n) != LitKind::Str) return std::nullopt;
  std::string text(litStr(lit->big));
  try {
    parse(text);
  } catch (SyntaxError&) {
    return std::nullopt; // (the primitive reports it, located)
  }
  return text;
}

// entry(slot, text, length, args…) for the known pattern.
template <auto Entry> Value* callKnown(WordCx& c, const std::string& text, const Args& rest) {
  IRBuilder<>& b = c.b;
  Module& m = *b.GetInsertBlock()->getModule();
  auto* bytes = ConstantDataArray::getString(m.getContext(), text, false);
  auto* pat = new GlobalVariable(m, bytes->getType(), true, GlobalValue::PrivateLinkage, bytes,
                                 "thorin.regex.pattern");
  auto* slot = new GlobalVariable(m, b.getPtrTy(), false, GlobalValue::InternalLinkage,
                                  ConstantPointerNull::get(b.getPtrTy()), "thorin.regex.matcher");
  std::vector<Type*> params{b.getPtrTy(), b.getPtrTy(), b.getInt64Ty()};
  std::vector<Value*> args{slot, pat, b.getInt64(text.size())};
  for (Value* v : rest) {
    params.push_back(b.getInt64Ty());
    args.push_back(v);
  }
  auto* ty = FunctionType::get(b.getInt64Ty(), params, false);
  Value* fn = b.CreateIntToPtr(b.getInt64(reinterpret_cast<uint64_t>(Entry)), b.getPtrTy());
  return b.CreateCall(ty, fn, args);
}

// The whole-string DFA of a known pattern as code: a block per state that
// reads a byte and branches on it (LLVM turns each state's cases into range
// tests), the end of the string deciding by the state's transition on it.
// i1 @f(ptr bytes, i64 length). Null when the DFA has more than kMaxStates.
constexpr size_t kMaxStates = 64;
Function* directCoded(Module& m, Matcher& matcher) {
  LazyDfa* d = matcher.whole();
  if (!d) return nullptr;
  LazyDfa::S start = d->start(0, {true, false});
  if (!d->explore(kMaxStates) || d->states() > kMaxStates) return nullptr;
  LLVMContext& cx = m.getContext();
  Type* i64 = Type::getInt64Ty(cx);
  auto* f = Function::Create(
      FunctionType::get(Type::getInt1Ty(cx), {PointerType::get(cx, 0), i64}, false),
      GlobalValue::InternalLinkage, "thorin.regex.dfa", m);
  Argument* bytes = f->getArg(0);
  Argument* len = f->getArg(1);
  auto* entry = BasicBlock::Create(cx, "entry", f);
  IRBuilder<> b(entry);
  Value* at = b.CreateAlloca(i64); // (promoted to φs by the optimizer)
  b.CreateStore(b.getInt64(0), at);
  auto* reject = BasicBlock::Create(cx, "reject", f);
  IRBuilder<>(reject).CreateRet(ConstantInt::getFalse(cx));
  std::unordered_map<LazyDfa::S, BasicBlock*> blocks;
  std::vector<LazyDfa::S> work; // (the states given a block, in order)
  auto blockOf = [&](LazyDfa::S s) {
    auto [it, fresh] = blocks.emplace(s, nullptr);
    if (fresh) {
      it->second = BasicBlock::Create(cx, "state", f);
      work.push_back(s);
    }
    return it->second;
  };
  b.CreateBr(blockOf(start));
  for (size_t k = 0; k < work.size(); ++k) {
    LazyDfa::S s = work[k];
    BasicBlock* here = blocks[s];
    b.SetInsertPoint(here);
    Value* i = b.CreateLoad(i64, at);
    auto* more = BasicBlock::Create(cx, "byte", f);
    auto* end = BasicBlock::Create(cx, "end", f);
    b.CreateCondBr(b.CreateICmpULT(i, len), more, end);
    IRBuilder<>(end).CreateRet(ConstantInt::getBool(cx, d->isMatch(d->next(s, d->eot()))));
    b.SetInsertPoint(more);
    Value* c = b.CreateLoad(b.getInt8Ty(), b.CreateGEP(b.getInt8Ty(), bytes, i));
    b.CreateStore(b.CreateAdd(i, b.getInt64(1)), at);
    SwitchInst* sw = b.CreateSwitch(c, reject, 256);
    for (unsigned byte = 0; byte < 256; ++byte)
      if (LazyDfa::S t = d->next(s, d->classOf(uint8_t(byte))); t != LazyDfa::kDead)
        sw->addCase(b.getInt8(uint8_t(byte)), blockOf(t));
  }
  return f;
}

// matches r s with r known: its DFA as code where the DFA takes s, else
// the matcher's call (the Pike VM's cases: \b and "", $ and a final '\n').
Value* matches(WordCx& c, const Args& a) {
  auto text = knownPattern(c, 0);
  if (!text) return c.slow(a);
  IRBuilder<>& b = c.b;
  Matcher& m = knownMatcher(*text);
  Function* dfa = directCoded(*b.GetInsertBlock()->getModule(), m);
  if (!dfa) return callKnown<&thorin_regex_matches>(c, *text, {a[1]});
  Value* str = b.CreateIntToPtr(a[1], b.getPtrTy());
  Value* len = b.CreateZExt(
      b.CreateLoad(b.getInt32Ty(), b.CreateConstGEP1_64(b.getInt8Ty(), str, 4)), b.getInt64Ty());
  Value* bytes = b.CreateConstGEP1_64(b.getInt8Ty(), str, 8);
  Value* pike = b.getFalse();
  if (m.usesWord()) pike = b.CreateICmpEQ(len, b.getInt64(0));
  if (m.usesLineEnd()) {
    Value* last = b.CreateGEP(b.getInt8Ty(), bytes, b.CreateSub(len, b.getInt64(1)));
    Value* nonEmpty = b.CreateICmpNE(len, b.getInt64(0));
    // (a select, not a branch: the byte is read only when there is one)
    Value* lastByte = b.CreateLoad(b.getInt8Ty(), b.CreateSelect(nonEmpty, last, bytes));
    pike = b.CreateOr(pike, b.CreateAnd(nonEmpty, b.CreateICmpEQ(lastByte, b.getInt8('\n'))));
  }
  return rt::ifElse(
      b, pike, [&] { return callKnown<&thorin_regex_matches>(c, *text, {a[1]}); },
      [&] {
        Value* yes = b.CreateCall(dfa, {bytes, len});
        return b.CreateSelect(yes, b.getInt64(rt::imm(1)), b.getInt64(rt::imm(0)));
      });
}
Value* count(WordCx& c, const Args& a) {
  if (auto text = knownPattern(c, 0)) return callKnown<&thorin_regex_count>(c, *text, {a[1]});
  return c.slow(a);
}
Value* searchFrom(WordCx& c, const Args& a) {
  if (auto text = knownPattern(c, 0))
    return callKnown<&thorin_regex_search_from>(c, *text, {a[1], a[2]});
  return c.slow(a);
}

} // namespace

void llvm() {
  rt::registerWordLowering(id(ax::matches), matches);
  rt::registerWordLowering(id(ax::count), count);
  rt::registerWordLowering(id(ax::searchFrom), searchFrom);
}

} // namespace thorin::plug::regex
