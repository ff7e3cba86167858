#include "axiom.hpp"

namespace thorin {

AxiomRegistry& AxiomRegistry::get() {
  static AxiomRegistry r;
  return r;
}

void AxiomRegistry::add(AxiomDef d) {
  if (auto it = byName_.find(d.name); it != byName_.end()) {
    it->second->arity = d.arity; // (its name, the key's text, stays)
    it->second->norm = d.norm;
    return;
  }
  AxiomDef& e = defs_.emplace_back(std::move(d));
  byName_.emplace(e.name, &e);
}

void AxiomRegistry::addOperator(std::string op, std::string type, std::string axiom) {
  ops_.push_back({std::move(op), std::move(type), std::move(axiom)});
}

const AxiomDef* AxiomRegistry::find(std::string_view name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? nullptr : it->second;
}

const std::string* AxiomRegistry::operatorAxiom(std::string_view op, std::string_view type) const {
  for (auto& o : ops_)
    if (o.op == op && o.type == type) return &o.axiom;
  return nullptr;
}

const std::string* AxiomRegistry::operatorOf(std::string_view axiom) const {
  for (auto& o : ops_)
    if (o.axiom == axiom) return &o.op;
  return nullptr;
}

bool AxiomRegistry::isOperator(std::string_view op) const {
  for (auto& o : ops_)
    if (o.op == op) return true;
  return false;
}

} // namespace thorin
