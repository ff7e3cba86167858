// Matchers for patterns known where code is compiled: the LLVM half
// (llvm.cpp) calls these entries with a slot of its module — the pattern's
// Matcher once the first call has made it, and the function whose code the
// module is — and the pattern's text. A matcher is made once per distinct
// pattern and goes when the last code that uses it is dropped (codeDropped);
// at most kMaxKnown patterns at a time, later ones take the primitives' path.
#pragma once
#include <cstdint>
#include <string_view>

namespace thorin::plug::regex {
class Matcher;
struct KnownSlot;
constexpr unsigned kMaxKnown = 4096;
/// A module's slot (llvm.cpp lays it out as { ptr, i32 }).
struct KnownSlot {
  Matcher* matcher;
  uint32_t owner;
};
/// Whether another pattern may still be compiled for code (lowering time).
bool knownRoom();
/// Registers the code-dropped hook (prims()).
void knownHooks();
} // namespace thorin::plug::regex

extern "C" {
uint64_t thorin_regex_matches(thorin::plug::regex::KnownSlot* slot, const char* pattern,
                              uint64_t length, uint64_t s);
uint64_t thorin_regex_count(thorin::plug::regex::KnownSlot* slot, const char* pattern,
                            uint64_t length, uint64_t s);
uint64_t thorin_regex_search_from(thorin::plug::regex::KnownSlot* slot, const char* pattern,
                                  uint64_t length, uint64_t s, uint64_t from);
}
