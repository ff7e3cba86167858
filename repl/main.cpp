// The `thorin` executable: `thorin [FILE…]` (REPL), `thorin check FILE…`.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#ifdef THORIN_MIMALLOC
#include <mimalloc.h>
#endif
#include "core/guard.hpp"
#include "core/session.hpp"
#include "jit/baseline/baseline_tier.hpp"
#include "jit/llvm/llvm_loader.hpp"
#include "line_editor.hpp"
#include "llvm_hint.hpp"
#include "plugins/loader.hpp"
#include "repl.hpp"
#include "runtime/engine.hpp"
#include "script.hpp"

#ifndef THORIN_VERSION
#define THORIN_VERSION "0.0.0"
#endif

namespace {

using namespace thorin;

const char* kUsage = R"(thorin — a JIT-compiling REPL for dependently typed code

usage:
  thorin [options] [FILE…]          start the REPL, after loading FILEs
  thorin check [options] FILE…      elaborate FILEs; exit 1 on any error
  thorin run [options] FILE [ARG…]  elaborate FILE, print its .eval results and
                                    the value of `main` (given the ARGs if it is
                                    `main : {n : Nat} → Array n String → …`);
                                    exit 1 on an elaboration error, 2 on a
                                    run-time error
  thorin SCRIPT [ARG…]              the same for a file that starts with `#!`
                                    (`#!/usr/bin/env thorin`)

options:
  --watch         (run) run again whenever FILE or a file it imports changes,
                  re-checking only what changed; Ctrl-C stops
  --time          print parse and elaboration time per file ([elabtime] per entry)
  --no-prelude    do not load the prelude
  --jit=MODE      off | lazy (compile hot functions, the default) | eager
                  | baseline (hot first-order functions get baseline code only)
  --no-baseline   lazy mode without baseline code (LLVM's code only)
  --jit-threshold N   calls before a function is compiled (default 100)
  --jit-stats     print each compilation (name, time) to stderr
  --no-code-cache (run) compile afresh: do not use or fill the code cache
                  (LLVM's code kept between runs, in $THORIN_CACHE_DIR, else
                  $XDG_CACHE_HOME/thorin/jit or ~/.cache/thorin/jit;
                  THORIN_CACHE_DIR= set empty turns it off too)
  --jit-sync      compile hot functions on the calling thread, which waits
                  (by default they compile in the background while the
                  interpreter goes on)
  -h, --help      show this help
  --version       show the version

Files end in .thorin (smalltt's .stt files are accepted too). In the REPL,
type :? for the list of commands.
)";

struct Args {
  bool check = false;
  bool run = false;
  bool watch = false;
  bool noCodeCache = false;
  rt::JitOptions jit;
  Options opts;
  std::vector<std::string> files;
  std::vector<std::string> programArgs; // `thorin run FILE ARG…`
};

std::atomic<bool> gQuit{false}; // Ctrl-C (ends `thorin run --watch`)

std::atomic<int> gSignal{0}; // the signal that interrupted (exit status 128 + it)

void onSigint(int sig) {
  gSignal.store(sig);
  gQuit.store(true);
  signalInterrupt();
}

// A script interrupted (Ctrl-C, SIGTERM) ends with the conventional status.
int interruptedStatus(int status) {
  int sig = gSignal.load();
  return sig ? 128 + sig : status;
}

// `thorin run FILE`: load (printing the .eval results), then print `main`.
int runFile(Args& args, Session& s, rt::Runtime& runtime) {
  if (!s.load(args.files)) return runtime.hadError ? kRunError : kElabError;
  return runMain(s, runtime, args.programArgs);
}

// Does the file start with `#!` (a script run as `thorin FILE ARG…`)?
bool isScript(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char b[2] = {0, 0};
  size_t n = std::fread(b, 1, 2, f);
  std::fclose(f);
  return n == 2 && b[0] == '#' && b[1] == '!';
}

// Where `thorin run` keeps LLVM's code between runs (jit/llvm/code_cache.hpp):
// $THORIN_CACHE_DIR (set empty: no cache), else $XDG_CACHE_HOME/thorin/jit,
// else $HOME/.cache/thorin/jit.
std::string codeCacheDir() {
  if (const char* d = std::getenv("THORIN_CACHE_DIR")) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/')
    return std::string(x) + "/thorin/jit";
  if (const char* h = std::getenv("HOME"); h && *h == '/')
    return std::string(h) + "/.cache/thorin/jit";
  return "";
}

// `exit n` in a script: its output flushed, the process ends at once.
[[noreturn]] void exitNow(int status) {
  std::cout.flush();
  std::fflush(nullptr);
  rt::gc::reportStats();
  std::_Exit(status);
}

int realMain(void* p) {
  Args& args = *static_cast<Args*>(p);
  rt::Runtime runtime(args.jit, std::cerr);
  if (runtime.wantsBaseline()) runtime.setBaseline(rt::makeBaselineTier());
  runtime.backend = rt::makeLlvmTier(args.jit);
  args.opts.runner = &runtime;
  plugins::Loader loader;
  args.opts.plugins = &loader;
  if (args.run && args.watch) {
    Session s(std::cout, std::cerr, args.opts);
    int status =
        watchScript(s, runtime, args.files[0], args.programArgs, gQuit, std::cout, std::cerr);
    if (gSignal.load() == SIGTERM) status = 128 + SIGTERM; // (Ctrl-C is how a watch ends: 0)
    std::cout.flush();
    rt::gc::reportStats();
    std::_Exit(status);
  }
  if (args.run) {
    // LLVM starts while the file elaborates; with baseline code, only when
    // it is needed (a hot function the baseline cannot compile, or baseline
    // code that ran kTierUpDelay): measured, loading it beside a short run
    // costs that run 2–4 ms (fib 32: 18.6 → 15.0 ms), and matmul, whose
    // functions need LLVM at once, 8 ms.
    // And when the last run of this file compiled with LLVM: its code will
    // likely come from the code cache at once (llvm_hint.hpp).
    LlvmHint hint(args.jit.codeCache, args.files[0]);
    if (runtime.backend && !runtime.baseline)
      runtime.backend->prepare();
    else if (runtime.backend && hint.expected())
      runtime.backend->preload();
    args.opts.trackDependencies = false;
    runtime.exitProcess = exitNow; // (`exit n` ends the script)
    Session s(std::cout, std::cerr, args.opts);
    int status = interruptedStatus(runFile(args, s, runtime));
    if (status != kElabError) hint.record(runtime.optimizedAny());
    std::cout.flush();
    rt::gc::reportStats();
    std::_Exit(status); // skip tearing down the heap and the JIT
  }
  if (args.check) {
    args.opts.trackDependencies = false;
    runtime.runsEffects = false; // (checking an untrusted file performs no effect)
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
#ifndef THORIN_SANITIZE
    // As for `run`: ending the thread would first return its allocator's
    // pages one by one (12 % of checking a small file, measured).
    std::fflush(nullptr);
    rt::gc::reportStats();
    std::_Exit(status);
#endif
    return status;
  }
  // In the REPL each evaluation ends with the JIT settled: `:jit` then shows
  // what the evaluation compiled, as it did.
  runtime.opts.finishRuns = true;
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
#ifdef THORIN_MIMALLOC
  // The allocator's segments in transparent huge pages: a large heap of
  // terms (NfTree23's normal form, 1.7 GB) took a page fault per 4 KB,
  // 360,000 of them (6.0 → 3.7 s); a one-line run's RSS grows 5 → 11 MB.
  mi_option_set(mi_option_large_os_pages, 1);
#endif
  std::ios::sync_with_stdio(true);
  Args args;
  int i = 1;
  if (argc > 1 && std::strcmp(argv[1], "check") == 0) {
    args.check = true;
    ++i;
  } else if (argc > 1 && std::strcmp(argv[1], "run") == 0) {
    args.run = true;
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
    } else if (a.rfind("--jit=", 0) == 0) {
      std::string m = a.substr(6);
      if (m == "off")
        args.jit.mode = rt::JitMode::Off;
      else if (m == "lazy")
        args.jit.mode = rt::JitMode::Lazy;
      else if (m == "eager")
        args.jit.mode = rt::JitMode::Eager;
      else if (m == "baseline") {
        args.jit.mode = rt::JitMode::Lazy;
        args.jit.llvm = false;
      } else {
        std::cerr << fmt::format("thorin: --jit takes off, lazy, eager or baseline, not '{}'\n", m);
        return 2;
      }
    } else if (a == "--no-baseline") {
      args.jit.baseline = false;
    } else if (a == "--jit-threshold" || a.rfind("--jit-threshold=", 0) == 0) {
      std::string v =
          a.size() > 15 && a[15] == '=' ? a.substr(16) : (i + 1 < argc ? argv[++i] : "");
      uint64_t n;
      if (!parsePositiveCount(v, n)) {
        std::cerr << "thorin: --jit-threshold needs a positive number\n";
        return 2;
      }
      args.jit.threshold = n;
    } else if (a == "--jit-stats") {
      args.jit.stats = true;
    } else if (a == "--jit-sync") {
      args.jit.background = false;
    } else if (a == "--no-code-cache") {
      args.noCodeCache = true;
    } else if (a == "--watch") {
      if (!args.run) {
        std::cerr << "thorin: --watch goes with run: thorin run --watch FILE\n";
        return 2;
      }
      args.watch = true;
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << fmt::format("thorin: unknown option '{}' (see thorin --help)\n", a);
      return 2;
    } else {
      args.files.push_back(a);
      // A script's arguments are its own, options or not.
      if (args.run || (!args.check && args.files.size() == 1 && isScript(a))) {
        args.run = true;
        args.programArgs.assign(argv + i + 1, argv + argc);
        break;
      }
    }
  }
  if (args.run && !args.noCodeCache) args.jit.codeCache = codeCacheDir();
  if (args.check && args.files.empty()) {
    std::cerr << "thorin: check needs at least one file (see thorin --help)\n";
    return 2;
  }
  if (args.run && args.files.size() != 1) {
    std::cerr << "thorin: run needs exactly one file (see thorin --help)\n";
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = onSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0; // no SA_RESTART: a blocking read returns so the prompt can redraw
  sigaction(SIGINT, &sa, nullptr);
  if (args.run) sigaction(SIGTERM, &sa, nullptr); // (a script flushes its output first)
  try {
    limitMemory(defaultStackBytes());
    return runWithLargeStack(defaultStackBytes(), realMain, &args);
  } catch (std::exception& e) {
    std::cerr << "thorin: error: " << e.what() << "\n";
    return 2;
  }
}
