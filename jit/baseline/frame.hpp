// Frame and register allocation of the baseline tier, in one pass over the
// body as it is emitted: intermediate values in caller-saved registers,
// variables in homes (callee-saved registers while there are some, else
// stack slots), slots of the paths out of line in a region of their own;
// and the frame (pushed registers, slots) the prologue then sets up. It
// emits no code: moves, saves and restores are the emitter's.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "operand.hpp"

namespace thorin::rt::baseline_gen {

// What a function's first emission learns for its second: the frame.
struct FrameNeeds {
  uint32_t saved = 0; // callee-saved registers used (kSaved[0..saved))
  uint32_t slots = 0; // stack slots
  uint32_t cold = 0;  // slots of code out of line, above them (shared: one runs at a time)
};

// Intermediate values: general registers (kScratch), xmm1–xmm7 for F64
// (xmm0 holds results; xmm8–xmm14 are F64 homes; xmm15 breaks cycles of
// argument moves). All are caller-saved: saved around calls.
constexpr uint32_t kXScratch0 = 1, kNumXScratch = 7, kXHome0 = 8, kNumXHomes = 7;

// What a call of C++ or of a worker clobbers that is in use: intermediate
// registers and F64 homes (no xmm register is callee-saved), each with
// the slot it is saved in — except the operands in `except` (a call's
// arguments, a result about to be written). Code out of line keeps the
// slots taken (restore(…, false)): it runs where any slot may be in use.
using Saves = std::vector<std::pair<Opnd, int32_t>>;

// The registers and slots in use while one function is emitted, and the
// most it used (its frame). `frame`: the frame the first emission learnt
// (null in the first emission itself).
class FrameAlloc {
public:
  explicit FrameAlloc(const FrameNeeds* frame) : frame_(frame) {}
  FrameNeeds needs() const { return FrameNeeds{savedHigh_, slotsHigh_, coldHigh_}; }
  // Did this emission use more than the first one's frame?
  bool outgrew() const {
    return frame_ &&
           (savedHigh_ > frame_->saved || slotsHigh_ > frame_->slots || coldHigh_ > frame_->cold);
  }

  // An intermediate register: `want` if it is one and free.
  Gp tmp(const Gp* want = nullptr);
  x86::Xmm xtmp();
  // A fresh intermediate of class m.
  Opnd temp(MType m, const Gp* want = nullptr);
  void release(const Opnd& o);
  void releaseAll(const std::vector<Opnd>& vs);
  int32_t newSlot() { return newSlots(1); }
  // n consecutive slots (a primitive's argument array).
  int32_t newSlots(uint32_t n);
  void freeSlot(int32_t off) { slotUsed_[size_t(off / 8)] = false; }
  // Slots of one path out of line: coldStart(), then coldSlots(n) for each
  // thing it keeps (above the others' slots, known from the first emission).
  void coldStart() { coldNext_ = 0; }
  int32_t coldSlots(uint32_t n);
  // A variable's home: a callee-saved register (xmm8–xmm14 for F64) while
  // there are some, else a stack slot.
  Opnd newHome(MType m);
  void freeHome(const Opnd& h);
  // What a call clobbers that is in use (see Saves), each with a slot:
  // code out of line (`cold`) saves into the cold region.
  Saves liveSaves(const std::vector<Opnd>& except, bool cold = false);

protected:
  const FrameNeeds* frame_;
  std::vector<Opnd> unset_; // registers of values not computed yet (see FnGen::into)

private:
  static size_t scratchIndex(const Gp& r);

  uint32_t busy_ = 0;      // intermediate registers in use (bits of kScratch)
  uint32_t xbusy_ = 0;     // intermediate xmm registers in use (bits from kXScratch0)
  uint32_t savedBusy_ = 0; // homes in use (bits of kSaved)
  uint32_t xhomes_ = 0;    // F64 homes in use (bits from kXHome0)
  uint32_t savedHigh_ = 0;
  std::vector<bool> slotUsed_;
  uint32_t slotsHigh_ = 0;
  uint32_t coldNext_ = 0, coldHigh_ = 0;
};

} // namespace thorin::rt::baseline_gen
