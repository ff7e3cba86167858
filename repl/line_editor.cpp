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

#include <algorithm>
#include <cerrno>
#include <clocale>

#include <langinfo.h>

#include "core/guard.hpp"

namespace thorin {

static LineEditor::Completer gCompleter;
static std::vector<std::string> gMatches;
static int gWakeFd = -1;
static std::function<void()> gOnWake;

// Waits until `fd` is readable, running the wake hook whenever the wake fd
// is. SIGINT is blocked except inside pselect, which unblocks it atomically:
// a Ctrl-C that arrives between the check of the flag and the wait still
// interrupts the wait. Returns 1 when `fd` is readable, 0 on a Ctrl-C, -1 on
// an error; `woke` tells whether the hook ran.
static int waitReadable(int fd, bool* woke) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  int result = -1;
  while (true) {
    if (gInterrupt.exchange(false)) {
      result = 0;
      break;
    }
    fd_set in;
    FD_ZERO(&in);
    FD_SET(fd, &in);
    if (gWakeFd >= 0) FD_SET(gWakeFd, &in);
    int r = pselect(std::max(fd, gWakeFd) + 1, &in, nullptr, nullptr, nullptr, &old);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;
    if (gWakeFd >= 0 && FD_ISSET(gWakeFd, &in)) {
      pthread_sigmask(SIG_SETMASK, &old, nullptr);
      if (gOnWake) gOnWake();
      if (woke) *woke = true;
      pthread_sigmask(SIG_BLOCK, &block, nullptr);
    }
    if (FD_ISSET(fd, &in)) {
      result = 1;
      break;
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return result;
}

static char* completionGenerator(const char* text, int state) {
  if (state == 0) {
    std::string line(rl_line_buffer ? rl_line_buffer : "", rl_point > 0 ? size_t(rl_point) : 0);
    gMatches = gCompleter ? gCompleter(line, text) : std::vector<std::string>{};
  }
  if (size_t(state) < gMatches.size()) return strdup(gMatches[size_t(state)].c_str());
  return nullptr;
}

// libedit takes what the key function returns as one (wide) character: a
// UTF-8 sequence is read whole and decoded (byte by byte, λ → × were
// garbled). An invalid sequence gives its first byte.
static int restOfCharacter(int fd, unsigned char lead) {
  int n = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
  if (lead >= 0xF8) return lead;
  int cp = lead & (0x3F >> n);
  for (int i = 0; i < n; ++i) {
    unsigned char d;
    ssize_t r;
    do
      r = ::read(fd, &d, 1);
    while (r < 0 && errno == EINTR);
    if (r != 1 || (d & 0xC0) != 0x80) return lead;
    cp = cp << 6 | (d & 0x3F);
  }
  return cp;
}

// Reads one key. A Ctrl-C at the prompt clears the line and submits it, so
// the user gets a fresh prompt as in a shell.
static int getKey(FILE* f) {
  static const char kClear[] = {0x01 /* C-a */, 0x0b /* C-k */, '\n'};
  static int pending = -1;
  if (pending >= 0) {
    int c = kClear[pending++];
    if (pending == int(sizeof kClear)) pending = -1;
    return c;
  }
  int fd = fileno(f);
  std::fflush(stdout); // (libedit's redraw of the line waits in stdout's buffer)
  while (true) {
    bool woke = false;
    int r = waitReadable(fd, &woke);
    // The hook printed over the prompt: the editor draws the prompt and the
    // line again (libedit shows it with the next key).
    if (woke) rl_forced_update_display();
    if (r == 0) {
      pending = 1;
      return kClear[0];
    }
    if (r < 0) return EOF;
    unsigned char c;
    ssize_t n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n != 1) return EOF;
    return c < 0xC0 ? c : restOfCharacter(fd, c);
  }
}

static char** completion(const char* text, int, int) {
  rl_attempted_completion_over = 1; // no filename fallback unless we offer it
  return rl_completion_matches(text, completionGenerator);
}

LineEditor::LineEditor(bool interactive, std::string historyFile, Completer completer)
    : interactive_(interactive), historyFile_(std::move(historyFile)) {
  if (!interactive_) return;
  // libedit converts between its wide characters and the line's bytes with
  // the C library's locale: a UTF-8 one (the user's, else C.UTF-8).
  const char* loc = std::setlocale(LC_CTYPE, "");
  if (!loc || std::strcmp(nl_langinfo(CODESET), "UTF-8") != 0) std::setlocale(LC_CTYPE, "C.UTF-8");
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
    // Read stdin ourselves (not std::getline) so that the wait can also
    // watch the wake fd.
    while (true) {
      size_t nl = pending_.find('\n');
      if (nl != std::string::npos || (eof_ && !pending_.empty())) {
        std::string line = pending_.substr(0, nl);
        pending_.erase(0, nl == std::string::npos ? pending_.size() : nl + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        return line;
      }
      if (eof_) return std::nullopt;
      if (waitReadable(STDIN_FILENO, nullptr) == 0) continue; // (Ctrl-C: ignored here)
      char buf[4096];
      ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        eof_ = true;
      else
        pending_.append(buf, size_t(n));
    }
  }
  char* l = readline(prompt);
  if (!l) return std::nullopt;
  std::string s(l);
  std::free(l);
  return s;
}

void LineEditor::setWake(int fd, std::function<void()> onWake) {
  gWakeFd = fd;
  gOnWake = std::move(onWake);
}

void LineEditor::remember(const std::string& entry) {
  if (interactive_ && !entry.empty()) add_history(entry.c_str());
}

} // namespace thorin
