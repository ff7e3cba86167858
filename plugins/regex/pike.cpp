#include "pike.hpp"

namespace thorin::plug::regex {
namespace {

class Compiler {
public:
  explicit Compiler(Program& p) : p_(p) {}

  void emit(const Node& n) {
    switch (n.kind) {
    case Node::Empty: return;
    case Node::Bytes:
      p_.sets.push_back(n.bytes);
      add({Inst::Byte, {}, uint32_t(p_.sets.size() - 1), 0});
      return;
    case Node::Seq:
      for (auto& k : n.kids)
        emit(*k);
      return;
    case Node::Alt: return alternatives(n, 0);
    case Node::Repeat: return repeat(n);
    case Node::Group:
      if (n.group) add({Inst::Save, {}, 2 * n.group, 0});
      emit(*n.kids[0]);
      if (n.group) add({Inst::Save, {}, 2 * n.group + 1, 0});
      return;
    case Node::Assertion: add({Inst::Check, n.assertion, 0, 0}); return;
    }
  }

  uint32_t add(Inst i) {
    p_.code.push_back(i);
    return uint32_t(p_.code.size() - 1);
  }
  uint32_t here() const { return uint32_t(p_.code.size()); }

private:
  Program& p_;

  // kids[i] | kids[i + 1] | …: each but the last behind a split preferring it.
  void alternatives(const Node& n, size_t i) {
    if (i + 1 == n.kids.size()) return emit(*n.kids[i]);
    uint32_t split = add({Inst::Split, {}, 0, 0});
    p_.code[split].x = here();
    emit(*n.kids[i]);
    uint32_t jump = add({Inst::Jump, {}, 0, 0});
    p_.code[split].y = here();
    alternatives(n, i + 1);
    p_.code[jump].x = here();
  }

  // A split to `body` (next) or `out` (patched later), preferring the body
  // unless lazy.
  uint32_t choice(bool lazy) {
    uint32_t s = add({Inst::Split, {}, 0, 0});
    (lazy ? p_.code[s].y : p_.code[s].x) = s + 1;
    return s;
  }
  void patchOut(uint32_t s, bool lazy, uint32_t out) { (lazy ? p_.code[s].x : p_.code[s].y) = out; }

