#include "diagnostic.hpp"

#include <fmt/format.h>

namespace thorin {

void fail(Span span, std::string message, std::vector<std::string> notes) {
  throw Error(Diagnostic{span, std::move(message), std::move(notes)});
}

std::string render(const Diagnostic& d) {
  std::string out;
  const char* kind = d.warning ? "warning" : "error";
  if (!d.span.valid()) {
    out = fmt::format("{}: {}\n", kind, d.message);
  } else {
    const Source& src = *d.span.src;
    auto lc = src.lineCol(d.span.begin);
    out = fmt::format("{}:{}:{}: {}: {}\n", src.path, lc.line, lc.col, kind, d.message);
    std::string_view line = src.lineText(lc.line);
    std::string gutter = fmt::format("{:>5}", lc.line);
    // A very long line (generated code) is shown around the error: some
    // context before it, a window's worth in all, "…" where it is cut.
    constexpr uint32_t kBefore = 60, kWindow = 160; // bytes
    auto continuation = [&](uint32_t i) {
      return (static_cast<unsigned char>(src.text[i]) & 0xC0) == 0x80;
    };
    uint32_t lineStart = src.lineStart(lc.line);
    uint32_t lineEnd = lineStart + uint32_t(line.size());
    uint32_t from = lineStart, to = lineEnd;
    if (line.size() > kWindow) {
      if (d.span.begin > lineStart + kBefore) from = std::min(d.span.begin, lineEnd) - kBefore;
      while (from > lineStart && continuation(from))
        --from;
      to = std::min(lineEnd, from + kWindow);
      while (to < lineEnd && continuation(to))
        ++to;
    }
    out += fmt::format("{} | {}{}{}\n", gutter, from > lineStart ? "…" : "",
                       line.substr(from - lineStart, to - from), to < lineEnd ? "…" : "");
    // Caret line: copy tabs so the caret lines up, count code points.
    std::string pad = from > lineStart ? " " : "";
    for (uint32_t i = from; i < d.span.begin && i < to; ++i) {
      if (continuation(i)) continue;
      pad += src.text[i] == '\t' ? '\t' : ' ';
    }
    uint32_t end = std::min(d.span.end, to);
    size_t width = 0;
    for (uint32_t i = d.span.begin; i < end; ++i)
      if (!continuation(i)) ++width;
    out += fmt::format("{} | {}^{}\n", std::string(gutter.size(), ' '), pad,
                       std::string(width > 1 ? width - 1 : 0, '~'));
  }
  for (auto& n : d.notes) {
    // Indent every line of a note.
    size_t pos = 0;
    while (pos <= n.size()) {
      size_t nl = n.find('\n', pos);
      if (nl == std::string::npos) nl = n.size();
      out += "  " + n.substr(pos, nl - pos) + "\n";
      pos = nl + 1;
    }
  }
  return out;
}

std::string render(const Error& e) {
  std::string out;
  for (auto& d : e.diags)
    out += render(d);
  return out;
}

} // namespace thorin
