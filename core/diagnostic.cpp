#include "diagnostic.hpp"

#include <fmt/format.h>

#include "unicode.hpp"

namespace thorin {

void fail(Span span, std::string message, std::vector<std::string> notes) {
  throw Error(Diagnostic{span, std::move(message), std::move(notes)});
}

std::string render(const Diagnostic& d) {
  std::string out;
  const char* kind = d.goal ? "goal" : d.warning ? "warning" : "error";
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
    // The line as a terminal shows it, and the caret line under it: padding
    // by display width (a CJK character or an emoji takes two columns, a
    // combining mark none), tabs copied so that both lines reach the same tab
    // stops. Invisible and control characters are spelled out (<U+202E>):
    // printed, they would hide or reorder text; a byte that is not UTF-8 shows
    // as U+FFFD.
    std::string shown = from > lineStart ? "…" : "", pad = from > lineStart ? " " : "";
    size_t width = 0, column = pad.size(); // (column: for tabs in the span, stops of 8)
    for (uint32_t i = from; i < to;) {
      uint32_t len, cp = unicode::decode(src.text, i, len);
      std::string text;
      size_t w;
      if (cp == '\t') {
        text = "\t";
        w = 8 - column % 8;
      } else if (cp == unicode::kInvalid) {
        len = std::min(unicode::invalidLength(src.text, i), to - i);
        text = "\uFFFD";
        w = 1;
      } else if (unicode::control(cp) || unicode::invisible(cp) || cp == '\r' || cp == '\n') {
        text = "<" + unicode::codePointName(cp) + ">";
        w = text.size();
      } else {
        text = src.text.substr(i, len);
        w = size_t(unicode::width(cp));
      }
      shown += text;
      if (i + len <= d.span.begin)
        pad += cp == '\t' ? "\t" : std::string(w, ' ');
      else if (i < d.span.end)
        width += w;
      column += w;
      i += len;
    }
    if (to < lineEnd) shown += "…";
    out += fmt::format("{} | {}\n", gutter, shown);
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