  void repeat(const Node& n) {
    const Node& body = *n.kids[0];
    for (uint32_t i = 0; i < n.min; ++i)
      emit(body);
    if (n.max == kUnbounded) { // L: split(body, out); body; jump L; out:
      uint32_t loop = choice(n.lazy);
      bool empty = nullable(body);
      uint32_t slot = empty ? p_.slots++ : 0;
      if (empty) add({Inst::Save, {}, slot, 0}); // (where the iteration starts)
      emit(body);
      uint32_t check = empty ? add({Inst::Loop, {}, slot, 0}) : 0;
      add({Inst::Jump, {}, loop, 0});
      patchOut(loop, n.lazy, here());
      if (empty) p_.code[check].y = here();
      return;
    }
    std::vector<uint32_t> splits; // (max − min) optional copies, all leaving to the end
    for (uint32_t i = n.min; i < n.max; ++i) {
      splits.push_back(choice(n.lazy));
      emit(body);
    }
    for (uint32_t s : splits)
      patchOut(s, n.lazy, here());
  }
};

bool isWord(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Does the assertion hold at position pos of s? (Python's `re` without
// MULTILINE: ^ at the start only, $ at the end or before a final '\n'.)
bool holds(Assert a, std::string_view s, size_t pos) {
  size_t n = s.size();
  switch (a) {
  case Assert::LineStart:
  case Assert::TextStart: return pos == 0;
  case Assert::LineEnd: return pos == n || (pos + 1 == n && s[pos] == '\n');
  case Assert::TextEnd: return pos == n;
  case Assert::WordBoundary:
  case Assert::NotWordBoundary: {
    if (n == 0) return false; // (neither holds in an empty string, as in Python's `re`)
    bool before = pos > 0 && isWord(s[pos - 1]), after = pos < n && isWord(s[pos]);
    return (before != after) == (a == Assert::WordBoundary);
  }
  }
  return false;
}

// The threads of one position, in priority order, each pc at most once.
struct Threads {
  std::vector<uint32_t> pcs;
  std::vector<Captures> caps;
  std::vector<uint32_t> seen; // pc → the generation it was added in
  uint32_t gen = 0;
  void reset(size_t n) {
    pcs.clear();
    caps.clear();
    if (seen.size() < n) seen.assign(n, 0);
    ++gen;
  }
};

// Adds the thread at pc (following jumps, splits, saves and checks at pos).
void addThread(const Program& p, Threads& t, uint32_t pc, Captures& caps, std::string_view s,
               size_t pos) {
  if (t.seen[pc] == t.gen) return;
  t.seen[pc] = t.gen;
  const Inst& i = p.code[pc];
  switch (i.op) {
  case Inst::Jump: return addThread(p, t, i.x, caps, s, pos);
  case Inst::Split: addThread(p, t, i.x, caps, s, pos); return addThread(p, t, i.y, caps, s, pos);
  case Inst::Save: {
    int64_t old = caps[i.x];
    caps[i.x] = int64_t(pos);
    addThread(p, t, pc + 1, caps, s, pos);
    caps[i.x] = old;
    return;
  }
  case Inst::Check:
    if (holds(i.check, s, pos)) addThread(p, t, pc + 1, caps, s, pos);
    return;
  case Inst::Loop: return addThread(p, t, caps[i.x] == int64_t(pos) ? i.y : pc + 1, caps, s, pos);
  case Inst::Byte:
  case Inst::Match:
    t.pcs.push_back(pc);
    t.caps.push_back(caps);
    return;
  }
}

} // namespace

Program compile(const Pattern& pat) {
  Program p;
  p.slots = 2 * (pat.groups + 1);
  Compiler c(p);
  c.add({Inst::Save, {}, 0, 0});
  c.emit(*pat.root);
  c.add({Inst::Save, {}, 1, 0});
  c.add({Inst::Match, {}, 0, 0});
  return p;
}

std::optional<Captures> search(const Program& prog, std::string_view s, size_t from, bool anchored,
                               std::optional<size_t> notEmptyAt) {
  Threads cur, next;
  cur.reset(prog.code.size());
  next.reset(prog.code.size());
  std::optional<Captures> found;
  for (size_t pos = from; pos <= s.size(); ++pos) {
    if (!found && (pos == from || !anchored)) { // (the latest start, lowest priority)
      Captures fresh(prog.slots, -1);
      addThread(prog, cur, 0, fresh, s, pos);
    }
    if (cur.pcs.empty() && (found || anchored)) break;
    next.reset(prog.code.size());
    for (size_t k = 0; k < cur.pcs.size(); ++k) {
      const Inst& i = prog.code[cur.pcs[k]];
      if (i.op == Inst::Match) {
        Captures& c = cur.caps[k];
        if (notEmptyAt && c[0] == int64_t(*notEmptyAt) && c[1] == c[0]) continue;
        found = c;
        break; // (the threads after it have lower priority)
      }
      if (pos < s.size() && prog.sets[i.x].test(static_cast<unsigned char>(s[pos])))
        addThread(prog, next, cur.pcs[k] + 1, cur.caps[k], s, pos + 1);
    }
    std::swap(cur, next);
  }
  return found;
}

bool fullMatch(const Program& prog, std::string_view s) {
  // The pattern followed by \z: a path that ends at the end, if any.
  Program p = prog;
  p.code.pop_back(); // Match
  p.code.push_back({Inst::Check, Assert::TextEnd, 0, 0});
  p.code.push_back({Inst::Match, {}, 0, 0});
  return search(p, s, 0, true).has_value();
}

std::vector<std::pair<size_t, size_t>> findAll(const Program& prog, std::string_view s) {
  std::vector<std::pair<size_t, size_t>> out;
  std::optional<size_t> notEmptyAt;
  for (size_t pos = 0; pos <= s.size();) {
    auto m = search(prog, s, pos, false, notEmptyAt);
    if (!m) break;
    size_t b = size_t((*m)[0]), e = size_t((*m)[1]);
    out.push_back({b, e});
    notEmptyAt = b == e ? std::optional<size_t>(e) : std::nullopt;
    pos = e;
  }
  return out;
}

} // namespace thorin::plug::regex
