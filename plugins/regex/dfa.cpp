#include "dfa.hpp"

#include <algorithm>
#include <cstring>

namespace thorin::plug::regex {

namespace {
bool isWordByte(unsigned c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
} // namespace

// What the closure may assume of the position it is computed at: what held
// before it always; the next byte's facts only once that byte is read.
struct LazyDfa::Known {
  Before before;
  bool nextKnown = false;
  bool atEnd = false;
  bool nextWord = false;
};

LazyDfa::LazyDfa(Program nfa, MatchKind kind, size_t maxStates)
    : nfa_(std::move(nfa)), kind_(kind) {
  for (const Inst& i : nfa_.code)
    if (i.op == Inst::Check) {
      usesWord_ |= i.check == Assert::WordBoundary || i.check == Assert::NotWordBoundary;
      usesStart_ |= i.check == Assert::TextStart || i.check == Assert::LineStart;
    }
  computeClasses();
  stride_ = numClasses_ + 1;
  // About 8 MB of table and thread lists at most, then the cache is flushed.
  size_t perState = stride_ * sizeof(int32_t) + 8 * std::min<size_t>(nfa_.code.size(), 256) + 96;
  maxStates_ = maxStates ? maxStates : std::clamp<size_t>((8u << 20) / perState, 64, 100000);
  seen_.assign(nfa_.code.size(), 0);
  flush();
}

// Two bytes share a class when every byte set of the program (and, with \b,
// being a word byte) treats them alike: the classes are the runs between
// the places where some set changes.
void LazyDfa::computeClasses() {
  ByteSet boundary;
  auto cut = [&](const ByteSet& s) { boundary |= s ^ (s << 1); };
  for (const Inst& i : nfa_.code)
    if (i.op == Inst::Byte) cut(nfa_.sets[i.x]);
  if (usesWord_) {
    ByteSet w;
    for (unsigned c = 0; c < 256; ++c)
      w.set(c, isWordByte(c));
    cut(w);
  }
  uint32_t cls = 0;
  for (unsigned c = 0; c < 256; ++c) {
    if (c > 0 && boundary.test(c)) ++cls;
    if (c == 0 || boundary.test(c)) representative_[cls] = uint8_t(c);
    classes_[c] = uint8_t(cls);
  }
  numClasses_ = cls + 1;
}

// Appends the threads reachable from pc without reading a byte, in priority
// order (depth first, the preferred branch first), skipping pcs already
// taken in this closure. A check that needs the next byte, not yet read,
// stays as a thread of its own (pending).
void LazyDfa::follow(uint32_t pc, const Known& k, std::vector<uint32_t>& out) {
  stack_.clear();
  stack_.push_back(pc);
  while (!stack_.empty()) {
    uint32_t p = stack_.back();
    stack_.pop_back();
    if (seen_[p] == gen_) continue;
    seen_[p] = gen_;
    const Inst& i = nfa_.code[p];
    switch (i.op) {
    case Inst::Jump: stack_.push_back(i.x); break;
    case Inst::Split:
      stack_.push_back(i.y);
      stack_.push_back(i.x);
      break;
    case Inst::Save:
    case Inst::Loop: stack_.push_back(p + 1); break; // (Loop: not given to a DFA)
    case Inst::Byte:
    case Inst::Match: out.push_back(p); break;
    case Inst::Check: {
      bool holds = false;
      switch (i.check) {
      case Assert::LineStart:
      case Assert::TextStart: holds = k.before.atStart; break;
      case Assert::LineEnd:
      case Assert::TextEnd:
        if (!k.nextKnown) {
          out.push_back(p);
          continue;
        }
        holds = k.atEnd;
        break;
      case Assert::WordBoundary:
      case Assert::NotWordBoundary:
        if (!k.nextKnown) {
          out.push_back(p);
          continue;
        }
        holds = (k.before.prevWord != k.nextWord) == (i.check == Assert::WordBoundary);
        break;
      }
      if (holds) stack_.push_back(p + 1);
      break;
    }
    }
  }
}

LazyDfa::S LazyDfa::intern(std::vector<uint32_t> insts, Before b, bool match) {
  if (!usesWord_) b.prevWord = false;
  if (!usesStart_) b.atStart = false;
  std::string key(insts.size() * sizeof(uint32_t) + 1, '\0');
  if (!insts.empty()) std::memcpy(key.data(), insts.data(), insts.size() * sizeof(uint32_t));
  key.back() = char(b.atStart | b.prevWord << 1 | match << 2);
  auto [it, fresh] = index_.emplace(std::move(key), int32_t(states_.size()));
  if (fresh) {
    states_.push_back({std::move(insts), b, match});
    trans_.resize(trans_.size() + stride_, -1);
    match_.resize(trans_.size(), 0);
    match_[trans_.size() - stride_] = match;
  }
  return encode(size_t(it->second));
}

void LazyDfa::flush() {
  if (!states_.empty()) ++flushes_;
  states_.clear();
  trans_.clear();
  match_.clear();
  pairs_.clear();
  pairState_.clear();
  index_.clear();
  starts_.clear();
  recentStarts_.fill({});
  intern({}, {}, false); // kDead
}

LazyDfa::S LazyDfa::start(uint32_t from, Before b) {
  uint64_t key = uint64_t(from) << 2 | (usesStart_ && b.atStart) | (usesWord_ && b.prevWord) << 1;
  RecentStart& recent = recentStarts_[(key ^ key >> 3) % recentStarts_.size()];
  if (recent.key == key) return recent.s;
  auto it = starts_.find(key);
  if (it == starts_.end()) {
    if (states_.size() >= maxStates_) flush();
    std::vector<uint32_t> insts;
    ++gen_;
    follow(from, Known{b}, insts);
    it = starts_.emplace(key, intern(std::move(insts), b, false)).first;
  }
  recent = {key, it->second};
  return it->second;
}

// The transition on class cls: the pending checks decided now that the
// next byte is known, a match noted (and, leftmost-first, the threads after
// it cut), the threads that read the byte advanced.
LazyDfa::S LazyDfa::compute(S s, uint32_t cls) {
  State from = states_[indexOf(s)];
  bool atEot = cls == numClasses_;
  bool word = !atEot && isWordByte(representative_[cls]);
  Known now{from.before, true, atEot, word};

  std::vector<uint32_t> here;
  ++gen_;
  for (uint32_t pc : from.insts) {
    if (nfa_.code[pc].op == Inst::Check) {
      follow(pc, now, here);
    } else if (seen_[pc] != gen_) {
      seen_[pc] = gen_;
      here.push_back(pc);
    }
  }

  bool match = false;
  std::vector<uint32_t> next;
  Known after{{false, word}};
  ++gen_;
  for (uint32_t pc : here) {
    const Inst& i = nfa_.code[pc];
    if (i.op == Inst::Match) {
      match = true;
      if (kind_ == MatchKind::LeftmostFirst) break;
    } else if (!atEot && nfa_.sets[i.x].test(representative_[cls])) {
      follow(pc + 1, after, next);
    }
  }
  if (atEot) next.clear();

  if (states_.size() >= maxStates_) { // full: start again from this state alone
    flush();
    s = intern(std::move(from.insts), from.before, from.match);
  }
  S t = next.empty() && !match ? kDead : intern(std::move(next), after.before, match);
  trans_[size_t(s) + cls] = t;
  return t;
}

bool LazyDfa::explore(size_t limit) {
  limit = std::min(limit, maxStates_ - 1);
  for (size_t i = 0; i < states_.size(); ++i)
    for (uint32_t c = 0; c < stride_; ++c) {
      next(encode(i), c);
      if (states_.size() > limit) return false;
    }
  return true;
}

bool LazyDfa::buildPairs(size_t maxStates) {
  if (!pairs_.empty()) return true;
  if (numClasses_ > 32 || !explore(maxStates)) return false;
  size_t nc = numClasses_, nc2 = nc * nc;
  std::vector<S> out(states_.size() * nc2);
  for (size_t i = 0; i < states_.size(); ++i)
    for (uint32_t c1 = 0; c1 < nc; ++c1) {
      S mid = next(encode(i), c1);
      for (uint32_t c2 = 0; c2 < nc; ++c2)
        out[i * nc2 + c1 * nc + c2] = pairRow(next(mid, c2));
    }
  pairs_ = std::move(out);
  pairState_.assign(pairs_.size(), kDead);
  for (size_t i = 0; i < states_.size(); ++i)
    pairState_[i * nc2] = encode(i);
  return true;
}

std::vector<uint8_t> LazyDfa::exits(S s) {
  std::vector<uint8_t> out;
  size_t flushes = flushes_;
  for (unsigned c = 0; c < 256; ++c) {
    S t = next(s, classes_[c]);
    if (flushes_ != flushes) return {}; // (s is gone)
    if (t == s) continue;
    if (out.size() == 8) return {};
    out.push_back(uint8_t(c));
  }
  return out;
}

size_t LazyDfa::minimalStates() const {
  size_t n = states_.size();
  std::vector<uint32_t> block(n), next(n);
  for (size_t s = 0; s < n; ++s)
    block[s] = states_[s].match;
  size_t blocks = 0;
  for (;;) {
    std::unordered_map<std::string, uint32_t> ids;
    for (size_t s = 0; s < n; ++s) {
      std::string key(reinterpret_cast<const char*>(&block[s]), sizeof(uint32_t));
      for (uint32_t c = 0; c < stride_; ++c) {
        S t = trans_[s * stride_ + c];
        uint32_t b = t < 0 ? UINT32_MAX : block[indexOf(t)];
        key.append(reinterpret_cast<const char*>(&b), sizeof b);
      }
      next[s] = ids.emplace(std::move(key), uint32_t(ids.size())).first->second;
    }
    block.swap(next);
    if (ids.size() == blocks) return blocks;
    blocks = ids.size();
  }
}

} // namespace thorin::plug::regex
