// The LLVM tier as the executable sees it: a Tier that loads
// libthorin_llvm.so on its first compilation (libLLVM is large, and most
// runs — `thorin check`, short scripts — never compile).
#pragma once
#include <memory>

#include "runtime/engine.hpp"

namespace thorin::rt {

/// The LLVM tier (nullptr with --jit=off or --jit=baseline).
std::unique_ptr<Tier> makeLlvmTier(const JitOptions& o);

} // namespace thorin::rt
