// The combinator form of patterns (MimIR's regex axioms): `re "…"` with a
// pattern known while checking normalizes to it, and every combinator's
// normalizer puts a known pattern in normal form (simplify.hpp), so that
// equal languages written differently often become the same term:
// `re "a|b"`, `re "[ab]"` and `alt (lit "a") (lit "b")` are all
// `range 97 98`. The normal form:
//
//   lit "…"          bytes in sequence (`lit ""`: the empty pattern)
//   range lo hi      one byte in lo..hi; a set is an alt of its ranges
//   seq a b, alt a b nested to the right
//   rep m n r        r m to n times; atLeast m r: m or more; lazy (rep …)
//   group r          a capturing group (numbered left to right)
//   anchor k         0 ^, 1 $, 2 \A, 3 \z, 4 \b, 5 \B
//   complement r     the bytes not in r (a set), in normal form a set
#include "combinators.hpp"

#include <algorithm>

#include "core/eval.hpp"
#include "core/literal.hpp"
#include "core/world.hpp"
#include "regex_axioms.hpp"
#include "simplify.hpp"

namespace thorin::plug::regex {
namespace {

using NodeP = std::unique_ptr<Node>;

// An application of one of the plugin's axioms: its id and arguments.
struct App {
  AxiomId id = kNoAxiom;
  std::vector<Val*> args;
};
App appOf(World& w, Val* v) {
  App a;
  v = forceAll(w, v);
  if (v->tag != VTag::Top || !w.tops[v->n].axiom) return a;
  for (Spine* s = v->sp; s; s = s->prev) {
    if (s->kind != Elim::App) return a;
    a.args.insert(a.args.begin(), s->arg);
  }
  a.id = w.tops[v->n].axiom->id;
  return a;
}
bool natArg(World& w, Val* v, uint64_t& out) {
  v = forceAll(w, v);
  if (v->tag != VTag::Lit || LitKind(v->n) != LitKind::Nat) return false;
  out = v->bits;
  return true;
}
const void* strArg(World& w, Val* v) {
  v = forceAll(w, v);
  return v->tag == VTag::Lit && LitKind(v->n) == LitKind::Str ? v->big : nullptr;
}

NodeP literalBytes(std::string_view s) {
  if (s.size() == 1) {
    auto b = makeNode(Node::Bytes);
    b->bytes.set(static_cast<unsigned char>(s[0]));
    return b;
  }
  auto q = makeNode(Node::Seq);
  for (char c : s)
    q->kids.push_back(literalBytes(std::string_view(&c, 1)));
  return s.empty() ? makeNode(Node::Empty) : std::move(q);
}

// The tree of a known pattern term (nullptr: not known while checking).
NodeP treeOf(World& w, Val* v, int depth = 0) {
  if (depth > 10000) return nullptr;
  App a = appOf(w, v);
  if (a.id == kNoAxiom || a.args.size() != AxiomTable::get()[a.id].arity) return nullptr;
  auto kid = [&](size_t i) { return treeOf(w, a.args[i], depth + 1); };
  uint64_t m = 0, n = 0;
  if (a.id == id(ax::re)) {
    const void* text = strArg(w, a.args[0]);
    if (!text) return nullptr;
    try {
      return std::move(parse(litStr(text)).root);
    } catch (SyntaxError&) {
      return nullptr;
    }
  }
  if (a.id == id(ax::lit)) {
    const void* text = strArg(w, a.args[0]);
    return text ? literalBytes(litStr(text)) : nullptr;
  }
  if (a.id == id(ax::range)) {
    if (!natArg(w, a.args[0], m) || !natArg(w, a.args[1], n) || m > n || n > 255) return nullptr;
    auto b = makeNode(Node::Bytes);
    for (uint64_t c = m; c <= n; ++c)
      b->bytes.set(c);
    return b;
  }
  if (a.id == id(ax::seq) || a.id == id(ax::alt)) {
    NodeP x = kid(0), y = x ? kid(1) : nullptr;
    if (!y) return nullptr;
    auto s = makeNode(a.id == id(ax::seq) ? Node::Seq : Node::Alt);
    s->kids.push_back(std::move(x));
    s->kids.push_back(std::move(y));
    return s;
  }
  bool bounded = a.id == id(ax::rep);
  if (bounded || a.id == id(ax::atLeast)) {
    if (!natArg(w, a.args[0], m) || (bounded && !natArg(w, a.args[1], n))) return nullptr;
    if (!bounded) n = kUnbounded;
    if (m > kMaxRepeat || (bounded && (n < m || n > kMaxRepeat))) return nullptr;
    NodeP body = kid(bounded ? 2 : 1);
    if (!body) return nullptr;
    auto r = makeNode(Node::Repeat);
    r->min = uint32_t(m), r->max = uint32_t(n);
    r->kids.push_back(std::move(body));
    return r;
  }
  if (a.id == id(ax::lazy)) {
    NodeP r = kid(0);
    if (r && r->kind == Node::Repeat) r->lazy = true;
    return r;
  }
  if (a.id == id(ax::group)) {
    NodeP body = kid(0);
    if (!body) return nullptr;
    auto g = makeNode(Node::Group);
    g->group = 1; // (numbered when the whole tree is known)
    g->kids.push_back(std::move(body));
    return g;
  }
  if (a.id == id(ax::complement)) {
    NodeP r = kid(0);
    if (!r || r->kind != Node::Bytes) return nullptr; // (only a byte set has a complement)
    r->bytes = ~r->bytes;
    return r;
  }
  if (a.id == id(ax::anchor)) {
    if (!natArg(w, a.args[0], m) || m > 5) return nullptr;
    auto n2 = makeNode(Node::Assertion);
    n2->assertion = Assert(m);
    return n2;
  }
  return nullptr;
}

uint32_t countGroups(Node& n, uint32_t next = 1) {
  if (n.kind == Node::Group && n.group) n.group = next++;
  for (auto& k : n.kids)
    next = countGroups(*k, next);
  return next;
}

// The normal form's term, and (the same walk) its shape as text: a term is
// already normal when its shape is the normal form's.
class Builder {
public:
  Builder(World& w, bool build) : w_(w), build_(build) {}
  std::string shape;

