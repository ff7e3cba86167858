// The regex plugin's normalizer of pattern trees: rewrites that keep what
// every operation returns (matches, spans, groups), so that equal languages
// written differently often become the same tree — MimIR's normalizers for
// its regex axioms and a few more. Byte sets are already sorted and merged
// ranges (case folding applied) when parsed.
//
// - a non-capturing group is its body; sequences and alternations are
//   flattened; `empty` in a sequence is dropped;
// - adjacent alternatives of one byte each are one set (`a|b|c` → [a-c]); an
//   alternative equal to an earlier one is dropped (it is never taken);
// - a repetition of a repetition of a byte set, both greedy, is one:
//   (x*)* (x+)* (x?)* (x*)+ (x+)? … → x*, (x+)+ → x+, (x{2}){3} → x{6};
//   {1} is its body, {0} empty;
// - adjacent greedy repetitions of one byte set add up (x x* → x+,
//   \d{2}\d{2} → \d{4}; two single bytes stay a literal: "oo").
#pragma once
#include "pattern.hpp"

namespace thorin::plug::regex {

void simplify(Pattern& p);

} // namespace thorin::plug::regex
