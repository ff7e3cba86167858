// The interactive loop: definitions and expressions at the prompt, and the
// `:commands` (smalltt's where they overlap, plus what GHCi users expect).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "line_editor.hpp"
#include "core/session.hpp"

namespace thorin {

/// A count given by the user (`--jit-threshold N`, `:set jit-threshold N`):
/// decimal digits only, at least 1, at most 2^63 (no sign, no wrap-around).
bool parsePositiveCount(const std::string& s, uint64_t& out);

class Repl {
public:
  Repl(Session& s, std::ostream& out, std::ostream& err);
  ~Repl();
  /// Runs until `:q` or end of input.
  void run(LineEditor& ed);
  /// Handles one complete input (a command, a definition, an expression);
  /// returns false when the user asked to quit.
  bool handle(const std::string& input);
  std::vector<std::string> complete(const std::string& line, const std::string& word);

  struct Command {
    const char* name;
    const char* args;
    const char* help;
    void (Repl::*fn)(const std::string& arg);
  };

private:
  std::optional<std::string> pending_; // a line read ahead that starts the next input
  void cmdLoad(const std::string& a);
  void cmdReload(const std::string& a);
  void cmdType(const std::string& a);
  void cmdNormalType(const std::string& a);
  void cmdNormal(const std::string& a);
  void cmdElaborated(const std::string& a);
  void cmdZonked(const std::string& a);
  void cmdOutput(const std::string& a);
  void cmdBrowse(const std::string& a);
  void cmdInfo(const std::string& a);
  void cmdTime(const std::string& a);
  void cmdStats(const std::string& a);
  void cmdEval(const std::string& a);
  void cmdJit(const std::string& a);
  void cmdGoals(const std::string& a);
  void cmdLlvm(const std::string& a);
  void cmdSet(const std::string& a);
  void cmdSpec(const std::string& a);
  void cmdResidual(const std::string& a);
  void cmdWatch(const std::string& a);
  void cmdUnwatch(const std::string& a);
  void onFileChange();
  void cmdHelp(const std::string& a);
  void cmdQuit(const std::string& a);
  int32_t topByName(const std::string& name, bool report = true);
  /// Runs a query on the current command's argument, positioned in the line
  /// typed (`<interactive>:LINE:COL` counts from the line's start).
  void queryArgument(TopLevel::Show what);
  void timed(const char* what, double seconds);

  Session& s_;
  std::ostream& out_;
  std::ostream& err_;
  bool quit_ = false;
  uint32_t lines_ = 0;   // lines read so far: inputs are numbered by the line they start on
  std::string cmdLine_;  // the command being run, as typed, up to the end of its argument
  uint32_t argFrom_ = 0; // where its argument starts in cmdLine_
  LineEditor* ed_ = nullptr;
  std::unique_ptr<class FileWatcher> watcher_; // `:watch`
  static const std::vector<Command> commands_;
};

} // namespace thorin
