// One object of type T per thread, without a `thread_local` that has a
// destructor: glibc registers such destructors under the dynamic loader's
// lock, so the first touch on a thread would wait for any dlopen in progress
// (loading LLVM in the background holds it for ~5 ms). The objects are kept
// in a registry and destroyed at exit; threads are few and long-lived.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

namespace thorin {

template <class T> [[gnu::noinline]] T* perThreadMake() {
  static std::mutex m;
  static std::vector<std::unique_ptr<T>> all;
  std::lock_guard<std::mutex> lock(m);
  all.push_back(std::make_unique<T>());
  return all.back().get();
}
// (Inline: the hot paths of the evaluators ask for their stacks and heaps
// once per call; the first touch on a thread is out of line.)
template <class T> [[gnu::always_inline]] inline T& perThread() {
  thread_local T* mine = nullptr; // (trivially destructible: no registration)
  if (!mine) [[unlikely]]
    mine = perThreadMake<T>();
  return *mine;
}

} // namespace thorin
