#include "matcher.hpp"

#include <algorithm>
#include <cstring>

#include <emmintrin.h>
#include <tmmintrin.h>

#include <fmt/format.h>

namespace thorin::plug::regex {
namespace {

bool isWordByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The pattern read right to left: sequences reversed, the anchors of the
// start and of the end exchanged (for the DFA `$` is the end of the text:
// the matcher sends `$` before a final '\n' to the Pike VM).
std::unique_ptr<Node> reversed(const Node& n) {
  auto r = std::make_unique<Node>();
  r->kind = n.kind;
  r->bytes = n.bytes;
  r->min = n.min;
  r->max = n.max;
  r->group = 0;
  r->assertion = n.assertion;
  if (n.kind == Node::Assertion) switch (n.assertion) {
    case Assert::LineStart:
    case Assert::TextStart: r->assertion = Assert::TextEnd; break;
    case Assert::LineEnd:
    case Assert::TextEnd: r->assertion = Assert::TextStart; break;
    default: break;
    }
  for (auto& k : n.kids)
    r->kids.push_back(reversed(*k));
  if (n.kind == Node::Seq) std::reverse(r->kids.begin(), r->kids.end());
  return r;
}

bool has(const Program& p, auto pred) {
  for (const Inst& i : p.code)
    if (pred(i)) return true;
  return false;
}

// The byte sets at the fixed offsets every match starts with (a pattern
// that begins with fixed-width parts: [0-9]{4}-[0-9]{2}); the assertions
// there take no room.
void fixedPrefix(const Node& n, std::vector<ByteSet>& out, bool& open) {
  if (!open) return;
  switch (n.kind) {
  case Node::Bytes: out.push_back(n.bytes); return;
  case Node::Assertion:
  case Node::Empty: return;
  case Node::Group: return fixedPrefix(*n.kids[0], out, open);
  case Node::Seq:
    for (auto& k : n.kids)
      fixedPrefix(*k, out, open);
    return;
  case Node::Repeat:
    if (n.min == n.max && n.kids[0]->kind == Node::Bytes && n.min <= 64) {
      out.insert(out.end(), n.min, n.kids[0]->bytes);
      return;
    }
    if (n.kids[0]->kind == Node::Bytes && n.min > 0) // (x{m,…}: m of them, then anything)
      out.insert(out.end(), std::min<uint32_t>(n.min, 64), n.kids[0]->bytes);
    open = false;
    return;
  case Node::Alt: open = false; return;
  }
}

// How common a byte is in text (higher: more common), to pick the byte a
// scan looks for: English letters by their frequency, space the most
// common, capitals, digits and the rest rare.
unsigned commonness(uint8_t c) {
  static constexpr std::string_view kLetters = "zqjxkvbpygfwmucldrhsnioate"; // (rarest first)
  if (c == ' ') return 40;
  if (size_t k = kLetters.find(char(c)); k != std::string_view::npos) return unsigned(k) + 10;
  if (c == '\n' || c == '.' || c == ',') return 9;
  if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return 4;
  return 2;
}

// The bytes of a pattern that is one literal string (at least two bytes, no
// group, no assertion), else "".
std::string literalOf(const Node& n) {
  auto single = [](const Node& b) { return b.kind == Node::Bytes && b.bytes.count() == 1; };
  auto byteOf = [](const Node& b) {
    for (unsigned c = 0; c < 256; ++c)
      if (b.bytes.test(c)) return char(c);
    return char(0);
  };
  std::string out;
  if (n.kind != Node::Seq) return out;
  for (auto& k : n.kids) {
    if (!single(*k)) return "";
    out += byteOf(*k);
  }
  return out;
}

Before forwardAt(std::string_view s, size_t pos) {
  return {pos == 0, pos > 0 && isWordByte(s[pos - 1])};
}
Before reverseAt(std::string_view s, size_t pos) {
  return {pos == s.size(), pos < s.size() && isWordByte(s[pos])};
}

} // namespace

Matcher::Matcher(const Pattern& p) : pike_(compile(p)), groups_(p.groups) {
  nullable_ = nullable(*p.root);
  usesLineEnd_ =
      has(pike_, [](const Inst& i) { return i.op == Inst::Check && i.check == Assert::LineEnd; });
  usesWord_ = has(pike_, [](const Inst& i) {
    return i.op == Inst::Check &&
           (i.check == Assert::WordBoundary || i.check == Assert::NotWordBoundary);
  });
  if (has(pike_, [](const Inst& i) { return i.op == Inst::Loop; })) return;
  // A match never holds a '\n' nor looks for a line's (or the text's) ends,
  // and is never empty: the matches in a text are those in its lines.
  lineLocal_ = !nullable_ && !has(pike_, [&](const Inst& i) {
    return (i.op == Inst::Byte && pike_.sets[i.x].test('\n')) ||
           (i.op == Inst::Check && i.check != Assert::WordBoundary &&
            i.check != Assert::NotWordBoundary);
  });
  // The rarest of the fixed-offset byte sets, if it has few bytes: a scan
  // skips to them and tries the pattern anchored where a match would start.
  std::vector<ByteSet> prefix;
  bool open = true;
  fixedPrefix(*p.root, prefix, open);
  unsigned best = ~0u;
  for (size_t k = 0; k < prefix.size(); ++k) {
    if (prefix[k].count() > 3) continue;
    unsigned how = 0;
    for (unsigned c = 0; c < 256; ++c)
      if (prefix[k].test(c)) how += commonness(uint8_t(c));
    if (how >= best) continue;
    best = how;
    prefilter_ = Prefilter{k, {}};
    for (unsigned c = 0; c < 256; ++c)
      if (prefix[k].test(c)) prefilter_->bytes.push_back(uint8_t(c));
  }
  // A literal: found by its rarest byte and a comparison, as by hand.
  literal_ = literalOf(*p.root);
  for (size_t k = 1; k < literal_.size(); ++k)
    if (commonness(uint8_t(literal_[k])) < commonness(uint8_t(literal_[rareAt_]))) rareAt_ = k;

  // Forward: the pattern behind a lazy `.*?` (a search starts anywhere,
  // later starts at lower priority).
  Program fwd = pike_;
  unanchored_ = uint32_t(fwd.code.size());
  fwd.sets.push_back(ByteSet().set());
  fwd.code.push_back({Inst::Split, {}, 0, unanchored_ + 1});
  fwd.code.push_back({Inst::Byte, {}, uint32_t(fwd.sets.size() - 1), 0});
  fwd.code.push_back({Inst::Jump, {}, unanchored_, 0});
  forward_ = std::make_unique<LazyDfa>(std::move(fwd), MatchKind::LeftmostFirst);
  whole_ = std::make_unique<LazyDfa>(pike_, MatchKind::All);
  Pattern back;
  back.root = reversed(*p.root);
  reverse_ = std::make_unique<LazyDfa>(compile(back), MatchKind::All);
}

bool Matcher::dfaTakes(std::string_view s) const {
  return forward_ && !(usesWord_ && s.empty()) && !(usesLineEnd_ && !s.empty() && s.back() == '\n');
}

// The next position at or after i whose byte is one of `bytes` (at most 8),
// or n: sixteen bytes compared at a time.
size_t skipTo(const unsigned char* p, size_t i, size_t n, const std::vector<uint8_t>& bytes) {
  if (bytes.size() == 1) {
    const void* q = std::memchr(p + i, bytes[0], n - i);
    return q ? size_t(static_cast<const unsigned char*>(q) - p) : n;
  }
  __m128i want[8];
  for (size_t k = 0; k < bytes.size(); ++k)
    want[k] = _mm_set1_epi8(char(bytes[k]));
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i hit = _mm_cmpeq_epi8(v, want[0]);
    for (size_t k = 1; k < bytes.size(); ++k)
      hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, want[k]));
    if (int mask = _mm_movemask_epi8(hit)) return i + size_t(__builtin_ctz(unsigned(mask)));
  }
  for (; i < n; ++i)
    for (uint8_t b : bytes)
      if (p[i] == b) return i;
  return n;
}

