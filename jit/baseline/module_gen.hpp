// The module the baseline tier generates: its functions in order, their
// signatures, which callees get workers (called through slots) and which
// are called through the runtime.
#pragma once
#include <atomic>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "codegen.hpp"
#include "operand.hpp"
#include "value_class.hpp"

namespace thorin::rt::baseline_gen {

struct ModuleGen {
  Runtime& rt;
  const ExistingSlot& existing;
  BaselineModuleCode& out;
  const std::unordered_set<TopId>& refused;            // called through the runtime
  std::unordered_map<TopId, std::atomic<void*>*> mine; // slots of this module's workers
  std::unordered_map<TopId, FnSig> sigs;
  std::vector<TopId> todo;

  bool eligible(TopId g);
  bool sigOf(TopId g, FnSig& out);
  // Is g called through a slot (it has baseline code, or gets it here), not
  // through the runtime?
  bool direct(TopId g) {
    if (existing(g) || mine.count(g)) return true;
    if (refused.count(g)) return false;
    auto it = checked.find(g); // (asked at each call site and conditional)
    if (it == checked.end()) it = checked.emplace(g, eligible(g)).first;
    return it->second;
  }
  std::unordered_map<TopId, bool> checked; // eligible(g), for direct
  const FnSig& sig(TopId g) {
    auto it = sigs.find(g);
    if (it != sigs.end()) return it->second;
    FnSig s;
    if (!sigOf(g, s)) throw Unsupported{__LINE__};
    return sigs[g] = std::move(s);
  }
  std::atomic<void*>* slotOf(TopId g) {
    if (auto* s = existing(g)) {
      sig(g);
      out.calls.insert(g);
      return s;
    }
    if (auto it = mine.find(g); it != mine.end()) return it->second;
    if (!eligible(g)) throw Unsupported{__LINE__};
    auto s = std::make_unique<std::atomic<void*>>(nullptr);
    auto* p = s.get();
    out.slots[g] = std::move(s);
    mine[g] = p;
    todo.push_back(g);
    return p;
  }
};

} // namespace thorin::rt::baseline_gen
