#include "pattern.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace thorin::plug::regex {

std::unique_ptr<Node> makeNode(Node::Kind k) {
  auto n = std::make_unique<Node>();
  n->kind = k;
  return n;
}

namespace {

ByteSet rangeSet(unsigned lo, unsigned hi) {
  ByteSet s;
  for (unsigned c = lo; c <= hi; ++c)
    s.set(c);
  return s;
}
ByteSet digits() { return rangeSet('0', '9'); }
ByteSet wordBytes() {
  return rangeSet('a', 'z') | rangeSet('A', 'Z') | digits() | rangeSet('_', '_');
}
ByteSet spaces() { return rangeSet('\t', '\r') | rangeSet(' ', ' '); }

// The ASCII letters of s in both cases.
ByteSet caseFolded(ByteSet s) {
  for (unsigned c = 'a'; c <= 'z'; ++c)
    if (s.test(c) || s.test(c - 32)) s.set(c), s.set(c - 32);
  return s;
}

std::unique_ptr<Node> bytesNode(ByteSet s) {
  auto n = makeNode(Node::Bytes);
  n->bytes = s;
  return n;
}

bool isHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
unsigned hexValue(char c) { return c <= '9' ? unsigned(c - '0') : unsigned((c | 0x20) - 'a' + 10); }

class Parser {
public:
  explicit Parser(std::string_view p) : p_(p) {}

  Pattern run() {
    flags();
    Pattern out;
    out.root = alternation();
    if (pos_ < p_.size()) // (only a ')' stops an alternation early)
      fail("unbalanced parenthesis: this ')' closes no group", pos_, 1);
    out.groups = groups_;
    out.caseless = caseless_;
    out.dotAll = dotAll_;
    if (caseless_) fold(*out.root);
    return out;
  }

private:
  std::string_view p_;
  size_t pos_ = 0;
  uint32_t groups_ = 0;
  bool caseless_ = false, dotAll_ = false;
  std::vector<std::string_view> names_; // (of the named groups so far)

  [[noreturn]] void fail(std::string msg, size_t at, size_t len) {
    throw SyntaxError{std::move(msg), uint32_t(at), uint32_t(len)};
  }
  bool atEnd() const { return pos_ >= p_.size(); }
  char peek() const { return p_[pos_]; }

  // Global flags at the start: (?i), (?s), (?is).
  void flags() {
    while (p_.substr(pos_, 2) == "(?" && pos_ + 2 < p_.size() &&
           (p_[pos_ + 2] == 'i' || p_[pos_ + 2] == 's')) {
      size_t b = pos_;
      pos_ += 2;
      while (!atEnd() && (peek() == 'i' || peek() == 's'))
        (peek() == 'i' ? caseless_ : dotAll_) = true, ++pos_;
      if (atEnd() || peek() != ')') fail("unknown flag (known: (?i), (?s))", b, pos_ - b + 1);
      ++pos_;
    }
  }

  void fold(Node& n) {
    if (n.kind == Node::Bytes) n.bytes = caseFolded(n.bytes);
    for (auto& k : n.kids)
      fold(*k);
  }

  std::unique_ptr<Node> alternation() {
    auto first = sequence();
    if (atEnd() || peek() != '|') return first;
    auto alt = makeNode(Node::Alt);
    alt->kids.push_back(std::move(first));
    while (!atEnd() && peek() == '|') {
      ++pos_;
      alt->kids.push_back(sequence());
    }
    return alt;
  }

  std::unique_ptr<Node> sequence() {
    auto seq = makeNode(Node::Seq);
    while (!atEnd() && peek() != '|' && peek() != ')')
      seq->kids.push_back(quantified());
    if (seq->kids.empty()) return makeNode(Node::Empty);
    if (seq->kids.size() == 1) return std::move(seq->kids[0]);
    return seq;
  }

  std::unique_ptr<Node> quantified() {
    auto a = atom();
    bool repeated = false;
    for (;;) {
      size_t q = pos_;
      uint32_t min, max;
      if (!quantifier(min, max)) return a;
      if (a->kind == Node::Assertion || a->kind == Node::Empty)
        fail("nothing to repeat", q, pos_ - q);
      if (repeated) fail("multiple repeat", q, pos_ - q);
      repeated = true;
      auto r = makeNode(Node::Repeat);
      r->min = min;
      r->max = max;
      if (!atEnd() && peek() == '?') r->lazy = true, ++pos_;
      r->kids.push_back(std::move(a));
      a = std::move(r);
    }
  }

