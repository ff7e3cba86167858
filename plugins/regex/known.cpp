#include "known.hpp"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/unicode.hpp"
#include "matcher.hpp"
#include "runtime/engine.hpp"
#include "runtime/heap.hpp"
#include "simplify.hpp"

namespace thorin::plug::regex {
namespace {

std::unordered_map<std::string, std::unique_ptr<Matcher>>& known() {
  static std::unordered_map<std::string, std::unique_ptr<Matcher>> all;
  return all;
}

// The pattern was parsed where the code was compiled: it is valid.
Matcher& matcher(Matcher** slot, const char* pattern, uint64_t length) {
  if (!*slot) *slot = &knownMatcher({pattern, length});
  return **slot;
}

} // namespace

bool knownRoom() { return known().size() < kMaxKnown; }

Matcher& knownMatcher(std::string_view pattern) {
  std::string text(pattern);
  auto& m = known()[text];
  if (!m) {
    auto t0 = std::chrono::steady_clock::now();
    Pattern p = parse(text);
    simplify(p);
    m = std::make_unique<Matcher>(p);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (rt::Runtime* r = rt::Runtime::current(); r && r->opts.stats)
      std::fprintf(stderr, "jit: regex %s compiled for code in %.3f ms (%s)\n",
                   unicode::visible(text).c_str(), ms, m->describe().c_str());
  }
  return *m;
}

} // namespace thorin::plug::regex

using namespace thorin::plug::regex;
using namespace thorin::rt;

extern "C" {
uint64_t thorin_regex_matches(Matcher** slot, const char* pattern, uint64_t length, uint64_t s) {
  return ofBool(matcher(slot, pattern, length).fullMatch(toStr(s)));
}
uint64_t thorin_regex_count(Matcher** slot, const char* pattern, uint64_t length, uint64_t s) {
  return imm(int64_t(matcher(slot, pattern, length).count(toStr(s))));
}
uint64_t thorin_regex_search_from(Matcher** slot, const char* pattern, uint64_t length, uint64_t s,
                                  uint64_t from) {
  std::string_view text = toStr(s);
  if (!isImm(from) || size_t(immVal(from)) > text.size()) return mkPair(ofI64(-1), ofI64(-1));
  auto m = matcher(slot, pattern, length).search(text, size_t(immVal(from)));
  return m ? mkPair(ofI64(int64_t(m->first)), ofI64(int64_t(m->second)))
           : mkPair(ofI64(-1), ofI64(-1));
}
}
