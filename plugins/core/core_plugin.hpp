// The core plugin: builtin data (Nat, Bool, Unit, I64, F64, String, arrays)
// as axioms with normalizers. Declarations: core.thorin next to this file.
#pragma once

namespace thorin::plugins {
/// Registers the normalizers and operators of `%core` (idempotent).
void registerCore();
} // namespace thorin::plugins

namespace thorin::plugins {
/// Registers the run-time implementations of `%core`'s axioms (idempotent).
void registerCoreRuntime();
} // namespace thorin::plugins

namespace thorin::plugins {
/// Registers the baseline tier's lowerings of `%core`'s I64 and Bool axioms.
void registerCoreBaselineLowerings();
/// Registers the LLVM lowerings of `%core`'s machine-typed axioms.
void registerCoreLowerings();
} // namespace thorin::plugins
