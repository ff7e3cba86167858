#include "replace.hpp"

#include <fmt/format.h>

namespace thorin::plug::regex {

Template parseTemplate(std::string_view t, uint32_t groups) {
  Template out;
  std::string text;
  auto flush = [&] {
    if (!text.empty()) out.pieces.push_back({std::move(text), -1});
    text.clear();
  };
  for (size_t i = 0; i < t.size();) {
    if (t[i] != '$') {
      text += t[i++];
      continue;
    }
    size_t at = i++;
    if (i < t.size() && t[i] == '$') {
      text += '$';
      ++i;
      continue;
    }
    bool braced = i < t.size() && t[i] == '{';
    size_t j = i + braced, digits = j;
    uint64_t n = 0;
    while (j < t.size() && t[j] >= '0' && t[j] <= '9' && n <= groups)
      n = 10 * n + uint64_t(t[j++] - '0');
    while (j < t.size() && t[j] >= '0' && t[j] <= '9') // (a number too large: all of it shown)
      ++j, n = uint64_t(groups) + 1;
    if (j == digits || (braced && (j >= t.size() || t[j] != '}')))
      throw TemplateError{"bad replacement: '$' must be followed by a group's number, {number} "
                          "or '$'",
                          uint32_t(at), uint32_t(std::min(j + 1, t.size()) - at)};
    size_t end = j + braced;
    if (n > groups)
      throw TemplateError{fmt::format("the replacement refers to group {}, but the pattern has "
                                      "{} group{}",
                                      std::string(t.substr(digits, j - digits)), groups,
                                      groups == 1 ? "" : "s"),
                          uint32_t(at), uint32_t(end - at)};
    flush();
    out.pieces.push_back({"", int32_t(n)});
    i = end;
  }
  flush();
  return out;
}

void expand(const Template& t, std::string_view s, const Captures& caps, std::string& out) {
  for (const auto& p : t.pieces) {
    if (p.group < 0) {
      out += p.text;
      continue;
    }
    int64_t b = caps[2 * size_t(p.group)], e = caps[2 * size_t(p.group) + 1];
    if (b >= 0) out.append(s.substr(size_t(b), size_t(e - b)));
  }
}

} // namespace thorin::plug::regex
