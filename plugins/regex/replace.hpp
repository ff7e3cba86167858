// replaceAll's templates: text with `$n` and `${n}` (group n's text; $0 the
// whole match) and `$$` (a '$').
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "pike.hpp"

namespace thorin::plug::regex {

struct Template {
  struct Piece {
    std::string text;   // literal text, or
    int32_t group = -1; // a group's number
  };
  std::vector<Piece> pieces;
  bool usesGroups() const {
    for (auto& p : pieces)
      if (p.group > 0) return true;
    return false;
  }
};

struct TemplateError {
  std::string message;
  uint32_t offset, length; // of the offending part of the template
};

/// Parses a template for a pattern with `groups` groups (a larger number is
/// an error; so is a '$' followed by anything else).
Template parseTemplate(std::string_view t, uint32_t groups);

/// Appends the template, its references filled from `caps` (2 per group).
void expand(const Template& t, std::string_view s, const Captures& caps, std::string& out);

} // namespace thorin::plug::regex
