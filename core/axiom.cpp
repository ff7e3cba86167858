#include "axiom.hpp"

namespace thorin {

AxiomRegistry& AxiomRegistry::get() {
  static AxiomRegistry r;
  return r;
}

void AxiomRegistry::add(AxiomDef d) {
  for (auto& e : defs_)
    if (e.name == d.name) {
      e = std::move(d);
      return;
    }
  defs_.push_back(std::move(d));
}

void AxiomRegistry::addOperator(std::string op, std::string type, std::string axiom) {
  ops_.push_back({std::move(op), std::move(type), std::move(axiom)});
}

const AxiomDef* AxiomRegistry::find(std::string_view name) const {
  for (auto& e : defs_)
    if (e.name == name) return &e;
  return nullptr;
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
