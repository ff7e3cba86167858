// The LLVM tier's lowerings of the NAME plugin, through LLVM's C API
// (jit/llvm/plugin_lowering.h): built into libthorin_NAME_llvm.so, which
// the LLVM tier loads on its first compilation after `.plugin NAME`.
#include "NAME_axioms.hpp"
#include "jit/llvm/plugin_lowering.h"

namespace {

LLVMValueRef diff(LLVMBuilderRef b, const LLVMValueRef* args, unsigned) {
  return LLVMBuildSub(b, args[0], args[1], "diff"); // (no nsw: wraps)
}

} // namespace

extern "C" THORIN_PLUGIN_EXPORT void thorin_plugin_NAME_llvm(const ThorinLlvmRegistrar* r) {
  using thorin::plug::NAME::ax;
  r->lowering(r->cx, thorin::plug::NAME::id(ax::i64_diff), diff);
}
