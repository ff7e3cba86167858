// DWARF call frame information of baseline code: what the unwinder needs
// to pass through a function's frame (the prologue's pushes and `sub rsp`),
// so that exceptions thrown by the helpers it calls unwind through it.
#pragma once
#include <cstdint>
#include <vector>

#include "operand.hpp"

namespace thorin::rt::baseline_gen {

// Call frame instructions of a prologue `push r…; sub rsp, n`: `at` holds
// the code offset after each of its instructions (relative to the start).
std::vector<uint8_t> prologueCfa(const std::vector<Gp>& pushed, size_t adjust,
                                 const std::vector<size_t>& at);

} // namespace thorin::rt::baseline_gen
