// The regex plugin's fast matcher: a lazy DFA (subset construction on
// demand) over byte classes, as RE2's and Rust's regex-automata. A state is
// the priority-ordered list of the NFA's threads; with leftmost-first
// semantics a match cuts the threads after it, which is how a DFA finds the
// end of the leftmost-first match. States are built as the input needs them
// and kept in a bounded cache, flushed when full: memory stays bounded
// whatever the pattern (`(a|b)*a(a|b){20}` would have 2^21 states).
//
// Assertions (`^ $ \A \z \b \B`) are decided as late as the input allows:
// what holds before a position (start of text, a word byte before) is part
// of the state; what needs the next byte (end of text, \b) stays pending in
// the state until the transition on that byte. So a match is seen one byte
// late: the state a transition on byte c leads to says whether a match ended
// just before c; the end of the input is one more class (`eot`).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "pike.hpp"

namespace thorin::plug::regex {

enum class MatchKind : uint8_t {
  LeftmostFirst, // a match cuts the lower-priority threads (search)
  All            // every thread runs on (whole-string match; the reverse scan's longest)
};

/// What is known of a position before its next byte is read.
struct Before {
  bool atStart = false;  // the start of the text (in the scan's direction)
  bool prevWord = false; // the byte before it (in the scan's direction) is a word byte
};

class LazyDfa {
public:
  /// A state as the matching loops hold it: its row's offset in the table.
  /// The dead state is 0; a transition not computed yet is -1 in the table.
  using S = int32_t;
  static constexpr S kDead = 0;

  /// `nfa`'s Match instructions end the pattern; its Loop instructions are
  /// not supported (Matcher sends such patterns to the Pike VM).
  LazyDfa(Program nfa, MatchKind kind, size_t maxStates = 0);

  /// The state at a position, the pattern's thread starting at pc `from`.
  S start(uint32_t from, Before b);
  /// The state after one more byte class (`eot()`: the end of the input).
  S next(S s, uint32_t cls) {
    S t = trans_[size_t(s) + cls];
    return t >= 0 ? t : compute(s, cls);
  }
  /// Did a match end just before the byte that led into s?
  bool isMatch(S s) const { return (match_[size_t(s)] & kMatchFlag) != 0; }
  /// Flags at each state's row offset: kMatchFlag (isMatch), and kRunFlag
  /// for a state a scan may skip through (markRun: the matcher's choice).
  static constexpr uint8_t kMatchFlag = 1, kRunFlag = 2;
  void markRun(S s, bool on = true) {
    match_[size_t(s)] = uint8_t((match_[size_t(s)] & ~kRunFlag) | (on ? kRunFlag : 0));
  }
  /// Can k more states be made without flushing the cache?
  bool roomFor(size_t k) const { return states_.size() + k < maxStates_; }
  /// The table the loops read: the state after s on class c is at s + c;
  /// matchFlags()[s]: isMatch(s).
  const S* table() const { return trans_.data(); }
  const uint8_t* matchFlags() const { return match_.data(); }

  uint32_t classOf(unsigned char c) const { return classes_[c]; }
  uint32_t eot() const { return numClasses_; }
  uint32_t numClasses() const { return numClasses_; }
  const std::array<uint8_t, 256>& classes() const { return classes_; }
  size_t states() const { return states_.size(); }
  size_t flushes() const { return flushes_; }
  const Program& nfa() const { return nfa_; }

  /// The bytes that lead out of s (to another state), when there are at
  /// most 8 of them: a scan can skip to the next of them (memchr-like)
  /// instead of stepping through s's self-loop. Empty: s cannot be skipped.
  std::vector<uint8_t> exits(S s);

  /// Two bytes a step, for a DFA small enough to build whole (at most
  /// `maxStates` states, 32 classes): pairs()[p + c1 · classes + c2] is the
  /// state after classes c1 then c2 from the pair row p, rows of classes²
  /// (pairRow, rowOfPair convert; the dead state is 0 in both). False if
  /// the DFA is larger. (A whole DFA is never flushed: it stays valid.)
  bool buildPairs(size_t maxStates);
  const S* pairs() const { return pairs_.data(); }
  S pairRow(S s) const { return S(indexOf(s) * numClasses_ * numClasses_); }
  S rowOfPair(S p) const { return pairState_[size_t(p)]; }

  /// Every state the cache has and every one reachable from them (at most
  /// `limit` in all; false if there are more): the whole DFA, for
  /// minimisation and `:regex`.
  bool explore(size_t limit);
  /// After explore(): the number of states of the minimal equivalent DFA
  /// (Moore's partition refinement: states apart when their match flags
  /// differ, or their transitions on some class lead to states apart).
  size_t minimalStates() const;

private:
  struct State {
    std::vector<uint32_t> insts; // threads at Byte, Match or a pending Check, by priority
    Before before;
    bool match;
  };
  struct Known; // what the closure may assume of the position

  Program nfa_;
  MatchKind kind_;
  bool usesWord_ = false;
  std::array<uint8_t, 256> classes_{};
  std::array<uint8_t, 256> representative_{}; // a byte of each class
  uint32_t numClasses_ = 0, stride_ = 0;
  size_t maxStates_ = 0, flushes_ = 0;

  std::vector<State> states_;
  std::vector<S> trans_;       // by rows of stride_; -1: not computed yet
  std::vector<uint8_t> match_; // at each row's offset: the state's match flag
  std::vector<S> pairs_;
  std::vector<S> pairState_; // at each pair row's offset: the state's row in table()
  std::unordered_map<std::string, int32_t> index_;
  std::unordered_map<uint64_t, S> starts_;
  struct RecentStart {
    uint64_t key = ~uint64_t(0);
    S s = kDead;
  };
  std::array<RecentStart, 8> recentStarts_{}; // (a scan asks at every match)
  bool usesStart_ = false;     // (else where a state is does not matter: fewer states)
  std::vector<uint32_t> seen_; // pc → generation (closures)
  uint32_t gen_ = 0;
  std::vector<uint32_t> stack_;

  void computeClasses();
  void follow(uint32_t pc, const Known& k, std::vector<uint32_t>& out);
  S encode(size_t index) const { return S(index * stride_); }
  size_t indexOf(S s) const { return size_t(s) / stride_; }
  S intern(std::vector<uint32_t> insts, Before b, bool match);
  S compute(S s, uint32_t cls);
  void flush();
};

} // namespace thorin::plug::regex
