#include "simplify.hpp"

namespace thorin::plug::regex {
namespace {

using NodeP = std::unique_ptr<Node>;

// A run of one byte set: the set, its counts, greedy (a fixed count is both).
struct Run {
  ByteSet set;
  uint32_t min, max;
  bool lazy;
};
bool runOf(const Node& n, Run& r) {
  if (n.kind == Node::Bytes) return r = {n.bytes, 1, 1, false}, true;
  if (n.kind == Node::Repeat && n.kids[0]->kind == Node::Bytes)
    return r = {n.kids[0]->bytes, n.min, n.max, n.lazy && n.min != n.max}, true;
  return false;
}
// a + b, unbounded if either is; kUnbounded - 1 above the largest count (no merge then).
uint64_t addCounts(uint32_t a, uint32_t b) {
  return a == kUnbounded || b == kUnbounded ? kUnbounded : uint64_t(a) + b;
}
NodeP runNode(const Run& r) {
  auto b = makeNode(Node::Bytes);
  b->bytes = r.set;
  if (r.min == 1 && r.max == 1) return b;
  auto n = makeNode(Node::Repeat);
  n->min = r.min, n->max = r.max, n->lazy = r.lazy;
  n->kids.push_back(std::move(b));
  return n;
}

NodeP simplified(NodeP n);

NodeP seq(NodeP n) {
  std::vector<NodeP> kids;
  for (auto& k : n->kids) {
    NodeP s = simplified(std::move(k));
    if (s->kind == Node::Empty) continue;
    if (s->kind == Node::Seq) {
      for (auto& g : s->kids)
        kids.push_back(std::move(g));
      continue;
    }
    Run a, b;                // x{a,b} x{c,d} → x{a+c,b+d} (greedy, one set)
    uint64_t lo = 0, hi = 0; // (merged counts stay within what a count may be)
    if (!kids.empty() && runOf(*kids.back(), a) && runOf(*s, b) && a.set == b.set && !a.lazy &&
        !b.lazy && (kids.back()->kind == Node::Repeat || s->kind == Node::Repeat) &&
        (lo = addCounts(a.min, b.min)) <= kMaxRepeat &&
        ((hi = addCounts(a.max, b.max)) <= kMaxRepeat || hi == kUnbounded)) {
      kids.back() = runNode({a.set, uint32_t(lo), uint32_t(hi), false});
      continue;
    }
    kids.push_back(std::move(s));
  }
  if (kids.empty()) return makeNode(Node::Empty);
  if (kids.size() == 1) return std::move(kids[0]);
  n->kids = std::move(kids);
  return n;
}

NodeP alt(NodeP n) {
  std::vector<NodeP> kids;
  std::vector<std::string> shown;
  auto add = [&](NodeP s) {
    std::string text = show(*s);
    for (auto& t : shown)
      if (t == text) return; // (an earlier equal alternative always wins)
    if (!kids.empty() && kids.back()->kind == Node::Bytes && s->kind == Node::Bytes) {
      kids.back()->bytes |= s->bytes;
      shown.back() = show(*kids.back());
      return;
    }
    shown.push_back(std::move(text));
    kids.push_back(std::move(s));
  };
  for (auto& k : n->kids) {
    NodeP s = simplified(std::move(k));
    if (s->kind == Node::Alt)
      for (auto& g : s->kids)
        add(std::move(g));
    else
      add(std::move(s));
  }
  if (kids.size() == 1) return std::move(kids[0]);
  n->kids = std::move(kids);
  return n;
}

NodeP repeat(NodeP n) {
  n->kids[0] = simplified(std::move(n->kids[0]));
  if (n->min == 1 && n->max == 1) return std::move(n->kids[0]);
  if (n->max == 0) return makeNode(Node::Empty);
  if (n->min == n->max) n->lazy = false;
  Node& in = *n->kids[0];
  // (x{a,b}){c,d} with a, c ≤ 1 and b or d unbounded: x{a·c,∞} (greedy; x a
  // byte set, so that every way of splitting a run is the same match).
  if (in.kind == Node::Repeat && in.kids[0]->kind == Node::Bytes && !n->lazy && !in.lazy &&
      n->min <= 1 && in.min <= 1 && (n->max == kUnbounded || in.max == kUnbounded)) {
    NodeP body = std::move(in.kids[0]);
    n->min = n->min * in.min;
    n->max = kUnbounded;
    n->kids[0] = std::move(body); // (in is gone)
    return n;
  }
  // (x{a}){b} with x a byte set: x{a·b} (no larger than a count may be).
  if (in.kind == Node::Repeat && in.kids[0]->kind == Node::Bytes && in.min == in.max &&
      n->min == n->max && uint64_t(in.min) * n->min <= kMaxRepeat) {
    n->min = n->max = in.min * n->min;
    NodeP body = std::move(in.kids[0]);
    n->kids[0] = std::move(body);
  }
  return n;
}

NodeP simplified(NodeP n) {
  switch (n->kind) {
  case Node::Group:
    if (!n->group) return simplified(std::move(n->kids[0]));
    n->kids[0] = simplified(std::move(n->kids[0]));
    return n;
  case Node::Seq: return seq(std::move(n));
  case Node::Alt: return alt(std::move(n));
  case Node::Repeat: return repeat(std::move(n));
  default: return n;
  }
}

} // namespace

void simplify(Pattern& p) { p.root = simplified(std::move(p.root)); }

} // namespace thorin::plug::regex
