#include "axiom.hpp"

namespace thorin {

AxiomTable& AxiomTable::get() {
  static AxiomTable t;
  return t;
}

AxiomId AxiomTable::intern(std::string_view name, std::string_view plugin) {
  if (auto it = byName_.find(name); it != byName_.end()) return it->second;
  Axiom& a = rows_.emplace_back();
  a.id = AxiomId(rows_.size() - 1);
  a.name = name;
  a.plugin = plugin;
  byName_.emplace(a.name, a.id);
  return a.id;
}

AxiomId AxiomTable::find(std::string_view name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? kNoAxiom : it->second;
}

AxiomId AxiomTable::operatorAxiom(std::string_view op, AxiomId type) const {
  for (AxiomId id : operators_)
    if (rows_[id].opType == type && rows_[id].op == op) return id;
  return kNoAxiom;
}

void AxiomTable::setOperator(AxiomId id, std::string_view op, AxiomId type) {
  Axiom& a = rows_[id];
  if (a.op.empty()) operators_.push_back(id);
  a.op = op;
  a.opType = type;
}

} // namespace thorin
