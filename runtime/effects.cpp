#include "effects.hpp"

#include <cstdio>
#include <vector>

#include "engine.hpp"
#include "gc.hpp"

namespace thorin::rt {
namespace {

// (Never called as functions: the runner recognises these codes and takes
// the closures apart. Called anyway — by nothing that type checks — they
// run the action, as the runner would.)
V pureCode(Closure* self, const V*) { return self->free[0]; }
V bindCode(Closure* self, const V*) { return runAction(*Runtime::current(), ofObj(self)); }

} // namespace

V mkPure(V x) {
  V c = mkClosure(pureCode, 1, 1);
  static_cast<Closure*>(obj(c))->free[0] = x;
  return c;
}

V mkBind(V m, V k) {
  V c = mkClosure(bindCode, 1, 2);
  auto* o = static_cast<Closure*>(obj(c));
  o->free[0] = m;
  o->free[1] = k;
  return c;
}

V mkAction(Code code, uint32_t span, std::initializer_list<V> args) {
  V c = mkClosure(code, 1, uint32_t(1 + args.size()));
  auto* o = static_cast<Closure*>(obj(c));
  o->free[0] = imm(span);
  uint32_t i = 1;
  for (V a : args)
    o->free[i++] = a;
  return c;
}

bool isAction(V v) { return hasHeader(v) && obj(v)->tag == OTag::Closure; }

V runAction(Runtime& rt, V action) {
  // The continuations of the binds entered and not yet finished: roots.
  std::vector<V, gc::RootAllocator<V>> konts;
  const V unit = imm(0);
  for (;;) {
    poll(); // (Ctrl-C, a change under --watch)
    auto* c = static_cast<Closure*>(obj(action));
    if (c->code == bindCode) {
      konts.push_back(c->free[1]);
      action = c->free[0];
      continue;
    }
    V r = c->code == pureCode ? c->free[0] : c->code(c, &unit);
    if (konts.empty()) return r;
    V k = konts.back();
    konts.pop_back();
    // (Pure code: running it again after a deoptimization repeats no effect.)
    action = rt.retryingDeopts([&] { return apply1(k, r); });
  }
}

void outWrite(std::string_view s) { fwrite_unlocked(s.data(), 1, s.size(), stdout); }

void errWrite(std::string_view s) {
  std::fflush(stdout);
  fwrite_unlocked(s.data(), 1, s.size(), stderr);
}

void flushOutput() { std::fflush(stdout); }

} // namespace thorin::rt
