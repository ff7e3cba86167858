// The `thorin` executable: `thorin [FILE…]` (REPL), `thorin check FILE…`.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core_plugin.hpp"
#include "guard.hpp"
#include "line_editor.hpp"
#include "repl.hpp"
#include "session.hpp"

#ifndef THORIN_VERSION
#define THORIN_VERSION "0.0.0"
#endif

namespace {

using namespace thorin;

const char* kUsage = R"(thorin — a JIT-compiling REPL for dependently typed code

usage:
  thorin [options] [FILE…]          start the REPL, after loading FILEs
  thorin check [options] FILE…      elaborate FILEs; exit 1 on any error

options:
  --time          print parse and elaboration time per file ([elabtime] per entry)
  --no-prelude    do not load the prelude
  -h, --help      show this help
  --version       show the version

Files end in .thorin (smalltt's .stt files are accepted too). In the REPL,
type :? for the list of commands.
)";

struct Args {
  bool check = false;
  Options opts;
  std::vector<std::string> files;
};

void onSigint(int) { gInterrupt.store(true); }

int realMain(void* p) {
  Args& args = *static_cast<Args*>(p);
  if (args.check) {
    int status = 0;
    for (size_t i = 0; i < args.files.size(); ++i) {
      auto* s = new Session(std::cout, std::cerr, args.opts);
      if (!s->load({args.files[i]})) status = 1;
#ifndef THORIN_SANITIZE
      // The process is about to exit: freeing gigabytes of terms one chunk at
      // a time would only delay it.
      if (i + 1 == args.files.size()) break;
#endif
      delete s;
    }
    std::cout.flush();
    return status;
  }
  Session s(std::cout, std::cerr, args.opts);
  if (!args.files.empty()) s.load(args.files);
  bool tty = isatty(STDIN_FILENO);
  std::string hist;
  if (const char* h = std::getenv("THORIN_HISTORY"))
    hist = h;
  else if (const char* home = std::getenv("HOME"))
    hist = std::string(home) + "/.thorin_history";
  Repl repl(s, std::cout, std::cerr);
  if (tty) std::cout << "thorin " THORIN_VERSION " — type :? for help, :q to quit\n";
  LineEditor ed(tty, hist, [&](const std::string& line, const std::string& word) {
    return repl.complete(line, word);
  });
  repl.run(ed);
  std::cout.flush();
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(true);
  thorin::plugins::registerCore();
  Args args;
  int i = 1;
  if (argc > 1 && std::strcmp(argv[1], "check") == 0) {
    args.check = true;
    ++i;
  }
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
#ifdef THORIN_SANITIZE
      std::cout << "thorin " THORIN_VERSION " (sanitizers: address, undefined)\n";
#else
      std::cout << "thorin " THORIN_VERSION "\n";
#endif
      return 0;
    } else if (a == "--time") {
      args.opts.time = true;
    } else if (a == "--no-prelude") {
      args.opts.prelude = false;
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << fmt::format("thorin: unknown option '{}' (see thorin --help)\n", a);
      return 2;
    } else {
      args.files.push_back(a);
    }
  }
  if (args.check && args.files.empty()) {
    std::cerr << "thorin: check needs at least one file (see thorin --help)\n";
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = onSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0; // no SA_RESTART: a blocking read returns so the prompt can redraw
  sigaction(SIGINT, &sa, nullptr);
  try {
    return runWithLargeStack(defaultStackBytes(), realMain, &args);
  } catch (std::exception& e) {
    std::cerr << "thorin: error: " << e.what() << "\n";
    return 2;
  }
}
