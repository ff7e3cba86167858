/* The LLVM half of a plugin outside the LLVM module: a library of its own,
 * libthorin_NAME_llvm.so (built from the plugin's llvm.cpp by
 * thorin_add_plugin), which the LLVM tier loads into its address space once
 * the plugin is loaded and its first compilation comes. It emits code through
 * LLVM's stable C API (llvm-c/Core.h), whose functions the LLVM module
 * exports: the C++ API inside the module is private to it (statically
 * linked, hidden, so that loading LLVM takes ~2 ms).
 *
 * The library exports
 *     void thorin_plugin_NAME_llvm(const ThorinLlvmRegistrar* r);
 * which calls r->lowering once per machine-typed axiom it inlines. */
#ifndef THORIN_PLUGIN_LOWERING_H
#define THORIN_PLUGIN_LOWERING_H

#include <llvm-c/Core.h>
#include <stdint.h>

#define THORIN_LLVM_ABI 1

#ifdef __cplusplus
extern "C" {
#endif

/* Emits the axiom on its unboxed operands (i64 for I64, double for F64, i1
 * for Bool, in the order of its explicit arguments) at the builder's
 * position, and returns the result (of the axiom's machine result type). */
typedef LLVMValueRef (*ThorinLowering)(LLVMBuilderRef b, const LLVMValueRef* args, unsigned n);

typedef struct ThorinLlvmRegistrar {
  unsigned abi; /* THORIN_LLVM_ABI */
  void* cx;
  void (*lowering)(void* cx, uint32_t axiom, ThorinLowering fn);
} ThorinLlvmRegistrar;

#ifdef __cplusplus
}
#endif

#endif
