// Printing core terms with the user's names: top-level names stay folded,
// bound variables get primes only when a name would be captured.
#pragma once
#include <string>
#include <vector>

#include "syntax.hpp"
#include "world.hpp"

namespace thorin {

/// `ctx` holds the names of the variables in scope, oldest first.
std::string show(const World& w, const Tm* t, std::vector<Name> ctx = {});
/// Surface syntax as the user wrote it, with normalized spacing.
std::string show(const Raw* r);

} // namespace thorin
