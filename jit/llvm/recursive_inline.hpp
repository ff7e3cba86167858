// Small recursive functions inlined into themselves a few levels deep, as
// gcc -O2 does: LLVM's inliner never inlines a function into itself.
#pragma once
#include <llvm/IR/Module.h>

namespace thorin::rt {

/// For each small function of m that calls itself directly, inlines copies
/// of its (optimized) body at those calls, level by level: each copy's own
/// calls get the next level's copies, the last level's still call the
/// function. After tail-call elimination a copy is a loop, so fib becomes a
/// nest of accumulating loops that calls itself only at the innermost one.
/// Returns whether any function changed.
bool inlineSelfCalls(llvm::Module& m);

} // namespace thorin::rt
