// The regex plugin's reference matcher (issue 31, part 2): a Thompson NFA run
// as a Pike VM — linear in the input (no backtracking), leftmost-first like
// Python's `re` and RE2, lazy quantifiers and captures included. The DFAs of
// docs/regex-design.md will be checked against it.
#pragma once
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "pattern.hpp"

namespace thorin::plug::regex {

struct Inst {
  // Loop: the end of an iteration of a loop whose body can match nothing —
  // back to its head at pc + 1, or, if the iteration matched nothing (the
  // position is the one slot x saved at its start), out of the loop to y:
  // an empty iteration ends the loop, as in Python's `re`.
  enum Op : uint8_t { Byte, Split, Jump, Check, Save, Loop, Match } op;
  Assert check{}; // Check
  uint32_t x = 0; // Byte: the set's index; Split: the preferred branch; Jump: target; Save: slot
  uint32_t y = 0; // Split: the other branch
};

struct Program {
  std::vector<Inst> code;
  std::vector<ByteSet> sets;
  uint32_t slots = 2; // 2 × (groups + 1): the match's bounds, each group's; then Loop's
};

Program compile(const Pattern& p);

/// A match: slots[2i], slots[2i + 1] bound group i (0: the whole match), -1
/// for a group that did not take part.
using Captures = std::vector<int64_t>;

/// The leftmost-first match in s starting at or after `from` (anchored: only
/// at `from`); with `notEmptyAt`, no empty match at that position (the next
/// search after an empty match, as Python's finditer).
std::optional<Captures> search(const Program& prog, std::string_view s, size_t from, bool anchored,
                               std::optional<size_t> notEmptyAt = std::nullopt);

/// Does the whole of s match?
bool fullMatch(const Program& prog, std::string_view s);

/// The spans of the successive non-overlapping matches (Python's finditer).
std::vector<std::pair<size_t, size_t>> findAll(const Program& prog, std::string_view s);

} // namespace thorin::plug::regex