  Val* of(const Node& n) {
    switch (n.kind) {
    case Node::Empty: return lit("");
    case Node::Bytes: return set(n.bytes);
    case Node::Seq: return seq(n, 0);
    case Node::Alt: {
      std::vector<const Node*> kids;
      for (auto& k : n.kids)
        kids.push_back(k.get());
      return nested(ax::alt, kids, 0);
    }
    case Node::Repeat: {
      bool lazy = n.lazy && n.min != n.max;
      if (lazy) open(ax::lazy);
      Val* r;
      if (n.max == kUnbounded) {
        open(ax::atLeast);
        Val* m = nat(n.min);
        Val* body = of(*n.kids[0]);
        r = app(ax::atLeast, {m, body});
      } else {
        open(ax::rep);
        Val* m = nat(n.min);
        Val* k = nat(n.max);
        Val* body = of(*n.kids[0]);
        r = app(ax::rep, {m, k, body});
      }
      return lazy ? app(ax::lazy, {r}) : r;
    }
    case Node::Group: {
      open(ax::group);
      Val* body = of(*n.kids[0]);
      return app(ax::group, {body});
    }
    case Node::Assertion: {
      open(ax::anchor);
      Val* k = nat(uint32_t(n.assertion));
      return app(ax::anchor, {k});
    }
    }
    return nullptr;
  }

private:
  World& w_;
  bool build_;
  std::vector<ax> pending_;

