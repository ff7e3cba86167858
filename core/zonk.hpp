// Zonking: replace solved metas in an elaborated term by their solutions
// (β-reducing the meta's spine), leaving everything else as the user wrote it.
#pragma once
#include "world.hpp"

namespace thorin {

/// `t` lives in a context of `lvl` variables; the result is allocated in `out`.
Tm* zonk(World& w, Arena& out, Tm* t, Lvl lvl = 0);

} // namespace thorin