  // * + ? {m} {m,} {m,n} {,n}; a '{' that starts none of these is a literal.
  bool quantifier(uint32_t& min, uint32_t& max) {
    if (atEnd()) return false;
    char c = peek();
    if (c == '*' || c == '+' || c == '?') {
      ++pos_;
      min = c == '+' ? 1 : 0;
      max = c == '?' ? 1 : kUnbounded;
      return true;
    }
    if (c != '{') return false;
    size_t b = pos_, i = pos_ + 1;
    auto number = [&](uint32_t& out) {
      size_t s = i;
      uint64_t v = 0;
      while (i < p_.size() && p_[i] >= '0' && p_[i] <= '9')
        v = std::min<uint64_t>(v * 10 + uint64_t(p_[i++] - '0'), uint64_t(kMaxRepeat) + 1);
      out = uint32_t(v);
      return i > s;
    };
    bool hasMin = number(min);
    if (!hasMin) min = 0;
    if (i < p_.size() && p_[i] == '}') {
      if (!hasMin) return false; // `{}`: a literal
      max = min;
    } else if (i < p_.size() && p_[i] == ',') {
      ++i;
      if (!number(max)) max = kUnbounded;
      if (i >= p_.size() || p_[i] != '}') return false;
    } else {
      return false;
    }
    pos_ = i + 1;
    if ((min > kMaxRepeat) || (max != kUnbounded && max > kMaxRepeat))
      fail(fmt::format("the repetition count is too large (at most {})", kMaxRepeat), b, pos_ - b);
    if (max < min) fail("min repeat greater than max repeat", b, pos_ - b);
    return true;
  }

  std::unique_ptr<Node> atom() {
    size_t b = pos_;
    char c = p_[pos_++];
    switch (c) {
    case '(': return group(b);
    case '[': return charClass(b);
    case '.': return bytesNode(dotAll_ ? ByteSet().set() : ~rangeSet('\n', '\n'));
    case '^': return assertion(Assert::LineStart);
    case '$': return assertion(Assert::LineEnd);
    case '\\': return escape(b, false);
    case '*':
    case '+':
    case '?': fail("nothing to repeat", b, 1);
    default: return bytesNode(rangeSet(uint8_t(c), uint8_t(c)));
    }
  }

  std::unique_ptr<Node> assertion(Assert a) {
    auto n = makeNode(Node::Assertion);
    n->assertion = a;
    return n;
  }

  std::unique_ptr<Node> group(size_t b) {
    auto g = makeNode(Node::Group);
    if (p_.substr(pos_, 2) == "?:") {
      pos_ += 2;
    } else if (p_.substr(pos_, 3) == "?P<") {
      size_t nameAt = pos_ + 3, close = p_.find('>', nameAt);
      if (close == std::string_view::npos || close == nameAt)
        fail("a group name: (?P<name>…)", b, nameAt - b);
      std::string_view name = p_.substr(nameAt, close - nameAt);
      auto wordByte = [](char c) { return wordBytes().test(static_cast<unsigned char>(c)); };
      if (!std::all_of(name.begin(), name.end(), wordByte) || (name[0] >= '0' && name[0] <= '9'))
        fail(fmt::format("bad character in group name '{}' (a name is letters, digits and _, "
                         "not starting with a digit)",
                         name),
             nameAt, close - nameAt);
      if (std::find(names_.begin(), names_.end(), name) != names_.end())
        fail(fmt::format("redefinition of group name '{}'", name), nameAt, close - nameAt);
      names_.push_back(name);
      pos_ = close + 1;
      g->group = ++groups_;
    } else if (!atEnd() && peek() == '?') {
      fail("unknown extension (known: (?:…), (?P<name>…), and (?i) (?s) at the start)", b,
           std::min<size_t>(3, p_.size() - b));
    } else {
      g->group = ++groups_;
    }
    g->kids.push_back(alternation());
    if (atEnd()) fail("missing ), unterminated subpattern", b, 1);
    ++pos_; // )
    return g;
  }