// The first position from i whose byte leaves the run (n: none), sixteen at
// a time: a byte is in the set when the mask its low nibble selects has its
// high nibble's bit (two tables: bytes below 128 and from 128).
__attribute__((target("ssse3"))) static size_t runEndSimd(const uint8_t (*lo)[16],
                                                          const uint8_t (*hi)[16],
                                                          const unsigned char* p, size_t i,
                                                          size_t n) {
  const __m128i low = _mm_set1_epi8(0x0f);
  __m128i lo0 = _mm_load_si128(reinterpret_cast<const __m128i*>(lo[0]));
  __m128i lo1 = _mm_load_si128(reinterpret_cast<const __m128i*>(lo[1]));
  __m128i hi0 = _mm_load_si128(reinterpret_cast<const __m128i*>(hi[0]));
  __m128i hi1 = _mm_load_si128(reinterpret_cast<const __m128i*>(hi[1]));
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i l = _mm_and_si128(v, low), h = _mm_and_si128(_mm_srli_epi16(v, 4), low);
    __m128i in = _mm_or_si128(_mm_and_si128(_mm_shuffle_epi8(lo0, l), _mm_shuffle_epi8(hi0, h)),
                              _mm_and_si128(_mm_shuffle_epi8(lo1, l), _mm_shuffle_epi8(hi1, h)));
    int out = _mm_movemask_epi8(_mm_cmpeq_epi8(in, _mm_setzero_si128()));
    if (out) return i + size_t(__builtin_ctz(unsigned(out)));
  }
  return i;
}

