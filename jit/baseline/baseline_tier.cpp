#include "baseline_tier.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "codegen.hpp"
#include "baseline_lowering.hpp"
#include "runtime/primitive.hpp"
#include "runtime/unwind.hpp"


namespace thorin::rt {

// The baseline tier's column of the axiom table (core/axiom.hpp).
static AxiomColumn<std::optional<BaselineLowering>>& lowerings() {
  static AxiomColumn<std::optional<BaselineLowering>> c;
  return c;
}
void registerBaselineLowering(AxiomId axiom, BaselineLowering l) { lowerings().set(axiom, l); }
const BaselineLowering* findBaselineLowering(AxiomId axiom) {
  const auto& l = lowerings()[axiom];
  return l ? &*l : nullptr;
}

bool findBaselineMonoid(AxiomId axiom, int64_t& identity) {
  const AlgebraicFacts& f = AxiomTable::get()[axiom].facts;
  if (!f.assocComm || !f.unit || primById(axiom).result != MType::I64) return false;
  identity = int64_t(*f.unit);
  return true;
}

namespace {
using namespace asmjit;

void put32(std::vector<uint8_t>& o, size_t at, uint32_t v) { std::memcpy(&o[at], &v, 4); }
void put64(std::vector<uint8_t>& o, uint64_t v) {
  size_t at = o.size();
  o.resize(at + 8);
  std::memcpy(&o[at], &v, 8);
}
void pad8(std::vector<uint8_t>& o, size_t start) {
  while ((o.size() - start) % 8)
    o.push_back(0); // DW_CFA_nop
}

// Unwind information. Run-time errors, Ctrl-C and stack overflow are C++
// exceptions thrown by the helpers baseline code calls (and by LLVM code it
// calls through a slot); they unwind through baseline frames, so each
// function gets an FDE stating the CFA after each prologue instruction
// (jit/baseline/ (codegen.cpp and the emit_*.cpp files) emits them).
struct Fde {
  uint64_t begin, size;
  const std::vector<uint8_t>* cfa;
};

std::vector<uint8_t> ehFrame(const std::vector<Fde>& fns) {
  std::vector<uint8_t> o;
  // CIE: CFA = rsp + 8, return address at CFA - 8.
  o.resize(4);
  for (uint8_t b : {0, 0, 0, 0, 1, int('z'), int('R'), 0})
    o.push_back(b);
  appendUleb(o, 1);                       // code alignment
  o.push_back(0x78);                      // data alignment -8
  appendUleb(o, 16);                      // return address register
  appendUleb(o, 1);                       // augmentation data: the FDE pointer encoding
  o.push_back(0x00);                      // DW_EH_PE_absptr
  for (uint8_t b : {0x0c, 7, 8, 0x90, 1}) // def_cfa rsp+8; offset ra, 1
    o.push_back(b);
  pad8(o, 0);
  put32(o, 0, uint32_t(o.size() - 4));
  for (const Fde& f : fns) {
    size_t start = o.size();
    o.resize(start + 8);
    put32(o, start + 4, uint32_t(start + 4)); // CIE pointer: back to offset 0
    put64(o, f.begin);
    put64(o, f.size);
    appendUleb(o, 0);
    o.insert(o.end(), f.cfa->begin(), f.cfa->end());
    pad8(o, start);
    put32(o, start, uint32_t(o.size() - start - 4));
  }
  o.resize(o.size() + 4, 0); // terminator
  return o;
}

// One compilation: the code of some functions and their unwind information.
struct Module {
  void* code = nullptr;
  std::vector<uint8_t> eh;
  std::vector<TopId> ids;          // its workers
  TopId root = 0;                  // its entry's function
  std::unordered_set<TopId> calls; // workers of other modules it calls
};

} // namespace

struct Baseline::Impl {
  JitRuntime jit;
  std::unordered_map<TopId, std::unique_ptr<std::atomic<void*>>> slots;
  std::unordered_map<TopId, void*> own; // each slot's baseline worker
  std::unordered_map<TopId, Code> entries;
  std::unordered_set<Code> entrySet;
  std::vector<std::unique_ptr<Module>> modules;

