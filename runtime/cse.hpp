// Common subterms of erased bodies computed once (`set a (idx (k % n))
// (get a (idx (k % n)) + 1)` becomes `let i = idx (k % n); set a i (get a i
// + 1)`), for every tier: run before the sharing analysis.
#pragma once
#include "core/arena.hpp"
#include "erase.hpp"

namespace thorin::rt {

/// `t` with each primitive expression that a term evaluates first (after
/// variables and literals only, so that no error is raised earlier than
/// before) and evaluates again elsewhere in it bound once by a `let`.
/// Primitives are pure, so the value is the same; only expressions on
/// variables, literals and globals are shared, under no binder. Copies what
/// it changes; `t` is left as it is.
ETm* shareCommonSubterms(Arena& arena, ETm* t);

} // namespace thorin::rt
