// Axioms the MimIR way: a plugin's `.thorin` file declares `.ax %plugin.name : T`
// and its code binds the axiom to a normalizer (here), a run-time primitive
// and lowerings (runtime/, jit/). Every axiom has one dense id in one table;
// each layer keeps its own column by that id (core: declared arity,
// normalizer, operator, algebraic facts; runtime: the primitive; the tiers:
// lowerings), so core knows nothing of the runtime or of LLVM.
#pragma once
#include <array>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "builtins.hpp"
#include "value.hpp"

namespace thorin {

using AxiomId = uint32_t;
constexpr AxiomId kNoAxiom = ~AxiomId(0);
/// The most arguments an axiom with code takes (the runtime passes them in
/// fixed arrays of this size).
constexpr uint32_t kMaxAxiomArity = 8;

/// `args` are forced to weak head normal form (solved metas and definitions unfolded).
class World;
using Normalizer = Val* (*)(World& w, Val* const* args);

/// What a binary axiom on literals obeys, for every layer that simplifies
/// or compiles it: x ⊕ unit = unit ⊕ x = x; x ⊕ absorbing = absorbing ⊕ x
/// = absorbing (as literal bits of the operand type); an associative and
/// commutative operation with a unit accumulates in loops.
struct AlgebraicFacts {
  std::optional<uint64_t> unit;
  std::optional<uint64_t> absorbing;
  bool assocComm = false;
};

/// A malformed string literal given to an axiom: the message and the
/// offending bytes of the string's value (offset, length; 0: at its end).
struct LiteralError {
  std::string message;
  uint32_t offset, length;
};
/// Checks the value of a string literal an axiom is applied to (the regex
/// plugin's patterns): elaboration reports an error inside the literal.
using LiteralCheck = std::optional<LiteralError> (*)(std::string_view value);

struct Axiom {
  AxiomId id = kNoAxiom;
  std::string name;      // %core.nat.add
  std::string plugin;    // "core"
  uint32_t arity = 0;    // the Π binders of its declared type
  bool declared = false; // its `.ax` declaration has been elaborated (arity is known)
  Normalizer norm = nullptr;
  bool hasCode = false; // a run-time primitive (runtime/) implements it
  std::string op;       // the surface operator it is on `opType` ("+"), if any
  AxiomId opType = kNoAxiom;
  AlgebraicFacts facts;
  LiteralCheck checkLiteral = nullptr; // of its string literal arguments, if any
  // Its applications to known arguments are known values: the specializer
  // may put one where it is used (a filter's `?x` holds for it), computing
  // it again there — for cheap, pure constructors (regex patterns).
  bool staticValue = false;
};

/// One row per axiom any plugin has registered (process-wide: code outlives
/// worlds; a world's `.ax` entries point at rows).
class AxiomTable {
public:
  static AxiomTable& get();
  /// The id of `name`, adding a row for it in `plugin` if it has none.
  AxiomId intern(std::string_view name, std::string_view plugin);
  /// The id of `name`, or kNoAxiom.
  AxiomId find(std::string_view name) const;
  Axiom& operator[](AxiomId id) { return rows_[id]; }
  const Axiom& operator[](AxiomId id) const { return rows_[id]; }
  size_t size() const { return rows_.size(); }

  /// The axiom playing a builtin role (kNoAxiom: no plugin provides it).
  AxiomId builtin(Builtin b) const { return builtins_[size_t(b)]; }
  void setBuiltin(Builtin b, AxiomId id) { builtins_[size_t(b)] = id; }
  /// The role `id` plays (Builtin::Count: none).
  Builtin role(AxiomId id) const {
    size_t i = 0;
    while (i < builtins_.size() && (id == kNoAxiom || builtins_[i] != id))
      ++i;
    return Builtin(i);
  }
  /// Is `id` the axiom playing role `b`?
  bool is(AxiomId id, Builtin b) const { return id != kNoAxiom && id == builtin(b); }

  /// `op` on operands of the type axiom `type`: the axiom it stands for.
  AxiomId operatorAxiom(std::string_view op, AxiomId type) const;
  void setOperator(AxiomId id, std::string_view op, AxiomId type);

private:
  std::deque<Axiom> rows_; // stable addresses: world entries point at rows
  // By name (views of rows_' names): start-up registers and elaboration
  // looks up ~100 names, a linear search of which cost ~50k instructions.
  std::unordered_map<std::string_view, AxiomId> byName_;
  std::array<AxiomId, size_t(Builtin::Count)> builtins_ = [] {
    std::array<AxiomId, size_t(Builtin::Count)> a;
    a.fill(kNoAxiom);
    return a;
  }();
  std::vector<AxiomId> operators_; // axioms with an operator symbol
};

/// A column of a layer's data by axiom id (primitives, lowerings): absent
/// entries are value-initialized.
template <class T> class AxiomColumn {
public:
  void set(AxiomId id, T v) {
    if (id >= data_.size()) data_.resize(id + 1);
    data_[id] = std::move(v);
  }
  /// The entry of `id` (a value-initialized T if none was set).
  const T& operator[](AxiomId id) const {
    static const T none{};
    return id < data_.size() ? data_[id] : none;
  }
  T* find(AxiomId id) { return id < data_.size() ? &data_[id] : nullptr; }

private:
  std::vector<T> data_;
};

} // namespace thorin
