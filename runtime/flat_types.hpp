// Which data values may be compact cells (runtime/heap.hpp): those whose
// fields can reach nothing that is ever updated in place — no array, no
// string — so that reading a field never needs to mark what it holds shared,
// and the value needs no header with a shared bit. Decided where a
// constructor is applied, from its data type's parameters there (`cons` at
// `List Nat` makes cells; at `List A` for an unknown A, or at
// `List (Array n I64)`, objects). Unsure means no: an object is right
// everywhere, a cell only where this says so.
#pragma once
#include <unordered_map>
#include <vector>

#include "core/world.hpp"

namespace thorin::rt {

class FlatTypes {
public:
  explicit FlatTypes(World& w) : w_(w) {}
  /// May constructor `con`, applied to its data type's parameters `params`
  /// (core terms in the context of the application: its variables are
  /// unknown types), make a compact cell?
  bool cellable(TopId con, const std::vector<const Tm*>& params);

private:
  /// Can a value of type t reach nothing updated in place? `env`: per bound
  /// variable (by level), whether it stands for such a type.
  bool flat(const Tm* t, std::vector<bool>& env);
  /// Is every field of every constructor of data type d flat when its
  /// parameters are? (A type met again while it is being decided counts as
  /// flat: the greatest fixed point.)
  bool flatData(TopId d);
  bool flatHead(const Tm* h, const std::vector<const Tm*>& args, std::vector<bool>& env);
  World& w_;
  std::unordered_map<TopId, bool> decided_;
  std::vector<TopId> deciding_;
  int fuel_ = 0;
};

} // namespace thorin::rt
