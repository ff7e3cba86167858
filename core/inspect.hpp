// Plugin commands at the prompt: `:NAME EXPR` elaborates EXPR, computes its
// normal form and hands the value to the plugin that registered NAME (the
// regex plugin's `:regex`: a pattern's normal form, byte classes, DFA size).
// Core knows the registry, not the plugins.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace thorin {

class World;
struct Val;

struct Inspector {
  std::string command; // `:command EXPR`
  std::string help;    // one line for `:?`
  /// What to print for the normal form v, or an error message (nullopt and
  /// `error` set): the prompt reports it at the expression.
  std::optional<std::string> (*show)(World& w, Val* v, std::string& error);
};

void registerInspector(Inspector i);
/// The registered commands, in registration order.
const std::vector<Inspector>& inspectors();
const Inspector* findInspector(std::string_view command);

} // namespace thorin
