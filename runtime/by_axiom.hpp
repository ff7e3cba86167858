// What plugins bind to axioms by name: lowerings, baseline lowerings,
// comparisons. One per kind, each a function-local static (registration runs
// from other translation units' start-up code).
#pragma once
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace thorin::rt {

template <class T> class ByAxiom {
public:
  void add(std::string_view axiom, T v) {
    if (auto it = map_.find(axiom); it != map_.end()) {
      it->second = v;
      return;
    }
    map_.emplace(names_.emplace_back(axiom), v);
  }
  /// The value bound to `axiom`, or nullptr.
  const T* find(std::string_view axiom) const {
    auto it = map_.find(axiom);
    return it == map_.end() ? nullptr : &it->second;
  }

private:
  std::deque<std::string> names_;                  // the keys' text, in place
  std::unordered_map<std::string_view, T> map_;    // (a lookup builds no string)
};

} // namespace thorin::rt