  // An escape at `b` (the backslash); inClass: inside [ ] (\b is a backspace there).
  std::unique_ptr<Node> escape(size_t b, bool inClass) {
    if (atEnd()) fail("bad escape (end of pattern)", b, 1);
    char c = p_[pos_++];
    auto one = [](unsigned v) { return bytesNode(rangeSet(v, v)); };
    switch (c) {
    case 'n': return one('\n');
    case 't': return one('\t');
    case 'r': return one('\r');
    case 'f': return one('\f');
    case 'v': return one('\v');
    case 'a': return one('\a');
    case '0': { // \0, \0o, \0oo: octal, as Python's
      unsigned v = 0;
      for (int k = 0; k < 2 && !atEnd() && peek() >= '0' && peek() <= '7'; ++k)
        v = 8 * v + unsigned(p_[pos_++] - '0');
      return one(v);
    }
    case 'd': return bytesNode(digits());
    case 'D': return bytesNode(~digits());
    case 'w': return bytesNode(wordBytes());
    case 'W': return bytesNode(~wordBytes());
    case 's': return bytesNode(spaces());
    case 'S': return bytesNode(~spaces());
    case 'x': {
      if (pos_ + 2 > p_.size() || !isHex(p_[pos_]) || !isHex(p_[pos_ + 1]))
        fail("incomplete escape \\x (two hex digits: \\x41)", b, std::min(p_.size(), pos_ + 2) - b);
      unsigned v = hexValue(p_[pos_]) * 16 + hexValue(p_[pos_ + 1]);
      pos_ += 2;
      return one(v);
    }
    case 'b': return inClass ? one('\b') : assertion(Assert::WordBoundary);
    default: break;
    }
    if (inClass && c >= '1' && c <= '7') { // ([\1] is octal in a class, as Python's)
      unsigned v = unsigned(c - '0');
      for (int k = 0; k < 2 && !atEnd() && peek() >= '0' && peek() <= '7' && v < 32; ++k)
        v = 8 * v + unsigned(p_[pos_++] - '0');
      return one(v);
    }
    if (!inClass) {
      if (c == 'B') return assertion(Assert::NotWordBoundary);
      if (c == 'A') return assertion(Assert::TextStart);
      if (c == 'z' || c == 'Z') return assertion(Assert::TextEnd);
    }
    // Any other punctuation stands for itself; a letter or digit is an error
    // (it may mean something in another dialect).
    unsigned char u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9'))
      fail(fmt::format("bad escape \\{}", c), b, 2);
    return one(u);
  }

  // [ … ] at b: ranges, escapes, a leading ^ negates, a leading ] is literal.
  std::unique_ptr<Node> charClass(size_t b) {
    bool negate = !atEnd() && peek() == '^';
    if (negate) ++pos_;
    ByteSet set;
    bool first = true;
    for (;;) {
      if (atEnd()) fail("unterminated character set", b, 1);
      if (peek() == ']' && !first) break;
      first = false;
      size_t itemAt = pos_;
      ByteSet lo = classItem();
      if (pos_ + 1 < p_.size() && peek() == '-' && p_[pos_ + 1] != ']') {
        ++pos_;
        ByteSet hi = classItem();
        if (lo.count() != 1 || hi.count() != 1)
          fail("bad character range (a class such as \\d cannot end a range)", itemAt,
               pos_ - itemAt);
        unsigned l = lowest(lo), h = lowest(hi);
        if (h < l)
          fail(fmt::format("bad character range {}", p_.substr(itemAt, pos_ - itemAt)), itemAt,
               pos_ - itemAt);
        set |= rangeSet(l, h);
      } else {
        set |= lo;
      }
    }
    ++pos_; // ]
    // (?i): a byte is in [^…] when neither case of it is in the class, as
    // in Python's `re` — so the class is folded before it is negated.
    if (caseless_) set = caseFolded(set);
    return bytesNode(negate ? ~set : set);
  }
  static unsigned lowest(const ByteSet& s) {
    for (unsigned c = 0; c < 256; ++c)
      if (s.test(c)) return c;
    return 0;
  }
  ByteSet classItem() {
    size_t b = pos_;
    char c = p_[pos_++];
    if (c != '\\') return rangeSet(uint8_t(c), uint8_t(c));
    auto n = escape(b, true);
    if (n->kind != Node::Bytes) fail("this escape is not allowed in a character set", b, pos_ - b);
    return n->bytes;
  }
};

} // namespace

