// The combinator form of patterns and its normal form (combinators.cpp).
#pragma once
#include <memory>

#include "core/value.hpp"
#include "pattern.hpp"

namespace thorin {
class World;
}

namespace thorin::plug::regex {

/// The tree of a pattern term known while checking (`re "…"` with a known
/// string, or combinators on known arguments), its groups numbered and
/// counted; nullptr if it is not known.
std::unique_ptr<Node> knownTree(World& w, Val* v, uint32_t* groups = nullptr);

/// The normal form of an application of `re` or a combinator to a known
/// pattern, or nullptr (not known, or in normal form already).
Val* normalForm(World& w, Val* application);

} // namespace thorin::plug::regex
