// One level of a small recursive function inlined into itself, as gcc -O2
// does: LLVM's inliner never inlines a function into itself.
#pragma once
#include <llvm/IR/Module.h>

namespace thorin::rt {

/// For each small function of m that calls itself directly, inlines a copy
/// of its body at those calls; the copy's own calls still call the function.
/// A doubly recursive function (fib) loses half its calls, with their frame
/// set-up and stack check. Returns whether any function changed.
bool inlineSelfCalls(llvm::Module& m);

} // namespace thorin::rt
