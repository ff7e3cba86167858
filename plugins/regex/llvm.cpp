// The regex plugin's LLVM half (compiled into the LLVM module: the plugin is
// STATIC). `matches`, `count` and `searchFrom` whose pattern is known where
// the code is compiled — a literal given to `re`, or a constant definition
// of one — call that pattern's own matcher (known.hpp): no look-up by the
// pattern's text at each call, the matcher made at the first. The pattern's
// text and the matcher's slot are globals of the module, so that the IR is
// the same from run to run (the code cache).
#include <llvm/IR/Module.h>

#include "core/literal.hpp"
#include "jit/llvm/llvm_lowering.hpp"
#include "known.hpp"
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
  // (KnownSlot: the matcher, null until the first call, and this code's owner)
  auto* slotTy = StructType::get(b.getPtrTy(), b.getInt32Ty());
  auto* slot = new GlobalVariable(
      m, slotTy, false, GlobalValue::InternalLinkage,
      ConstantStruct::get(slotTy, {ConstantPointerNull::get(b.getPtrTy()), b.getInt32(c.owner)}),
      "thorin.regex.matcher");
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

// matches r s with r known: the pattern's matcher, called directly (its
// whole-string DFA two bytes a step: 343 µs for the e-mail benchmark's
// 10,665 lines, against 630 µs for the same DFA as code — a block per
// state, a switch on the byte — whose branches the processor mispredicts
// at every change of character class).
Value* matches(WordCx& c, const Args& a) {
  if (auto text = knownPattern(c, 0)) return callKnown<&thorin_regex_matches>(c, *text, {a[1]});
  return c.slow(a);
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
