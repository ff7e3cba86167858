#include "primitive.hpp"

namespace thorin::rt {

static AxiomColumn<Prim>& column() {
  static AxiomColumn<Prim> c;
  return c;
}

void registerPrim(AxiomId axiom, PrimFn fn, std::initializer_list<MType> args, MType result,
                  MType value) {
  Prim p;
  p.axiom = axiom;
  p.fn = fn;
  size_t i = 0;
  for (MType m : args)
    if (i < kMaxAxiomArity) p.args[i++] = m;
  p.result = result;
  p.value = value;
  // Machine numbers are never updated in place: nothing to keep.
  bool machine = args.size() > 0 && result != MType::None;
  for (size_t j = 0; j < i; ++j)
    machine = machine && p.args[j] != MType::None;
  if (machine) p.keeps = 0;
  column().set(axiom, p);
  AxiomTable::get()[axiom].hasCode = true;
}

void primKeeps(AxiomId axiom, uint32_t mask) {
  if (Prim* p = column().find(axiom)) p->keeps = mask;
}

const Prim* findPrim(AxiomId axiom) {
  Prim* p = column().find(axiom);
  if (!p || !p->fn) return nullptr;
  p->arity = AxiomTable::get()[axiom].arity;
  return p;
}

MType machineType(AxiomId type) {
  const AxiomTable& t = AxiomTable::get();
  return t.is(type, Builtin::I64)    ? MType::I64
         : t.is(type, Builtin::F64)  ? MType::F64
         : t.is(type, Builtin::Bool) ? MType::Bool
                                     : MType::None;
}

static std::vector<PluginCode>& plugins() {
  static std::vector<PluginCode> v;
  return v;
}
void notePluginCode(std::string name, std::string llvmLibrary) {
  plugins().push_back({std::move(name), std::move(llvmLibrary)});
}
const std::vector<PluginCode>& pluginCode() { return plugins(); }

const Prim& primById(AxiomId axiom) { return column()[axiom]; }

static std::vector<void (*)(const std::vector<uint32_t>&)>& droppedHooks() {
  static std::vector<void (*)(const std::vector<uint32_t>&)> hooks;
  return hooks;
}
void onCodeDropped(void (*fn)(const std::vector<uint32_t>& ids)) { droppedHooks().push_back(fn); }
void codeDropped(const std::vector<uint32_t>& ids) {
  for (auto fn : droppedHooks())
    fn(ids);
}

} // namespace thorin::rt
