// Located errors: `file:line:col: error: message`, the source line, a caret
// under the span, then notes (e.g. expected/actual types).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "source.hpp"

namespace thorin {

struct Diagnostic {
  Span span;
  std::string message;
  std::vector<std::string> notes; // printed indented under the caret
  bool warning = false;
  bool goal = false; // a goal (`?name`) left by elaboration: information, not an error
};

/// Thrown by the parser and elaborator; caught per top-level entry.
struct Error : std::exception {
  std::vector<Diagnostic> diags;
  bool incomplete = false;       // a parse error at end of input: the REPL reads more lines
  bool awaitsDefinition = false; // incomplete: a signature `f : A` without `= …`
  explicit Error(Diagnostic d) { diags.push_back(std::move(d)); }
  explicit Error(std::vector<Diagnostic> ds) : diags(std::move(ds)) {}
  const char* what() const noexcept override { return diags.front().message.c_str(); }
};

[[noreturn]] void fail(Span span, std::string message, std::vector<std::string> notes = {});

std::string render(const Diagnostic& d);
std::string render(const Error& e);

} // namespace thorin
