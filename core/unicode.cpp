#include "unicode.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace thorin::unicode {

namespace {
struct Range {
  uint32_t first, last;
};
#include "unicode_tables.inc"

template <size_t N> bool in(const Range (&table)[N], uint32_t cp) {
  if (cp < table[0].first || cp > table[N - 1].last) return false;
  auto it = std::upper_bound(table, table + N, cp,
                             [](uint32_t c, const Range& r) { return c < r.first; });
  return it != table && cp <= (it - 1)->last;
}
} // namespace

uint32_t decode(std::string_view s, size_t pos, uint32_t& len) {
  auto c = static_cast<unsigned char>(s[pos]);
  len = 1;
  if (c < 0x80) return c;
  uint32_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0 || pos + n > s.size()) return kInvalid;
  uint32_t cp = c & (0x7F >> n);
  for (uint32_t i = 1; i < n; ++i) {
    auto d = static_cast<unsigned char>(s[pos + i]);
    if ((d & 0xC0) != 0x80) return kInvalid;
    cp = cp << 6 | (d & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return kInvalid;
  len = n;
  return cp;
}

uint32_t invalidLength(std::string_view s, size_t pos) {
  auto at = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char c = at(pos);
  uint32_t n = c >= 0xC2 && c <= 0xDF   ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 1;
  uint32_t len = 1;
  for (; len < n && pos + len < s.size(); ++len) {
    unsigned char d = at(pos + len), lo = 0x80, hi = 0xBF;
    if (len == 1) { // (the second byte excludes overlong forms, surrogates, past U+10FFFF)
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    }
    if (d < lo || d > hi) break;
  }
  return len;
}

bool identStart(uint32_t cp) { return in(kIdentStart, cp); }
bool identContinue(uint32_t cp) { return in(kIdentContinue, cp); }

bool bidiControl(uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

bool invisible(uint32_t cp) { return cp >= 0x80 && in(kInvisible, cp); }
bool space(uint32_t cp) { return cp >= 0x80 && in(kSpace, cp); }

bool control(uint32_t cp) {
  return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || (cp >= 0x7F && cp < 0xA0);
}

int width(uint32_t cp) {
  if (cp < 0x300) return 1;
  if (in(kZeroWidth, cp)) return 0;
  return in(kWide, cp) ? 2 : 1;
}

std::string visible(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    uint32_t len, cp = decode(s, i, len);
    if (cp == kInvalid) {
      out += "\uFFFD";
      len = invalidLength(s, i);
    } else if (control(cp) || invisible(cp) || cp == '\r' || cp == '\n') {
      out += "<" + codePointName(cp) + ">";
    } else {
      out += s.substr(i, len);
    }
    i += len;
  }
  return out;
}

std::string codePointName(uint32_t cp) { return fmt::format("U+{:04X}", cp); }

std::string encode(uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += char(cp);
  } else if (cp < 0x800) {
    s += char(0xC0 | cp >> 6);
    s += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += char(0xE0 | cp >> 12);
    s += char(0x80 | (cp >> 6 & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  } else {
    s += char(0xF0 | cp >> 18);
    s += char(0x80 | (cp >> 12 & 0x3F));
    s += char(0x80 | (cp >> 6 & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  }
  return s;
}

} // namespace thorin::unicode
