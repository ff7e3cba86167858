// Loops whose number of iterations LLVM can bound run without Ctrl-C polls,
// so that its loop passes (vectorization above all) can work on them.
#pragma once
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace thorin::rt {

/// The metadata kind that marks a loop's Ctrl-C poll branch (see loopPoll).
inline const char* const kTickMetadata = "thorin.tick";

/// After O2: each loop poll whose loop LLVM can bound by a symbolic maximum
/// trip count gets the condition "and the loop may run long" (computed once,
/// before the loop), then the loop is unswitched on it, and the short version
/// — with no call left — is rotated, vectorized and cleaned up. Returns
/// whether any loop was changed.
bool unpollBoundedLoops(llvm::Module& m, llvm::FunctionAnalysisManager& fam,
                        llvm::ModuleAnalysisManager& mam);

} // namespace thorin::rt