inline size_t Matcher::runEnd(const Run& r, const unsigned char* p, size_t i, size_t n) const {
  static const bool simd = __builtin_cpu_supports("ssse3");
  if (simd) i = runEndSimd(r.lo, r.hi, p, i, n);
  while (i < n && r.stay.test(p[i]))
    ++i;
  return i;
}

// The end of the leftmost-first match at or after `from`: the last position
// a match was seen at before the forward DFA dies. Where the scan is back in
// the state of no partial match (the restart state), it skips to the next
// byte that can start one, when there are few such bytes. With `counted`
// (a pattern that cannot match the empty string), each match is counted
// and the scan goes on from its end, to the end of s: one loop for `count`.
std::optional<size_t> Matcher::endOfMatch(std::string_view s, size_t from, size_t* counted) {
  LazyDfa& d = *forward_;
  using S = LazyDfa::S;
  if (!restartKnown_ || d.flushes() != flushes_) {
    restart_ = d.start(unanchored_, {false, false});
    size_t f = d.flushes();
    restartExits_ = d.exits(restart_);
    restartKnown_ = d.flushes() == f;
    flushes_ = d.flushes();
  }
  S st = d.start(unanchored_, forwardAt(s, from));
  bool skip = restartKnown_ && d.flushes() == flushes_ && !restartExits_.empty();
  std::optional<size_t> end;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  const S* table = d.table();
  const uint8_t* matchAt = d.matchFlags();
  const uint8_t* cls = d.classes().data();
  if (d.flushes() != runsFlushes_) runs_.clear(), runsFlushes_ = d.flushes();
  for (size_t i = from;;) {
    for (; i < n; ++i) {
      if (skip && st == restart_) {
        i = skipTo(p, i, n, restartExits_);
        if (i == n) break;
      }
      S t = table[st + cls[p[i]]];
      if (t <= 0) [[unlikely]] {
        if (t == LazyDfa::kDead) break;
        t = d.next(st, cls[p[i]]);
        if (t == st && d.flushes() == flushes_) noteRun(d, st); // (a loop found: a run?)
        table = d.table(), matchAt = d.matchFlags();
        if (d.flushes() != flushes_) skip = false; // (the restart state's number is gone)
        if (t == LazyDfa::kDead) break;
      }
      st = t;
      if (uint8_t f = matchAt[st]) {
        if (f & LazyDfa::kMatchFlag) end = i;
        if ((f & LazyDfa::kRunFlag) && d.flushes() == runsFlushes_) // (skip through the run)
          for (Run& r : runs_)
            if (r.state == st && !r.off) {
              size_t j = runEnd(r, p, i + 1, n);
              if (j > i + 1 && (f & LazyDfa::kMatchFlag)) end = j - 1;
              if (r.tries < kJudgeAfter && ++r.tries == kJudgeAfter &&
                  (r.off = r.skipped < 3 * kJudgeAfter))
                d.markRun(st, false); // (the hot loop looks no more)
              r.skipped += j - (i + 1);
              i = j - 1;
              break;
            }
      }
    }
    if (i == n && d.isMatch(d.next(st, d.eot()))) end = n;
    if (!counted || !end) return end;
    ++*counted; // (then on from the match's end: a match is never empty here)
    i = *end;
    end.reset();
    // (where the state does not depend on the byte before, the restart state)
    st = !usesWord_ && restartKnown_ && d.flushes() == flushes_
             ? restart_
             : d.start(unanchored_, forwardAt(s, i));
    table = d.table(), matchAt = d.matchFlags();
    if (d.flushes() != flushes_) skip = false;
  }
}

