#include "nursery.hpp"

#include <cstdio>
#include <cstdlib>
#include <unordered_map>

namespace thorin {

Nursery::Nursery(World& w) : w_(w) {
  scratchMark_ = w.scratch.mark();
  survivorMark_[0] = w.survivors[0].mark();
  survivorMark_[1] = w.survivors[1].mark();
  static const size_t limit = [] {
    const char* s = std::getenv("THORIN_NURSERY_MB");
    long mb = s ? std::atol(s) : 0;
    return size_t(mb > 0 ? mb : 64) << 20;
  }();
  limit_ = limit;
  w.nursery = this;
  w.gen = ++w.lastGen;
  w.cacheLog.clear();
}

Nursery::~Nursery() {
  w_.nursery = nullptr;
  w_.gen = 0;
  w_.cacheLog.clear();
}

bool Nursery::young(const void* p) const {
  return w_.scratch.allocatedSince(scratchMark_, p) ||
         w_.survivors[0].allocatedSince(survivorMark_[0], p) ||
         w_.survivors[1].allocatedSince(survivorMark_[1], p);
}

void Nursery::collect(const std::vector<Root>& roots) {
  int from = w_.survivorsCur, to = 1 - from;
  Arena& dst = w_.survivors[to];
  std::unordered_map<const void*, void*> fwd;
  struct Item {
    uint8_t kind; // 0 Val, 1 Env, 2 Spine
    void* obj;
  };
  std::vector<Item> work;

  auto copy = [&](auto* p, uint8_t kind) -> decltype(p) {
    using T = std::remove_pointer_t<decltype(p)>;
    if (!p || !young(p)) return p;
    auto it = fwd.find(p);
    if (it != fwd.end()) return static_cast<T*>(it->second);
    T* c = dst.make<T>(*p);
    fwd.emplace(p, c);
    work.push_back({kind, c});
    return c;
  };
  auto val = [&](Val* v) { return copy(v, 0); };
  auto env = [&](Env* e) { return copy(e, 1); };
  auto spine = [&](Spine* s) { return copy(s, 2); };

  for (const Root& r : roots) {
    if (r.kind == Root::Value) {
      auto** p = static_cast<Val**>(r.addr);
      *p = val(*p);
    } else {
      auto** p = static_cast<Spine**>(r.addr);
      *p = spine(*p);
    }
  }
  while (!work.empty()) {
    Item it = work.back();
    work.pop_back();
    switch (it.kind) {
    case 0: {
      Val* v = static_cast<Val*>(it.obj);
      switch (v->tag) {
      case VTag::Rigid: v->sp = spine(v->sp); break;
      case VTag::Flex:
      case VTag::Top:
        v->a = nullptr; // a cached unfolding is recomputed when needed
        v->sp = spine(v->sp);
        v->b = val(v->b); // the glued prefix
        break;
      case VTag::Lam: v->env = env(v->env); break;
      case VTag::Pi:
      case VTag::Sigma:
        v->a = val(v->a);
        v->env = env(v->env);
        break;
      case VTag::Pair:
        v->a = val(v->a);
        v->b = val(v->b);
        break;
      case VTag::Arr: // the element array itself lives in perm
        for (uint32_t i = 0; i < v->n; ++i)
          v->elems[i] = val(v->elems[i]);
        break;
      case VTag::Thunk: v->env = env(v->env); break;
      case VTag::U:
      case VTag::Irrelevant:
      case VTag::Lit: break; // strings and big numbers live outside the scratch arena
      }
      break;
    }
    case 1: {
      Env* e = static_cast<Env*>(it.obj);
      e->prev = env(e->prev);
      e->v = val(e->v);
      break;
    }
    default: {
      Spine* s = static_cast<Spine*>(it.obj);
      s->prev = spine(s->prev);
      s->arg = val(s->arg);
      break;
    }
    }
  }
  size_t logged = w_.cacheLog.size();
  // Old values must not keep pointers into the memory about to be reused.
  // (Most logged values are young themselves; test the common case cheaply.)
  for (Val* v : w_.cacheLog)
    if (v->gen != w_.gen) v->a = nullptr;
  w_.cacheLog.clear();
  ++w_.epoch; // drops the World's cached values made in the nursery

  w_.scratch.reset(scratchMark_);
  w_.survivors[from].reset(survivorMark_[from]);
  w_.survivorsCur = to;
  ++collections_;
  static const bool stats = std::getenv("THORIN_GC_STATS") != nullptr;
  if (stats)
    std::fprintf(stderr,
                 "[nursery] collection %zu: %zu objects survived, %zu cache writes logged\n",
                 collections_, fwd.size(), logged);
}

} // namespace thorin
