#include "matcher.hpp"

#include <algorithm>

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

// The end of the leftmost-first match at or after `from`: the last position
// a match was seen at before the forward DFA dies.
std::optional<size_t> Matcher::endOfMatch(std::string_view s, size_t from) {
  LazyDfa& d = *forward_;
  int32_t st = d.start(unanchored_, forwardAt(s, from));
  std::optional<size_t> end;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (size_t i = from; i < s.size(); ++i) {
    st = d.next(st, d.classOf(p[i]));
    if (st == LazyDfa::kDead) return end;
    if (d.isMatch(st)) end = i;
  }
  if (d.isMatch(d.next(st, d.eot()))) end = s.size();
  return end;
}

// The leftmost start of a match ending at `end` (not before `from`): the
// reverse DFA run back from `end`, the last match it sees. It is the
// leftmost-first match's start: no match starts further left.
size_t Matcher::startOfMatch(std::string_view s, size_t from, size_t end) {
  LazyDfa& d = *reverse_;
  int32_t st = d.start(0, reverseAt(s, end));
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
  int32_t st = d.start(0, forwardAt(s, 0));
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (size_t i = 0; i < s.size(); ++i) {
    st = d.next(st, d.classOf(p[i]));
    if (st == LazyDfa::kDead) return false;
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
  auto end = endOfMatch(s, from);
  if (!end) return std::nullopt;
  return Span{startOfMatch(s, from, *end), *end};
}

std::optional<Captures> Matcher::captures(std::string_view s, size_t from) {
  if (!dfaTakes(s)) return regex::search(pike_, s, from, false);
  auto m = search(s, from);
  if (!m) return std::nullopt;
  return regex::search(pike_, s, m->first, true); // (the same match, its groups now)
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
    if (nullable_) return search(s, pos);
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
    if (!nullable_ && dfaTakes(s)) m->first = startOfMatch(s, pos, m->second);
    out.push_back(*m);
    notEmptyAt = m->first == m->second ? std::optional<size_t>(m->second) : std::nullopt;
    pos = m->second;
  }
  return out;
}

size_t Matcher::count(std::string_view s) {
  size_t n = 0;
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

} // namespace thorin::plug::regex
