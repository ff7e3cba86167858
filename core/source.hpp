// Source files and spans. Columns are counted in code points, so carets line
// up under UTF-8 identifiers.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace thorin {

struct Source {
  std::string path; // as the user named it (printed in diagnostics)
  std::string text;
  std::vector<uint32_t> lineStarts;
  uint32_t firstLine = 1; // the first line's number (REPL inputs go on counting)
  // Where the program text starts: a REPL command's argument is lexed inside
  // the line the user typed (`:t λ x. )`), so positions are columns of it.
  uint32_t lexFrom = 0;

  Source(std::string path, std::string text, uint32_t firstLine = 1);
  struct LineCol {
    uint32_t line, col; // 1-based
  };
  LineCol lineCol(uint32_t offset) const;
  std::string_view lineText(uint32_t line) const; // without the newline
  uint32_t lineStart(uint32_t line) const { return lineStarts[line - firstLine]; }
};

struct Span {
  const Source* src = nullptr;
  uint32_t begin = 0, end = 0;
  bool valid() const { return src != nullptr; }
  Span to(Span other) const { return {src, begin, other.end}; }
};

} // namespace thorin
