#include "line_editor.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/select.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <editline/readline.h>
#include <unistd.h>

#include <cerrno>

#include "guard.hpp"

namespace thorin {

static LineEditor::Completer gCompleter;
static std::vector<std::string> gMatches;

static char* completionGenerator(const char* text, int state) {
  if (state == 0) {
    std::string line(rl_line_buffer ? rl_line_buffer : "", rl_point > 0 ? size_t(rl_point) : 0);
    gMatches = gCompleter ? gCompleter(line, text) : std::vector<std::string>{};
  }
  if (size_t(state) < gMatches.size()) return strdup(gMatches[size_t(state)].c_str());
  return nullptr;
}

// Reads one key. A Ctrl-C at the prompt (SIGINT interrupts the read) clears
// the line and submits it, so the user gets a fresh prompt as in a shell.
static int getKey(FILE* f) {
  static const char kClear[] = {0x01 /* C-a */, 0x0b /* C-k */, '\n'};
  static int pending = -1;
  if (pending >= 0) {
    int c = kClear[pending++];
    if (pending == int(sizeof kClear)) pending = -1;
    return c;
  }
  // SIGINT is blocked except inside pselect, which unblocks it atomically:
  // a Ctrl-C that arrives between the check of the flag and the wait still
  // interrupts the wait (with a plain read() it would be noticed only after
  // the next key, which would then land on the old line).
  int fd = fileno(f);
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  while (true) {
    if (gInterrupt.exchange(false)) {
      pthread_sigmask(SIG_SETMASK, &old, nullptr);
      pending = 1;
      return kClear[0];
    }
    fd_set in;
    FD_ZERO(&in);
    FD_SET(fd, &in);
    int r = pselect(fd + 1, &in, nullptr, nullptr, nullptr, &old);
    if (r < 0 && errno == EINTR) continue;
    unsigned char c;
    ssize_t n = r > 0 ? ::read(fd, &c, 1) : -1;
    if (n < 0 && errno == EINTR) continue;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (n == 1) return c;
    return EOF;
  }
}

static char** completion(const char* text, int, int) {
  rl_attempted_completion_over = 1; // no filename fallback unless we offer it
  return rl_completion_matches(text, completionGenerator);
}

LineEditor::LineEditor(bool interactive, std::string historyFile, Completer completer)
    : interactive_(interactive), historyFile_(std::move(historyFile)) {
  if (!interactive_) return;
  gCompleter = std::move(completer);
  rl_readline_name = "thorin";
  rl_attempted_completion_function = completion;
  rl_getc_function = getKey;
  // Identifiers may contain ' and ., so only break words at spaces and brackets.
  static char breaks[] = " \t\n(){}[],;";
  rl_basic_word_break_characters = breaks;
  using_history();
  if (!historyFile_.empty()) read_history(historyFile_.c_str());
}

LineEditor::~LineEditor() {
  if (interactive_ && !historyFile_.empty()) {
    write_history(historyFile_.c_str());
    history_truncate_file(historyFile_.c_str(), 2000);
  }
}

std::optional<std::string> LineEditor::read(const char* prompt) {
  if (!interactive_) {
    std::string line;
    if (!std::getline(std::cin, line)) return std::nullopt;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  }
  char* l = readline(prompt);
  if (!l) return std::nullopt;
  std::string s(l);
  std::free(l);
  return s;
}

void LineEditor::remember(const std::string& entry) {
  if (interactive_ && !entry.empty()) add_history(entry.c_str());
}

} // namespace thorin
