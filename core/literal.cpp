#include "literal.hpp"

#include <cmath>

#include <fmt/format.h>

#include <cstring>
#include <deque>

#include "eval.hpp"

namespace thorin {

namespace {
struct BigStore {
  std::deque<BigNat> nums;
  ~BigStore() {
    for (auto& b : nums)
      mpz_clear(b.z);
  }
};
BigStore& bigStore() {
  static BigStore s;
  return s;
}
} // namespace

const BigNat* internBig(const mpz_t z) {
  auto& b = bigStore().nums.emplace_back();
  mpz_init_set(b.z, z);
  return &b;
}

Val* vLit(World& w, LitKind k, uint64_t bits) {
  Val* v = mkVal(w, VTag::Lit);
  v->n = uint32_t(k);
  v->bits = bits;
  return v;
}

Val* vNat(World& w, const mpz_t z) {
  if (mpz_sizeinbase(z, 2) <= 64) {
    uint64_t x = 0;
    mpz_export(&x, nullptr, -1, sizeof x, 0, 0, z);
    return vLit(w, LitKind::Nat, x);
  }
  Val* v = mkVal(w, VTag::Lit);
  v->n = uint32_t(LitKind::BigNat);
  v->big = internBig(z);
  return v;
}

Val* vStr(World& w, std::string_view s) {
  // In perm: the nursery collector moves values, not the bytes they point to.
  auto* p = static_cast<StrLit*>(w.perm.alloc(sizeof(StrLit) + s.size(), alignof(StrLit)));
  p->len = uint32_t(s.size());
  std::memcpy(p->data, s.data(), s.size());
  Val* v = mkVal(w, VTag::Lit);
  v->n = uint32_t(LitKind::Str);
  v->big = p;
  return v;
}

Val* vF64(World& w, double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return vLit(w, LitKind::F64, b);
}

Val* vBool(World& w, bool b) { return vLit(w, LitKind::Bool, b ? 1 : 0); }

double litF64(const Val* v) {
  double d;
  std::memcpy(&d, &v->bits, sizeof d);
  return d;
}

std::string_view litStr(const void* big) {
  auto* s = static_cast<const StrLit*>(big);
  return {s->data, s->len};
}

void litNat(const Val* v, mpz_t out) {
  if (LitKind(v->n) == LitKind::BigNat)
    mpz_set(out, static_cast<const BigNat*>(v->big)->z);
  else
    mpz_import(out, 1, -1, sizeof v->bits, 0, 0, &v->bits);
}

Tm* tmOfLit(Arena& a, const Val* v) {
  Tm* t = mkTm(a, TTag::Lit);
  t->n = v->n;
  if (LitKind(v->n) == LitKind::Str) {
    std::string_view s = litStr(v->big);
    auto* p = static_cast<StrLit*>(a.alloc(sizeof(StrLit) + s.size(), alignof(StrLit)));
    p->len = uint32_t(s.size());
    std::memcpy(p->data, s.data(), s.size());
    t->big = p;
  } else {
    t->bits = v->bits; // BigNat pointers are process-wide
  }
  return t;
}

Val* valOfLit(World& w, const Tm* t) {
  Val* v = mkVal(w, VTag::Lit);
  v->n = t->n;
  v->bits = t->bits; // strings are immutable: share the term's bytes
  return v;
}

std::string showF64(double d) {
  if (std::isnan(d)) return "nan"; // (fmt prints the sign bit: `-nan`)
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

std::string quoteString(std::string_view s) {
  std::string r = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '\n': r += "\\n"; break;
    case '\t': r += "\\t"; break;
    case '\\': r += "\\\\"; break;
    case '"': r += "\\\""; break;
    default:
      if (c < 0x20)
        r += fmt::format("\\x{:02x}", c);
      else
        r += char(c);
    }
  }
  return r + "\"";
}

std::string unescape(std::string_view s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      r += s[i];
      continue;
    }
    char c = s[++i];
    switch (c) {
    case 'n': r += '\n'; break;
    case 't': r += '\t'; break;
    case 'r': r += '\r'; break;
    case '0': r += '\0'; break;
    case 'x': // (the lexer checked the two hex digits)
      r += char(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
      break;
    default: r += c; break;
    }
  }
  return r;
}

std::string showLit(LitKind k, uint64_t bits, const void* big) {
  switch (k) {
  case LitKind::Nat:
  case LitKind::Idx: return fmt::format("{}", bits);
  case LitKind::BigNat: {
    char* p = mpz_get_str(nullptr, 10, static_cast<const BigNat*>(big)->z);
    std::string s(p);
    void (*freefn)(void*, size_t);
    mp_get_memory_functions(nullptr, nullptr, &freefn);
    freefn(p, s.size() + 1);
    return s;
  }
  case LitKind::I64: return fmt::format("{}", int64_t(bits));
  case LitKind::F64: {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return showF64(d);
  }
  case LitKind::Bool: return bits ? "true" : "false";
  case LitKind::Unit: return "tt";
  case LitKind::Str: return quoteString(litStr(big));
  }
  return "?";
}

} // namespace thorin