// A state with a loop on itself: when at least 16 bytes keep the scan in it
// (a run such as `[A-Za-z]+`), it is marked to be skipped through.
void Matcher::noteRun(LazyDfa& d, LazyDfa::S s) {
  if (d.flushes() != runsFlushes_) runs_.clear(), runsFlushes_ = d.flushes();
  if (runs_.size() >= 4 || !d.roomFor(257)) return; // (s must stay what it is: no flush)
  for (const Run& r : runs_)
    if (r.state == s) return;
  size_t f = d.flushes();
  Run r{s, {}, {}, {}, 0, 0, false};
  for (unsigned c = 0; c < 256; ++c)
    r.stay.set(c, d.next(s, d.classOf(uint8_t(c))) == s);
  if (d.flushes() != f || r.stay.count() < 16) return;
  for (unsigned c = 0; c < 256; ++c)
    if (r.stay.test(c)) r.lo[c >> 7][c & 15] |= uint8_t(1u << ((c >> 4) & 7));
  for (unsigned h = 0; h < 16; ++h)
    r.hi[h >> 3][h] = uint8_t(1u << (h & 7));
  runs_.push_back(r);
  d.markRun(s);
}

// The leftmost start of a match ending at `end` (not before `from`): the
// reverse DFA run back from `end`, the last match it sees. It is the
// leftmost-first match's start: no match starts further left.
size_t Matcher::startOfMatch(std::string_view s, size_t from, size_t end) {
  LazyDfa& d = *reverse_;
  LazyDfa::S st = d.start(0, reverseAt(s, end));
  size_t start = end;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (size_t i = end; i > from; --i) {
    st = d.next(st, d.classOf(p[i - 1]));
    if (st == LazyDfa::kDead) return start;
    if (d.isMatch(st)) start = i;
  }
  if (d.isMatch(d.next(st, from > 0 ? d.classOf(p[from - 1]) : d.eot()))) start = from;
  return start;
}

