// Frame and register allocation (frame.hpp).
#include "frame.hpp"

#include <algorithm>

namespace thorin::rt::baseline_gen {

// An intermediate register: `want` if it is one and free.
Gp FrameAlloc::tmp(const Gp* want) {
  if (want) {
    size_t i = scratchIndex(*want);
    if (i != SIZE_MAX && !(busy_ & (1u << i))) {
      busy_ |= 1u << i;
      return kScratch[i];
    }
  }
  for (size_t i = 0; i < kNumScratch; ++i)
    if (!(busy_ & (1u << i))) {
      busy_ |= 1u << i;
      return kScratch[i];
    }
  throw Unsupported{__LINE__}; // (an expression nested too deep: LLVM's)
}

x86::Xmm FrameAlloc::xtmp() {
  for (uint32_t i = 0; i < kNumXScratch; ++i)
    if (!(xbusy_ & (1u << i))) {
      xbusy_ |= 1u << i;
      return x86::xmm(kXScratch0 + i);
    }
  throw Unsupported{__LINE__};
}

// A fresh intermediate of class m.
Opnd FrameAlloc::temp(MType m, const Gp* want) {
  return m == MType::F64 ? xmmOpnd(xtmp(), true) : regOpnd(tmp(want), true, m);
}

size_t FrameAlloc::scratchIndex(const Gp& r) {
  for (size_t i = 0; i < kNumScratch; ++i)
    if (kScratch[i].id() == r.id()) return i;
  return SIZE_MAX;
}

void FrameAlloc::release(const Opnd& o) {
  if (o.kind != Opnd::Reg || !o.temp) return;
  if (o.isF())
    xbusy_ &= ~(1u << (o.xmm.id() - kXScratch0));
  else
    busy_ &= ~(1u << scratchIndex(o.reg));
}

void FrameAlloc::releaseAll(const std::vector<Opnd>& vs) {
  for (auto& v : vs)
    release(v);
}

// n consecutive slots (a primitive's argument array).
int32_t FrameAlloc::newSlots(uint32_t n) {
  size_t i = 0;
  for (;; ++i) {
    size_t k = 0;
    while (k < n && i + k < slotUsed_.size() && !slotUsed_[i + k])
      ++k;
    if (k == n || i + k >= slotUsed_.size()) break;
  }
  if (slotUsed_.size() < i + n) slotUsed_.resize(i + n, false);
  for (size_t k = 0; k < n; ++k)
    slotUsed_[i + k] = true;
  slotsHigh_ = std::max<uint32_t>(slotsHigh_, uint32_t(i + n));
  return int32_t(8 * i);
}

int32_t FrameAlloc::coldSlots(uint32_t n) {
  int32_t off = int32_t(8 * ((frame_ ? frame_->slots : 0) + coldNext_));
  coldNext_ += n;
  coldHigh_ = std::max(coldHigh_, coldNext_);
  return off;
}

// A variable's home: a callee-saved register (xmm8–xmm14 for F64) while
// there are some, else a stack slot.
Opnd FrameAlloc::newHome(MType m) {
  if (m == MType::F64) {
    for (uint32_t i = 0; i < kNumXHomes; ++i)
      if (!(xhomes_ & (1u << i))) {
        xhomes_ |= 1u << i;
        return xmmOpnd(x86::xmm(kXHome0 + i), false);
      }
    return slotOpnd(newSlot(), m);
  }
  for (uint32_t i = 0; i < kNumSaved; ++i)
    if (!(savedBusy_ & (1u << i))) {
      savedBusy_ |= 1u << i;
      savedHigh_ = std::max(savedHigh_, i + 1);
      return regOpnd(kSaved[i], false, m);
    }
  return slotOpnd(newSlot(), m);
}

void FrameAlloc::freeHome(const Opnd& h) {
  if (h.kind == Opnd::Mem) {
    freeSlot(h.off);
    return;
  }
  if (h.isF()) {
    xhomes_ &= ~(1u << (h.xmm.id() - kXHome0));
    return;
  }
  for (uint32_t i = 0; i < kNumSaved; ++i)
    if (kSaved[i].id() == h.reg.id()) savedBusy_ &= ~(1u << i);
}

// Code out of line (`cold`) saves into the cold region: each path
// starts at its bottom (coldStart), since no two run at once.
Saves FrameAlloc::liveSaves(const std::vector<Opnd>& except, bool cold) {
  auto excepted = [&](const Opnd& r) {
    for (const Opnd& e : except)
      if (e.kind == Opnd::Reg && e.same(r)) return true;
    for (const Opnd& e : unset_)
      if (e.kind == Opnd::Reg && e.same(r)) return true;
    return false;
  };
  Saves saves;
  auto add = [&](const Opnd& r) {
    if (!excepted(r)) saves.push_back({r, cold ? coldSlots(1) : newSlot()});
  };
  for (size_t i = 0; i < kNumScratch; ++i)
    if (busy_ & (1u << i)) add(regOpnd(kScratch[i], false));
  for (uint32_t i = 0; i < kNumXScratch; ++i)
    if (xbusy_ & (1u << i)) add(xmmOpnd(x86::xmm(kXScratch0 + i), false));
  for (uint32_t i = 0; i < kNumXHomes; ++i)
    if (xhomes_ & (1u << i)) add(xmmOpnd(x86::xmm(kXHome0 + i), false));
  return saves;
}

} // namespace thorin::rt::baseline_gen
