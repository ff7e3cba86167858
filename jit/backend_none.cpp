// Without LLVM (THORIN_JIT=OFF builds): tier 1 is absent.
#include "runtime.hpp"

namespace thorin::rt {
std::unique_ptr<Backend> makeBackend(const JitOptions&) { return nullptr; }
} // namespace thorin::rt