bool Matcher::fullMatch(std::string_view s) {
  if (!dfaTakes(s)) return regex::fullMatch(pike_, s);
  LazyDfa& d = *whole_;
  LazyDfa::S st = pairs_ > 0 ? wholeStart_ : d.start(0, forwardAt(s, 0));
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const uint8_t* cls = d.classes().data();
  size_t i = 0, n = s.size();
  if (pairs_ == 0) {
    pairs_ = d.buildPairs(kPairStates) ? 1 : -1;
    // (a whole DFA is never flushed: its start state stays what it is)
    if (pairs_ > 0) wholeStart_ = st = d.start(0, forwardAt(s, 0)), wholeStartPair_ = d.pairRow(st);
  }
  if (pairs_ > 0) { // (two bytes a step: half the dependent loads)
    const LazyDfa::S* two = d.pairs();
    const uint32_t nc = d.numClasses();
    LazyDfa::S at = wholeStartPair_;
    for (; i + 4 <= n; i += 4) { // (the dead state's row leads to itself: one test for two steps)
      at = two[at + cls[p[i]] * nc + cls[p[i + 1]]];
      at = two[at + cls[p[i + 2]] * nc + cls[p[i + 3]]];
      if (at == LazyDfa::kDead) return false;
    }
    for (; i + 2 <= n; i += 2)
      if ((at = two[at + cls[p[i]] * nc + cls[p[i + 1]]]) == LazyDfa::kDead) return false;
    st = d.rowOfPair(at);
  }
  const LazyDfa::S* table = d.table();
  for (; i < n; ++i) {
    LazyDfa::S t = table[st + cls[p[i]]];
    if (t <= 0) [[unlikely]] {
      if (t == LazyDfa::kDead) return false;
      t = d.next(st, cls[p[i]]);
      table = d.table();
      if (t == LazyDfa::kDead) return false;
    }
    st = t;
  }
  return d.isMatch(d.next(st, d.eot()));
}

std::optional<Span> Matcher::search(std::string_view s, size_t from) {
  if (from > s.size()) return std::nullopt;
  if (!dfaTakes(s)) {
    auto m = regex::search(pike_, s, from, false);
    if (!m) return std::nullopt;
    return Span{size_t((*m)[0]), size_t((*m)[1])};
  }
  if (!literal_.empty()) return literalAt(s, from);
  if (prefilter_) return prefiltered(s, from);
  auto end = endOfMatch(s, from);
  if (!end) return std::nullopt;
  return Span{startOfMatch(s, from, *end), *end};
}

// The first occurrence of the literal at or after `from`: memchr for its
// rarest byte, then the comparison of the whole.
std::optional<Span> Matcher::literalAt(std::string_view s, size_t from) const {
  const size_t len = literal_.size(), k = rareAt_;
  const char rare = literal_[k];
  for (size_t at = from; at + len <= s.size();) {
    const void* q = std::memchr(s.data() + at + k, rare, s.size() - len + 1 - at);
    if (!q) break;
    size_t start = size_t(static_cast<const char*>(q) - s.data()) - k;
    if (std::memcmp(s.data() + start, literal_.data(), len) == 0) return Span{start, start + len};
    at = start + 1;
  }
  return std::nullopt;
}

// The leftmost-first match from `from`, where every match has one of a few
// bytes at a fixed offset k from its start: at each such byte (skipped to)
// the pattern anchored at k bytes before — the first one that matches is
// the leftmost match, no start before it having the byte k further on.
std::optional<Span> Matcher::prefiltered(std::string_view s, size_t from) {
  LazyDfa& d = *forward_;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size(), k = prefilter_->offset;
  for (size_t at = from; at + k < n;) {
    size_t q = skipTo(p, at + k, n, prefilter_->bytes);
    if (q == n) break;
    size_t start = q - k;
    LazyDfa::S st = d.start(0, forwardAt(s, start));
    std::optional<size_t> end;
    size_t i = start;
    for (; i < n && st != LazyDfa::kDead; ++i) {
      st = d.next(st, d.classOf(p[i]));
      if (d.isMatch(st)) end = i;
    }
    if (i == n && st != LazyDfa::kDead && d.isMatch(d.next(st, d.eot()))) end = n;
    if (end) return Span{start, *end};
    at = start + 1;
  }
  return std::nullopt;
}

std::optional<Captures> Matcher::captures(std::string_view s, size_t from) {
  if (!dfaTakes(s)) return regex::search(pike_, s, from, false);
  auto m = search(s, from);
  if (!m) return std::nullopt;
  return groupsOf(s, *m);
}

// The Pike VM anchored at the match's start finds the same match (the
// leftmost-first one from there; a non-empty one when finditer's rule took
// that instead of an empty one), now with its groups.
Captures Matcher::groupsOf(std::string_view s, Span m) const {
  auto c = regex::search(pike_, s, m.first, true,
                         m.second > m.first ? std::optional<size_t>(m.first) : std::nullopt);
  return c ? *c : Captures(pike_.slots, -1);
}

