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
#include "runtime/primitive.hpp"
#include "simplify.hpp"

namespace thorin::plug::regex {
namespace {

struct Known {
  struct Entry {
    std::unique_ptr<Matcher> matcher;
    uint32_t users = 0; // slots of code not dropped yet that hold it
  };
  std::unordered_map<std::string, Entry> byText;
  std::unordered_map<uint32_t, std::vector<std::string>> byOwner; // the patterns its code holds
};
Known& known() {
  static Known k;
  return k;
}

Matcher* make(const std::string& text) {
  auto t0 = std::chrono::steady_clock::now();
  Pattern p = parse(text); // (parsed where the code was compiled: valid)
  simplify(p);
  auto* m = new Matcher(p);
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (rt::Runtime* r = rt::Runtime::current(); r && r->opts.stats)
    std::fprintf(stderr, "jit: regex %s compiled for code in %.3f ms (%s)\n",
                 unicode::visible(text).c_str(), ms, m->describe().c_str());
  return m;
}

// The slot's matcher: the pattern's, made at its first use in any code.
Matcher& matcher(KnownSlot* slot, const char* pattern, uint64_t length) {
  if (slot->matcher) return *slot->matcher;
  std::string text(pattern, length);
  Known::Entry& e = known().byText[text];
  if (!e.matcher) e.matcher.reset(make(text));
  ++e.users;
  known().byOwner[slot->owner].push_back(std::move(text));
  return *(slot->matcher = e.matcher.get());
}

// Code dropped: its slots go, and a matcher no slot holds any more.
void dropped(const std::vector<uint32_t>& ids) {
  Known& k = known();
  for (uint32_t id : ids) {
    auto it = k.byOwner.find(id);
    if (it == k.byOwner.end()) continue;
    for (const std::string& text : it->second)
      if (auto e = k.byText.find(text); e != k.byText.end() && --e->second.users == 0)
        k.byText.erase(e);
    k.byOwner.erase(it);
  }
}

} // namespace

bool knownRoom() { return known().byText.size() < kMaxKnown; }

void knownHooks() { rt::onCodeDropped(dropped); }

} // namespace thorin::plug::regex

using namespace thorin::plug::regex;
using namespace thorin::rt;

extern "C" {
uint64_t thorin_regex_matches(KnownSlot* slot, const char* pattern, uint64_t length, uint64_t s) {
  return ofBool(matcher(slot, pattern, length).fullMatch(toStr(s)));
}
uint64_t thorin_regex_count(KnownSlot* slot, const char* pattern, uint64_t length, uint64_t s) {
  return imm(int64_t(matcher(slot, pattern, length).count(toStr(s))));
}
uint64_t thorin_regex_search_from(KnownSlot* slot, const char* pattern, uint64_t length, uint64_t s,
                                  uint64_t from) {
  std::string_view text = toStr(s);
  if (!isImm(from) || size_t(immVal(from)) > text.size()) return mkPair(ofI64(-1), ofI64(-1));
  auto m = matcher(slot, pattern, length).search(text, size_t(immVal(from)));
  return m ? mkPair(ofI64(int64_t(m->first)), ofI64(int64_t(m->second)))
           : mkPair(ofI64(-1), ofI64(-1));
}
}