  void drop(Module& m) {
    if (!m.eh.empty()) deregisterUnwindInfo(m.eh.data());
    if (m.code) jit.release(m.code);
  }
};

Baseline::Baseline() : impl_(std::make_unique<Impl>()) {}

Baseline::~Baseline() {
  for (auto& m : impl_->modules)
    impl_->drop(*m);
}

bool Baseline::owns(Code c) const { return impl_->entrySet.count(c) != 0; }

std::atomic<void*>* Baseline::slot(TopId id) {
  auto it = impl_->slots.find(id);
  return it == impl_->slots.end() ? nullptr : it->second.get();
}

Code Baseline::compile(Runtime& rt, TopId id) {
  Impl& im = *impl_;
  if (auto it = im.entries.find(id); it != im.entries.end()) return it->second;
  CodeHolder code;
  code.init(im.jit.environment());
  // THORIN_BASELINE_ASM=1 prints the code (a developer's aid, as :llvm is).
  static const bool printAsm = std::getenv("THORIN_BASELINE_ASM") != nullptr;
  StringLogger logger;
  if (printAsm) {
    logger.addFlags(FormatFlags::kMachineCode);
    code.setLogger(&logger);
  }
  BaselineModuleCode mc;
  if (!generateBaseline(
          rt, code, id, [&](TopId g) { return slot(g); }, mc))
    return nullptr;
  void* base = nullptr;
  if (im.jit.add(&base, &code) != kErrorOk) return nullptr;
  if (printAsm) std::fprintf(stderr, "module at %p\n%s\n", base, logger.data());
  auto m = std::make_unique<Module>();
  m->code = base;
  auto at = [&](const BaselineFn& f) {
    return static_cast<uint8_t*>(base) + code.labelOffsetFromBase(f.label);
  };
  std::vector<Fde> fdes;
  for (auto* f : {&mc.entry})
    fdes.push_back({uint64_t(reinterpret_cast<uintptr_t>(at(*f))), f->end - f->start, &f->cfa});
  for (auto& [g, f] : mc.workers)
    fdes.push_back({uint64_t(reinterpret_cast<uintptr_t>(at(f))), f.end - f.start, &f.cfa});
  m->eh = ehFrame(fdes);
  registerUnwindInfo(m->eh.data());
  for (auto& [g, f] : mc.workers) {
    void* w = at(f);
    mc.slots[g]->store(w, std::memory_order_release);
    im.own[g] = w;
    m->ids.push_back(g);
  }
  m->root = id;
  m->calls = std::move(mc.calls);
  for (auto& [g, s] : mc.slots)
    im.slots[g] = std::move(s);
  auto entry = reinterpret_cast<Code>(at(mc.entry));
  im.entries[id] = entry;
  im.entrySet.insert(entry);
  im.modules.push_back(std::move(m));
  return entry;
}

void Baseline::remove(Runtime& rt, const std::vector<TopId>& ids) {
  Impl& im = *impl_;
  if (im.modules.empty()) return;
  for (auto& [g, s] : im.slots)
    s->store(im.own[g], std::memory_order_release);
  std::unordered_set<TopId> gone(ids.begin(), ids.end());
  std::vector<bool> dead(im.modules.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < im.modules.size(); ++i) {
      Module& m = *im.modules[i];
      if (dead[i]) continue;
      bool hit = gone.count(m.root) != 0;
      for (TopId g : m.ids)
        hit = hit || gone.count(g);
      for (TopId g : m.calls)
        hit = hit || gone.count(g);
      if (!hit) continue;
      dead[i] = grew = true;
      gone.insert(m.root);
      gone.insert(m.ids.begin(), m.ids.end());
    }
  }
  std::vector<std::unique_ptr<Module>> kept;
  for (size_t i = 0; i < im.modules.size(); ++i) {
    Module& m = *im.modules[i];
    if (!dead[i]) {
      kept.push_back(std::move(im.modules[i]));
      continue;
    }
    if (auto it = im.entries.find(m.root); it != im.entries.end()) {
      Global& g = rt.global(m.root);
      if (g.compiled == it->second) {
        g.compiled = nullptr;
        g.calls = 0;
        g.tierUp = false;
      }
      im.entrySet.erase(it->second);
      im.entries.erase(it);
    }
    for (TopId g : m.ids) {
      im.slots.erase(g);
      im.own.erase(g);
    }
    im.drop(m);
  }
  im.modules = std::move(kept);
}

void Baseline::clear(Runtime& rt) {
  Impl& im = *impl_;
  if (im.modules.empty()) return;
  for (auto& [id, c] : im.entries) {
    Global& g = rt.global(id);
    if (g.compiled == c) {
      g.compiled = nullptr;
      g.calls = 0;
      g.tierUp = false;
    }
  }
  for (auto& m : im.modules)
    im.drop(*m);
  im.modules.clear();
  im.entries.clear();
  im.entrySet.clear();
  im.slots.clear();
  im.own.clear();
}

} // namespace thorin::rt
