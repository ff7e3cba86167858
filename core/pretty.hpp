// Printing core terms with the user's names: top-level names stay folded,
// bound variables get primes only when a name would be captured.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "syntax.hpp"
#include "world.hpp"

namespace thorin {

/// `ctx` holds the names of the variables in scope, oldest first. A term
/// longer than `limit` bytes is cut there, with "…" (printing stops early).
std::string show(const World& w, const Tm* t, std::vector<Name> ctx = {},
                 size_t limit = SIZE_MAX);
/// The limit of a term shown in a diagnostic (as source lines have theirs):
/// an error about a huge term stays readable, and printing it stays cheap.
constexpr size_t kShownTermLimit = 1000;
/// How a metavariable prints: a goal as its user named it (`?todo`), any
/// other (and an anonymous goal `?`) by number (`?12`).
std::string metaName(const World& w, uint32_t m);
/// Surface syntax as the user wrote it, with normalized spacing.
std::string show(const Raw* r);

} // namespace thorin