std::string Matcher::describe() const {
  if (!forward_)
    return fmt::format("{} NFA states, Pike VM: a loop over empty iterations", pike_.code.size());
  return fmt::format("{} NFA states, {} byte classes, lazy DFA", pike_.code.size(),
                     forward_->numClasses());
}

// The next match of finditer's walk from pos; after an empty match at pos
// none may be empty there: a non-empty one starting at pos (the Pike VM,
// anchored) or else the next from pos + 1.
std::optional<Span> Matcher::next(std::string_view s, size_t pos,
                                  std::optional<size_t> notEmptyAt) {
  if (!notEmptyAt || !dfaTakes(s)) {
    if (!dfaTakes(s)) {
      auto m = regex::search(pike_, s, pos, false, notEmptyAt);
      if (!m) return std::nullopt;
      return Span{size_t((*m)[0]), size_t((*m)[1])};
    }
    if (nullable_ || prefilter_) return search(s, pos);
    auto end = endOfMatch(s, pos); // (no match is empty: its start is not needed to go on)
    if (!end) return std::nullopt;
    return Span{pos, *end};
  }
  if (auto m = regex::search(pike_, s, pos, true, notEmptyAt))
    return Span{size_t((*m)[0]), size_t((*m)[1])};
  if (pos >= s.size()) return std::nullopt;
  return search(s, pos + 1);
}

std::vector<Span> Matcher::findAll(std::string_view s) {
  std::vector<Span> out;
  std::optional<size_t> notEmptyAt;
  for (size_t pos = 0; pos <= s.size();) {
    auto m = next(s, pos, notEmptyAt);
    if (!m) break;
    if (!nullable_ && !prefilter_ && dfaTakes(s)) m->first = startOfMatch(s, pos, m->second);
    out.push_back(*m);
    notEmptyAt = m->first == m->second ? std::optional<size_t>(m->second) : std::nullopt;
    pos = m->second;
  }
  return out;
}

size_t Matcher::count(std::string_view s) {
  size_t n = 0;
  if (!literal_.empty() && dfaTakes(s)) { // (occurrences one after another)
    for (auto m = literalAt(s, 0); m; m = literalAt(s, m->second))
      ++n;
    return n;
  }
  if (dfaTakes(s) && !nullable_ && !prefilter_) {
    endOfMatch(s, 0, &n);
    return n;
  }
  std::optional<size_t> notEmptyAt;
  for (size_t pos = 0; pos <= s.size();) {
    auto m = next(s, pos, notEmptyAt);
    if (!m) break;
    ++n;
    notEmptyAt = m->first == m->second ? std::optional<size_t>(m->second) : std::nullopt;
    pos = m->second;
  }
  return n;
}

// As GNU grep: where no match depends on the lines, the matches are looked
// for in the whole text (the DFA's skips across lines that cannot match),
// and each one's line taken; else each line is searched on its own.
std::vector<Span> Matcher::matchingLines(std::string_view s) {
  std::vector<Span> out;
  const char* p = s.data();
  auto lineEnd = [&](size_t from) {
    const void* q = std::memchr(p + from, '\n', s.size() - from);
    return q ? size_t(static_cast<const char*>(q) - p) : s.size();
  };
  if (lineLocal_ && dfaTakes(s)) {
    for (size_t pos = 0; pos < s.size();) {
      auto m = search(s, pos);
      if (!m) break;
      size_t start = m->first;
      while (start > pos && p[start - 1] != '\n')
        --start;
      size_t end = lineEnd(m->first);
      out.push_back({start, end});
      pos = end + 1;
    }
    return out;
  }
  for (size_t pos = 0; pos < s.size();) {
    size_t end = lineEnd(pos);
    if (search(s.substr(pos, end - pos), 0)) out.push_back({pos, end});
    pos = end + 1;
  }
  return out;
}

} // namespace thorin::plug::regex
