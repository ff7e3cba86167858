// Matchers for patterns known where code is compiled: the LLVM half
// (llvm.cpp) calls these entries with a slot of its module that holds the
// pattern's Matcher once the first call has made it, and the pattern's
// text. The matchers are kept for the process (code that names them may
// run until it is dropped): at most kMaxKnown patterns are compiled this
// way, later ones take the primitives' path.
#pragma once
#include <cstdint>
#include <string_view>

namespace thorin::plug::regex {
class Matcher;
constexpr unsigned kMaxKnown = 4096;
/// Whether another pattern may still be compiled for code (lowering time).
bool knownRoom();
/// The matcher of a (valid) pattern known to compiled code, made once.
Matcher& knownMatcher(std::string_view pattern);
} // namespace thorin::plug::regex

extern "C" {
uint64_t thorin_regex_matches(thorin::plug::regex::Matcher** slot, const char* pattern,
                              uint64_t length, uint64_t s);
uint64_t thorin_regex_count(thorin::plug::regex::Matcher** slot, const char* pattern,
                            uint64_t length, uint64_t s);
uint64_t thorin_regex_search_from(thorin::plug::regex::Matcher** slot, const char* pattern,
                                  uint64_t length, uint64_t s, uint64_t from);
}
