// The regex plugin's pattern syntax (issue 31; first part): a pattern string
// parsed into a tree whose leaves are sets of bytes — the alphabet is bytes,
// so UTF-8 passes through as sequences of them. A malformed pattern is a
// SyntaxError with the byte offset and length of the offending part, so that
// elaboration can put its caret inside the string literal.
//
// The syntax and its meaning are Python's `re` on bytes (and RE2's) on their
// common subset: literals and escapes (\n \t \r \f \v \0 \0oo \\ \. \xHH, any
// punctuation escaped), `.` (any byte but '\n'), classes [a-z0-9_] and [^…]
// with ranges and escapes inside, \d \w \s \D \W \S (ASCII), anchors ^ $ \A \z
// (\Z too) \b \B, groups ( ), (?: ) and (?P<name> ), alternation |, the
// quantifiers * + ? {m} {m,} {m,n} {,n} and their lazy forms (a trailing ?),
// and the flags (?i) (ASCII case-insensitive) and (?s) (`.` matches '\n'),
// given at the start.
#pragma once
#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace thorin::plug::regex {

using ByteSet = std::bitset<256>;

enum class Assert : uint8_t {
  LineStart,
  LineEnd,
  TextStart,
  TextEnd,
  WordBoundary,
  NotWordBoundary
};

struct Node {
  enum Kind : uint8_t { Empty, Bytes, Seq, Alt, Repeat, Group, Assertion } kind = Empty;
  ByteSet bytes;                           // Bytes
  std::vector<std::unique_ptr<Node>> kids; // Seq, Alt; Repeat and Group: one
  uint32_t min = 0, max = 0;               // Repeat (max = kUnbounded: no bound)
  bool lazy = false;                       // Repeat
  uint32_t group = 0;                      // Group: its number (1, 2, …), 0 if not capturing
  Assert assertion{};                      // Assertion
};
constexpr uint32_t kUnbounded = UINT32_MAX;
/// Counted repetitions above this are an error (as RE2's 1,000).
constexpr uint32_t kMaxRepeat = 1000;

struct Pattern {
  std::unique_ptr<Node> root;
  uint32_t groups = 0;   // capturing groups
  bool caseless = false; // (?i)
  bool dotAll = false;   // (?s)
};

struct SyntaxError {
  std::string message;
  uint32_t offset; // of the offending part in the pattern (bytes)
  uint32_t length; // at least 1 (at the end of the pattern: 0)
};

/// A node of kind k with nothing in it yet.
std::unique_ptr<Node> makeNode(Node::Kind k);

/// Parses `pattern`; throws SyntaxError.
Pattern parse(std::string_view pattern);

/// A byte set as a class: `[a-z_]`, `any`; bytes outside printable ASCII as \xHH.
std::string showSet(const ByteSet& s);

/// The tree as pattern text that parses back to it (every byte as \xHH
/// where it could mean something else; no flags): what the combinators
/// build at run time.
std::string patternText(const Node& n);

/// Can n match the empty string?
bool nullable(const Node& n);

/// The tree in a canonical text (tests, `:regex`): `seq(…)`, `alt(…)`,
/// `[a-z]`, `rep{1,inf}(…)`, `group1(…)`, `^`, …
std::string show(const Node& n);

} // namespace thorin::plug::regex
