// Which functions the baseline tier compiles, and their signatures
// (module_gen.hpp).
#include "module_gen.hpp"

#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

// asmjit's register allocation grew faster than the code; this one does not,
// but a function this large is LLVM's to compile.
constexpr size_t kMaxNodes = 1000;

// Parameters and result: I64, F64 or words (a lifted λ's free variables and
// parameters are all words). Bool in a signature is left to LLVM (its
// worker passes an i1).
bool ModuleGen::sigOf(TopId g, FnSig& s) {
  Global& gl = rt.erased(g);
  MachineSig ms = rt.machineSig(g);
  if (ms.known) {
    if (ms.params.size() != gl.arity) return false;
    s.params = ms.params;
    s.result = ms.result;
  } else if (isSpec(g) && rt.spec(g).lifted) {
    s.params.assign(gl.arity, MType::None);
    s.result = MType::None;
  } else {
    return false;
  }
  size_t gp = 0, fp = 0;
  for (MType m : s.params) {
    if (m == MType::Bool) return false;
    (m == MType::F64 ? fp : gp) += 1;
  }
  return s.result != MType::Bool && gp <= 6 && fp <= 6;
}

bool ModuleGen::eligible(TopId g) {
  if ((isSpec(g) && !rt.spec(g).lifted) || rt.global(g).compileFailed || rt.global(g).tooLarge == 1)
    return false;
  Global& gl = rt.erased(g);
  if (!gl.body || gl.body->tag != ETag::Lam || gl.arity == 0 || gl.arity > 6 ||
      gl.body->n != gl.arity || !gl.specsUsed.empty())
    return false;
  if (countNodes(gl.body, kMaxNodes) > kMaxNodes) return false;
  FnSig s;
  if (!sigOf(g, s)) return false;
  sigs[g] = std::move(s);
  return true;
}

} // namespace thorin::rt::baseline_gen
