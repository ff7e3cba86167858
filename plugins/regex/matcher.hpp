// A compiled pattern, as the plugin's primitives use it: the lazy DFAs
// (dfa.hpp) find where matches are — a forward scan for the end of the
// leftmost-first match, a reverse scan from there for its start — and the
// Pike VM (pike.hpp) gives the groups' bounds inside that span. The Pike VM
// alone runs the few patterns and inputs the DFAs do not take: a loop over a
// part that can match the empty string (whose iterations are tracked), and
// the two places where Python's `re` needs more than one byte of look-ahead
// or none at all (`$` before a final '\n'; \b in an empty string).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfa.hpp"

namespace thorin::plug::regex {

using Span = std::pair<size_t, size_t>;

class Matcher {
public:
  explicit Matcher(const Pattern& p);

  bool fullMatch(std::string_view s);
  /// The leftmost-first match starting at or after `from`.
  std::optional<Span> search(std::string_view s, size_t from);
  /// Its groups' bounds (Captures: 2 per group, group 0 the match).
  std::optional<Captures> captures(std::string_view s, size_t from);
  /// The groups' bounds of a match findAll or search found.
  Captures groupsOf(std::string_view s, Span match) const;
  /// The matcher's engines, for --jit-stats and :regex.
  std::string describe() const;
  /// The non-overlapping matches, left to right (Python's finditer).
  std::vector<Span> findAll(std::string_view s);
  size_t count(std::string_view s);
  /// The lines of s (as `lines` cuts them: a last '\n' ends the last line)
  /// in which the pattern matches somewhere, as grep prints them.
  std::vector<Span> matchingLines(std::string_view s);

  uint32_t groups() const { return groups_; }
  const Program& program() const { return pike_; }
  /// The forward DFA (nullptr: the Pike VM runs this pattern).
  LazyDfa* forward() { return forward_.get(); }
  /// The anchored DFA that `fullMatch` runs (nullptr: the Pike VM), and
  /// the inputs it leaves to the Pike VM: with \b, the empty string; with
  /// `$`, one that ends with '\n'.
  LazyDfa* whole() { return whole_.get(); }
  bool usesWord() const { return usesWord_; }
  bool usesLineEnd() const { return usesLineEnd_; }
  /// The pc of the unanchored start in the forward DFA's program.
  uint32_t unanchoredStart() const { return unanchored_; }

private:
  Program pike_;
  std::unique_ptr<LazyDfa> forward_, whole_, reverse_;
  uint32_t unanchored_ = 0, groups_ = 0;
  bool nullable_ = true, usesLineEnd_ = false, usesWord_ = false;
  int pairs_ = 0; // fullMatch two bytes a step: 0 not tried yet, 1 yes, -1 too large
  LazyDfa::S wholeStart_ = 0, wholeStartPair_ = 0; // (with pairs: its start, as both rows)
  static constexpr size_t kPairStates = 64;
  bool lineLocal_ = false; // no match crosses or needs a line's ends: search the whole text
  // States the forward scan stays in for a run of bytes (inside `\w+`): the
  // scan skips to the end of the run, sixteen bytes compared at a time.
  struct Run {
    LazyDfa::S state;
    ByteSet stay;
    alignas(16) uint8_t lo[2][16], hi[2][16]; // (nibble tables: runEnd)
    uint32_t tries = 0;   // skips so far (up to kJudgeAfter), and the bytes they passed:
    uint64_t skipped = 0; // a run shorter than 3 bytes on average is not worth a skip
    bool off = false;
  };
  static constexpr uint32_t kJudgeAfter = 256;
  std::vector<Run> runs_;
  size_t runsFlushes_ = 0;
  void noteRun(LazyDfa& d, LazyDfa::S s);
  size_t runEnd(const Run& r, const unsigned char* p, size_t i, size_t n) const;
  // The forward DFA's restart state (no partial match) and the bytes that
  // leave it, while the cache has not been flushed since they were found.
  LazyDfa::S restart_ = LazyDfa::kDead;
  std::vector<uint8_t> restartExits_;
  bool restartKnown_ = false;
  size_t flushes_ = 0;

  // Every match has one of these bytes at this offset from its start.
  struct Prefilter {
    size_t offset;
    std::vector<uint8_t> bytes;
  };
  std::optional<Prefilter> prefilter_;
  std::string literal_; // the pattern is this literal (at least two bytes): memchr and memcmp
  size_t rareAt_ = 0;   // its rarest byte
  std::optional<Span> literalAt(std::string_view s, size_t from) const;

  bool dfaTakes(std::string_view s) const;
  std::optional<Span> prefiltered(std::string_view s, size_t from);
  std::optional<size_t> endOfMatch(std::string_view s, size_t from, size_t* counted = nullptr);
  size_t startOfMatch(std::string_view s, size_t from, size_t end);
  std::optional<Span> next(std::string_view s, size_t pos, std::optional<size_t> notEmptyAt);
};

} // namespace thorin::plug::regex
