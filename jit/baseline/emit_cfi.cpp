// DWARF call frame information of baseline code (emit_cfi.hpp).
#include "emit_cfi.hpp"

#include "codegen.hpp"

namespace thorin::rt::baseline_gen {

// x86-64 register numbers → DWARF's.
constexpr uint8_t kDwarfGp[16] = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};

// Call frame instructions of a prologue `push r…; sub rsp, n`: `at` holds
// the code offset after each of its instructions (relative to the start).
std::vector<uint8_t> prologueCfa(const std::vector<Gp>& pushed, size_t adjust,
                                 const std::vector<size_t>& at) {
  std::vector<uint8_t> cfa;
  size_t last = 0, offset = 8; // CFA = rsp + offset
  auto advance = [&](size_t to) {
    cfa.push_back(0x02); // DW_CFA_advance_loc1
    cfa.push_back(uint8_t(to - last));
    last = to;
  };
  for (size_t i = 0; i < pushed.size(); ++i) {
    offset += 8;
    advance(at[i]);
    cfa.push_back(0x0e); // DW_CFA_def_cfa_offset
    appendUleb(cfa, offset);
    cfa.push_back(uint8_t(0x80 | kDwarfGp[pushed[i].id()])); // DW_CFA_offset
    appendUleb(cfa, offset / 8);
  }
  if (adjust) {
    offset += adjust;
    advance(at[pushed.size()]);
    cfa.push_back(0x0e);
    appendUleb(cfa, offset);
  }
  return cfa;
}

} // namespace thorin::rt::baseline_gen

namespace thorin::rt {

void appendUleb(std::vector<uint8_t>& o, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    o.push_back(v ? b | 0x80 : b);
  } while (v);
}

} // namespace thorin::rt