std::string showSet(const ByteSet& s) {
  if (s.all()) return "any";
  std::string out = "[";
  for (unsigned c = 0; c < 256;) {
    if (!s.test(c)) {
      ++c;
      continue;
    }
    unsigned e = c;
    while (e + 1 < 256 && s.test(e + 1))
      ++e;
    auto ch = [](unsigned x) {
      return x > 32 && x < 127 && x != '-' && x != ']' && x != '\\' && x != '['
                 ? std::string(1, char(x))
                 : fmt::format("\\x{:02x}", x);
    };
    out += e == c ? ch(c) : ch(c) + "-" + ch(e);
    c = e + 1;
  }
  return out + "]";
}

Pattern parse(std::string_view pattern) { return Parser(pattern).run(); }

static std::string byteText(unsigned c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
             ? std::string(1, char(c))
             : fmt::format("\\x{:02x}", c);
}

std::string patternText(const Node& n) {
  switch (n.kind) {
  case Node::Empty: return "";
  case Node::Bytes: {
    if (n.bytes.count() == 1)
      for (unsigned c = 0; c < 256; ++c)
        if (n.bytes.test(c)) return byteText(c);
    std::string out = "[";
    for (unsigned c = 0; c < 256; ++c) {
      if (!n.bytes.test(c)) continue;
      unsigned e = c;
      while (e + 1 < 256 && n.bytes.test(e + 1))
        ++e;
      out += e == c ? byteText(c) : byteText(c) + "-" + byteText(e);
      c = e;
    }
    return n.bytes.none() ? "[^\\x00-\\xff]" : out + "]";
  }
  case Node::Seq: {
    std::string out;
    for (auto& k : n.kids)
      out += k->kind == Node::Alt ? "(?:" + patternText(*k) + ")" : patternText(*k);
    return out;
  }
  case Node::Alt: {
    std::string out;
    for (size_t i = 0; i < n.kids.size(); ++i)
      out += (i ? "|" : "") + patternText(*n.kids[i]);
    return out;
  }
  case Node::Repeat:
    return "(?:" + patternText(*n.kids[0]) + ")" +
           (n.max == kUnbounded ? fmt::format("{{{},}}", n.min)
                                : fmt::format("{{{},{}}}", n.min, n.max)) +
           (n.lazy ? "?" : "");
  case Node::Group: return (n.group ? "(" : "(?:") + patternText(*n.kids[0]) + ")";
  case Node::Assertion: {
    static constexpr const char* kText[] = {"^", "$", "\\A", "\\z", "\\b", "\\B"};
    return kText[size_t(n.assertion)];
  }
  }
  return "";
}

std::string show(const Node& n) {
  auto list = [&](const char* name) {
    std::string out = std::string(name) + "(";
    for (size_t i = 0; i < n.kids.size(); ++i)
      out += (i ? ", " : "") + show(*n.kids[i]);
    return out + ")";
  };
  switch (n.kind) {
  case Node::Empty: return "empty";
  case Node::Bytes: return showSet(n.bytes);
  case Node::Seq: return list("seq");
  case Node::Alt: return list("alt");
  case Node::Repeat:
    return fmt::format("rep{{{},{}}}{}({})", n.min,
                       n.max == kUnbounded ? "inf" : std::to_string(n.max), n.lazy ? "?" : "",
                       show(*n.kids[0]));
  case Node::Group:
    return fmt::format("{}({})", n.group ? "group" + std::to_string(n.group) : "nc",
                       show(*n.kids[0]));
  case Node::Assertion: {
    static constexpr const char* kNames[] = {"^", "$", "\\A", "\\z", "\\b", "\\B"};
    return kNames[size_t(n.assertion)];
  }
  }
  return "?";
}

// Can n match the empty string?
bool nullable(const Node& n) {
  switch (n.kind) {
  case Node::Empty:
  case Node::Assertion: return true;
  case Node::Bytes: return false;
  case Node::Seq:
    for (auto& k : n.kids)
      if (!nullable(*k)) return false;
    return true;
  case Node::Alt:
    for (auto& k : n.kids)
      if (nullable(*k)) return true;
    return false;
  case Node::Repeat: return n.min == 0 || nullable(*n.kids[0]);
  case Node::Group: return nullable(*n.kids[0]);
  }
  return true;
}

} // namespace thorin::plug::regex
