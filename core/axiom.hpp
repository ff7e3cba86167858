// Axioms the MimIR way: a plugin's `.thorin` file declares `.ax %plugin.name : T`
// and its C++ code binds the name to a normalizer, which fires whenever the
// axiom is applied to `arity` arguments (constant folding, algebraic
// identities) and returns nullptr when it cannot simplify. The JIT looks the
// same names up for its lowerings (jit/), so core/ knows nothing of LLVM.
#pragma once
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "value.hpp"

namespace thorin {

/// `args` are forced to weak head normal form (solved metas and definitions unfolded).
class World;
using Normalizer = Val* (*)(World& w, Val* const* args);

struct AxiomDef {
  std::string name; // "%core.nat.add"
  uint32_t arity = 0;
  Normalizer norm = nullptr;
};

/// How surface operators resolve: `op` on operands of the builtin type `type`
/// (an axiom name such as "%core.Nat") is the axiom `axiom`.
struct OperatorDef {
  std::string op, type, axiom;
};

class AxiomRegistry {
public:
  static AxiomRegistry& get();
  void add(AxiomDef d);
  void addOperator(std::string op, std::string type, std::string axiom);
  const AxiomDef* find(std::string_view name) const;
  const std::string* operatorAxiom(std::string_view op, std::string_view type) const;
  bool isOperator(std::string_view op) const;
  /// The operator symbol an axiom stands for (for infix printing), if any.
  const std::string* operatorOf(std::string_view axiom) const;

private:
  std::deque<AxiomDef> defs_; // stable addresses: values point at them
  // By name (views of defs_' names): start-up registers and elaboration
  // looks up ~100 names, a linear search of which cost ~50k instructions.
  std::unordered_map<std::string_view, AxiomDef*> byName_;
  std::vector<OperatorDef> ops_;
};

/// Registers the core plugin's normalizers (plugins/core/); idempotent.
void registerCorePlugin();

} // namespace thorin
