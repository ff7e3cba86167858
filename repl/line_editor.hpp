// Line input for the REPL: libedit (readline interface) with history kept in
// a file and tab completion, or plain std::getline when stdin is not a tty.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace thorin {

class LineEditor {
public:
  using Completer =
      std::function<std::vector<std::string>(const std::string& line, const std::string& word)>;
  LineEditor(bool interactive, std::string historyFile, Completer completer);
  ~LineEditor();
  /// Next line, or nullopt at end of input (Ctrl-D). A Ctrl-C at the prompt
  /// returns an empty line.
  std::optional<std::string> read(const char* prompt);
  void remember(const std::string& entry);
  bool interactive() const { return interactive_; }
  /// While waiting for input, runs `onWake` whenever `fd` becomes readable
  /// (a watched file changed) and then redraws the prompt; fd < 0 stops.
  void setWake(int fd, std::function<void()> onWake);

private:
  bool interactive_;
  std::string historyFile_;
  std::string pending_; // non-interactive: read but not yet returned
  bool eof_ = false;
};

} // namespace thorin
