// What plugins bind to axioms by name: lowerings, baseline lowerings,
// comparisons. One per kind, each a function-local static (registration runs
// from other translation units' start-up code).
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>

namespace thorin::rt {

template <class T> class ByAxiom {
public:
  void add(std::string_view axiom, T v) { map_[std::string(axiom)] = v; }
  /// The value bound to `axiom`, or nullptr.
  const T* find(std::string_view axiom) const {
    auto it = map_.find(std::string(axiom));
    return it == map_.end() ? nullptr : &it->second;
  }

private:
  std::unordered_map<std::string, T> map_;
};

} // namespace thorin::rt