  Val* head(ax a) { return build_ ? w_.topHead(TopId(w_.axiomEntry(id(a)))) : nullptr; }
  Val* app(ax a, std::vector<Val*> args) {
    shape += ")";
    Val* f = head(a);
    if (build_)
      for (Val* x : args)
        f = vAppNormal(w_, f, x, Icit::Expl);
    return f;
  }
  // (open before the arguments are built, app after them: the shape reads
  // as the term is written)
  void open(ax a) { shape += "(" + std::to_string(uint32_t(a)); }
  Val* nat(uint64_t k) {
    shape += " " + std::to_string(k);
    return build_ ? vLit(w_, LitKind::Nat, k) : nullptr;
  }
  Val* lit(std::string s) {
    shape += "(lit \"" + s + "\")";
    if (!build_) return nullptr;
    return vAppNormal(w_, head(ax::lit), vStr(w_, std::move(s)), Icit::Expl);
  }
  Val* set(const ByteSet& b) {
    if (b.none()) { // (no byte: the complement of every byte, the one form it has)
      open(ax::complement);
      open(ax::range);
      Val* lo = nat(0);
      Val* hi = nat(255);
      Val* all = app(ax::range, {lo, hi});
      return app(ax::complement, {all});
    }
    if (b.count() == 1) {
      for (unsigned c = 0; c < 256; ++c)
        if (b.test(c)) return lit(std::string(1, char(c)));
    }
    std::vector<std::pair<unsigned, unsigned>> runs;
    for (unsigned c = 0; c < 256; ++c)
      if (b.test(c)) {
        if (!runs.empty() && runs.back().second + 1 == c)
          runs.back().second = c;
        else
          runs.push_back({c, c});
      }
    return ranges(runs, 0);
  }
  // A run of bytes: its literal when it has one byte.
  Val* run(std::pair<unsigned, unsigned> r) {
    if (r.first == r.second) return lit(std::string(1, char(r.first)));
    open(ax::range);
    Val* lo = nat(r.first);
    Val* hi = nat(r.second);
    return app(ax::range, {lo, hi});
  }
  Val* ranges(const std::vector<std::pair<unsigned, unsigned>>& runs, size_t i) {
    if (i + 1 == runs.size()) return run(runs[i]);
    open(ax::alt);
    Val* first = run(runs[i]);
    return app(ax::alt, {first, ranges(runs, i + 1)});
  }
  // A sequence: runs of single bytes as one literal, the parts nested.
  Val* seq(const Node& n, size_t i) {
    std::vector<const Node*> parts;
    std::vector<std::string> lits; // (parallel: a literal run, or "" for a part)
    for (size_t k = i; k < n.kids.size(); ++k) {
      const Node& x = *n.kids[k];
      if (x.kind == Node::Bytes && x.bytes.count() == 1 && !parts.empty() && !lits.back().empty()) {
        lits.back() += single(x.bytes);
        continue;
      }
      parts.push_back(&x);
      lits.push_back(x.kind == Node::Bytes && x.bytes.count() == 1 ? single(x.bytes) : "");
    }
    return nestedSeq(parts, lits, 0);
  }
  static std::string single(const ByteSet& b) {
    for (unsigned c = 0; c < 256; ++c)
      if (b.test(c)) return std::string(1, char(c));
    return "";
  }
  Val* nestedSeq(const std::vector<const Node*>& parts, const std::vector<std::string>& lits,
                 size_t i) {
    auto part = [&](size_t k) { return lits[k].empty() ? of(*parts[k]) : lit(lits[k]); };
    if (i + 1 == parts.size()) return part(i);
    open(ax::seq);
    Val* first = part(i);
    return app(ax::seq, {first, nestedSeq(parts, lits, i + 1)});
  }
  Val* nested(ax a, const std::vector<const Node*>& kids, size_t i) {
    if (i + 1 == kids.size()) return of(*kids[i]);
    open(a);
    Val* first = of(*kids[i]);
    return app(a, {first, nested(a, kids, i + 1)});
  }
};

// The shape of a term as written (the same text as Builder's).
bool shapeOf(World& w, Val* v, std::string& out, int depth = 0) {
  if (depth > 10000) return false;
  App a = appOf(w, v);
  if (a.id == kNoAxiom) return false;
  if (a.id == id(ax::lit)) {
    const void* text = strArg(w, a.args[0]);
    if (!text) return false;
    out += "(lit \"" + std::string(litStr(text)) + "\")";
    return true;
  }
  if (a.id == id(ax::re)) return false; // (never normal)
  const ax kinds[] = {ax::range, ax::seq,   ax::alt,    ax::rep,       ax::atLeast,
                      ax::lazy,  ax::group, ax::anchor, ax::complement};
  const ax* k =
      std::find_if(std::begin(kinds), std::end(kinds), [&](ax x) { return id(x) == a.id; });
  if (k == std::end(kinds)) return false;
  out += "(" + std::to_string(uint32_t(*k));
  for (Val* x : a.args) {
    uint64_t n = 0;
    if (natArg(w, x, n))
      out += " " + std::to_string(n);
    else if (!shapeOf(w, x, out, depth + 1))
      return false;
  }
  out += ")";
  return true;
}

} // namespace

bool combinatorsInScope(World& w) {
  for (ax a : {ax::lit, ax::range, ax::seq, ax::alt, ax::rep, ax::atLeast, ax::lazy, ax::group,
               ax::anchor, ax::complement})
    if (w.axiomEntry(id(a)) < 0) return false;
  return true;
}

std::unique_ptr<Node> knownTree(World& w, Val* v, uint32_t* groups) {
  NodeP t = treeOf(w, v);
  if (!t) return nullptr;
  uint32_t n = countGroups(*t) - 1;
  if (groups) *groups = n;
  return t;
}

// Any combinator (or `re`) applied to a known pattern: its normal form, or
// nullptr when the application is that already (or is not known).
Val* normalForm(World& w, Val* application) {
  NodeP t = treeOf(w, application);
  if (!t) return nullptr;
  countGroups(*t); // (before simplify: two equal groups are two groups)
  Pattern p;
  p.root = std::move(t);
  simplify(p);
  Builder dry(w, false);
  dry.of(*p.root);
  std::string now;
  if ((shapeOf(w, application, now) && now == dry.shape) || !combinatorsInScope(w)) return nullptr;
  return Builder(w, true).of(*p.root);
}

} // namespace thorin::plug::regex
