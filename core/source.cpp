#include "source.hpp"

#include <algorithm>
#include <cstring>

#include "unicode.hpp"

namespace thorin {

Source::Source(std::string p, std::string t, uint32_t first)
    : path(std::move(p)), text(std::move(t)), firstLine(first) {
  lineStarts.push_back(0);
  // A line ends at LF, CR LF or a lone CR (old Mac files). (memchr: a 50 MB
  // file has a million lines.)
  const char* b = text.data();
  const char* e = b + text.size();
  if (!std::memchr(b, '\r', text.size())) {
    for (const char* p = b; (p = static_cast<const char*>(std::memchr(p, '\n', size_t(e - p))));)
      lineStarts.push_back(uint32_t(++p - b));
    return;
  }
  for (const char* p = b; p < e; ++p)
    if (*p == '\n' || (*p == '\r' && (p + 1 == e || p[1] != '\n')))
      lineStarts.push_back(uint32_t(p + 1 - b));
}

// Characters as the lexer reads them: a byte that is not UTF-8 is one.
static uint32_t codePoints(std::string_view s) {
  uint32_t n = 0;
  for (size_t i = 0; i < s.size(); ++n) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    uint32_t len;
    unicode::decode(s, i, len);
    i += len;
  }
  return n;
}

Source::LineCol Source::lineCol(uint32_t offset) const {
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  uint32_t line = uint32_t(it - lineStarts.begin()); // 1-based
  uint32_t start = lineStarts[line - 1];
  uint32_t end = std::min<uint32_t>(offset, uint32_t(text.size()));
  return {line + firstLine - 1, codePoints(std::string_view(text).substr(start, end - start)) + 1};
}

std::string_view Source::lineText(uint32_t line) const {
  if (line < firstLine || line - firstLine >= lineStarts.size()) return {};
  line -= firstLine - 1;
  uint32_t start = lineStarts[line - 1];
  uint32_t end = line < lineStarts.size() ? lineStarts[line] : uint32_t(text.size());
  std::string_view s = std::string_view(text).substr(start, end - start);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

} // namespace thorin
