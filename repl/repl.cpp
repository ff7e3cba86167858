#include "repl.hpp"

#include "core/inspect.hpp"

#include "jit/baseline/baseline_tier.hpp"
#include "runtime/engine.hpp"
#include "script.hpp"
#include "watch.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "core/eval.hpp"
#include "core/guard.hpp"
#include "core/pretty.hpp"
#include "core/unicode.hpp"
#include "core/zonk.hpp"

namespace thorin {

namespace fs = std::filesystem;

const std::vector<Repl::Command> Repl::commands_ = {
    {"load", "FILE…", "load files (replacing what was loaded)", &Repl::cmdLoad},
    {"l", "FILE…", "", &Repl::cmdLoad},
    {"reload", "", "reload the loaded files", &Repl::cmdReload},
    {"r", "", "", &Repl::cmdReload},
    {"type", "EXPR", "show the type of an expression", &Repl::cmdType},
    {"t", "NAME|EXPR", "show the elaborated type of a definition or expression", &Repl::cmdType},
    {"nt", "NAME", "show the normal form of a definition's type", &Repl::cmdNormalType},
    {"nf", "EXPR", "show the normal form of an expression", &Repl::cmdNormal},
    {"n", "NAME|EXPR", "show the normal form of a definition or expression", &Repl::cmdNormal},
    {"eval", "EXPR", "evaluate an expression with the runtime (JIT when hot)", &Repl::cmdEval},
    {"ev", "EXPR", "", &Repl::cmdEval},
    {"e", "NAME", "show a definition's elaborated term (with metavariables)", &Repl::cmdElaborated},
    {"z", "NAME", "show a definition's elaborated term with metavariables solved",
     &Repl::cmdZonked},
    {"out", "", "show the whole elaboration output (definitions and metas)", &Repl::cmdOutput},
    {"browse", "", "list the definitions in scope with their types", &Repl::cmdBrowse},
    {"bro", "", "", &Repl::cmdBrowse},
    {"info", "NAME", "show where a name is defined, its type and definition", &Repl::cmdInfo},
    {"goals", "", "list the open goals (?name) with their types and contexts", &Repl::cmdGoals},
    {"i", "NAME", "", &Repl::cmdInfo},
    {"time", "", "toggle printing how long each input takes", &Repl::cmdTime},
    {"stats", "", "show memory use and the number of definitions and metas", &Repl::cmdStats},
    {"jit", "", "list compiled functions with call counts and compile times", &Repl::cmdJit},
    {"llvm", "NAME", "show the optimized LLVM IR of a compiled function", &Repl::cmdLlvm},
    {"spec", "NAME", "list the specializations of a function (filters: @(…))", &Repl::cmdSpec},
    {"residual", "NAME ARG…", "show NAME's code specialized to the arguments (_: dynamic)",
     &Repl::cmdResidual},
    {"set", "OPTION VALUE", "set an option: jit-threshold N", &Repl::cmdSet},
    {"watch", "FILE…", "load files, run main, and again whenever they change", &Repl::cmdWatch},
    {"unwatch", "", "stop watching", &Repl::cmdUnwatch},
    {"help", "", "show this help", &Repl::cmdHelp},
    {"?", "", "", &Repl::cmdHelp},
    {"h", "", "", &Repl::cmdHelp},
    {"quit", "", "leave thorin (also Ctrl-D)", &Repl::cmdQuit},
    {"q", "", "", &Repl::cmdQuit},
};

// The name an entry starts with (`f` of `f : A` and of `f = t`).
static std::string_view firstWord(std::string_view s) {
  size_t e = 0;
  while (e < s.size() && !std::isspace(static_cast<unsigned char>(s[e])) && s[e] != ':' &&
         s[e] != '=')
    ++e;
  return s.substr(0, e);
}

static std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

static std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  std::string w;
  while (in >> w)
    out.push_back(w);
  return out;
}

Repl::Repl(Session& s, std::ostream& out, std::ostream& err) : s_(s), out_(out), err_(err) {}
Repl::~Repl() {
  if (ed_) ed_->setWake(-1, nullptr);
}

void Repl::timed(const char* what, double seconds) {
  if (s_.opts.time) out_ << fmt::format("({} {})\n", what, formatSeconds(seconds));
}

bool Repl::handle(const std::string& raw) {
  gInterrupt.store(false);
  std::string input = trim(raw);
  if (input.empty()) return true;
  Timer t;
  if (input[0] == ':') {
    size_t sp = input.find_first_of(" \t");
    std::string name = input.substr(1, sp == std::string::npos ? std::string::npos : sp - 1);
    std::string arg = sp == std::string::npos ? "" : trim(input.substr(sp));
    // The argument's place in the line typed, for the columns of its errors.
    size_t lead = raw.find_first_not_of(" \t\r\n");
    argFrom_ = uint32_t(sp == std::string::npos ? raw.size()
                                                : input.find_first_not_of(" \t\r\n", sp) + lead);
    if (arg.empty()) argFrom_ = uint32_t(raw.size());
    cmdLine_ = raw.substr(0, argFrom_ + arg.size());
    const Command* cmd = nullptr;
    for (auto& c : commands_)
      if (name == c.name) cmd = &c;
    if (!cmd) { // unique prefix, as in GHCi
      std::vector<const Command*> cands;
      for (auto& c : commands_)
        if (!name.empty() && std::string_view(c.name).starts_with(name) && *c.help)
          cands.push_back(&c);
      if (cands.size() == 1)
        cmd = cands[0];
      else if (cands.size() > 1) {
        std::string list;
        for (auto* c : cands)
          list += fmt::format(" :{}", c->name);
        out_.flush();
        err_ << fmt::format("error: ambiguous command ':{}' (could be{})\n", unicode::visible(name),
                            list);
        return true;
      }
    }
    if (const Inspector* i = cmd ? nullptr : findInspector(name)) { // (a plugin's command)
      if (arg.empty())
        err_ << fmt::format("error: :{} needs an expression\n", i->command);
      else
        s_.top().inspect(cmdLine_, *i, "<interactive>", argFrom_);
      timed("took", t.seconds());
      return !quit_;
    }
    if (!cmd) {
      out_.flush();
      err_ << fmt::format("error: unknown command ':{}' (type :? for help)\n",
                          unicode::visible(name));
      return true;
    }
    (this->*cmd->fn)(arg);
    if (cmd->fn != &Repl::cmdTime) timed("took", t.seconds());
    return !quit_;
  }
  s_.touched();
  s_.top().replInput(raw);
  timed("took", t.seconds());
  return true;
}

void Repl::run(LineEditor& ed) {
  ed_ = &ed;
  const char* prompt = "> ";
  const char* more = "| ";
  while (!quit_) {
    out_.flush();                          // (piped: a watcher or a test waits for the output)
    bool readAhead = pending_.has_value(); // (counted when it was read)
    auto line = readAhead ? std::exchange(pending_, std::nullopt) : ed.read(prompt);
    if (!line) {
      if (ed.interactive()) out_ << "\n";
      break;
    }
    s_.top().setInputLine(readAhead ? lines_ : ++lines_);
    std::string input = *line;
    if (trim(input) == ":{") { // explicit multi-line block, as in GHCi
      input.clear();
      bool closed = false;
      s_.top().setInputLine(lines_ + 1);
      while (auto l = ed.read(more)) {
        ++lines_;
        if (trim(*l) == ":}") {
          closed = true;
          break;
        }
        input += *l + "\n";
      }
      if (!closed) { // (the input ended inside the block: it was never run)
        err_
            << "error: the input ended inside a :{ block (it ends with a line :}); it is not run\n";
        break;
      }
      ed.remember(":{\n" + input + ":}");
      gInterrupt.store(false);
      Timer t;
      s_.touched();
      s_.top().replBlock(input);
      timed("took", t.seconds());
      continue;
    }
    ed.remember(input);
    if (trim(input).starts_with(":")) {
      if (!handle(input)) break;
      continue;
    }
    // Read continuation lines while the input is incomplete (open brackets,
    // a trailing `=` or `→`, a signature without its definition, …); an
    // empty line ends the input. A continuation line in column 0 starts the
    // next entry, as in a file: `f : A` then `f = …` (Agda's layout).
    bool entries = false;
    auto run = [&](bool* incomplete, bool* awaitsDefinition) {
      return entries ? s_.top().replBlock(input + "\n", incomplete)
                     : s_.top().replInput(input, incomplete, awaitsDefinition);
    };
    while (true) {
      bool incomplete = false, awaitsDefinition = false;
      gInterrupt.store(false);
      Timer t;
      s_.touched();
      run(&incomplete, &awaitsDefinition);
      if (!incomplete) {
        timed("took", t.seconds());
        break;
      }
      auto l = ed.read(more);
      if (l) ++lines_;
      bool col0 = l && !trim(*l).empty() && !std::isspace(static_cast<unsigned char>((*l)[0]));
      if (awaitsDefinition && col0 && !trim(*l).starts_with(":")) {
        if (firstWord(*l) == firstWord(input)) {
          entries = true; // `f : A`, then `f = …`
        } else {          // something else: the signature stays incomplete
          run(nullptr, nullptr);
          pending_ = *l;
          break;
        }
      }
      if (!l || trim(*l).empty() || trim(*l).starts_with(":")) {
        run(nullptr, nullptr); // reports why the input is incomplete
        if (l && trim(*l).starts_with(":")) {
          ed.remember(*l);
          s_.top().setInputLine(lines_);
          if (!handle(*l)) return;
        }
        break;
      }
      ed.remember(*l);
      input += "\n" + *l;
    }
  }
}

int32_t Repl::topByName(const std::string& name, bool report) {
  if (name.empty()) {
    if (report) {
      out_.flush();
      err_ << "error: this command needs the name of a definition\n";
    }
    return -1;
  }
  int32_t id = s_.world().lookupTop(intern(name));
  if (id < 0 && report) {
    out_.flush();
    err_ << fmt::format("error: no definition named '{}'\n", unicode::visible(name));
  }
  return id;
}

static bool isName(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c == ' ' || c == '(' || c == ')' || c == '{' || c == '}' || c == '.' || c == ',')
      return false;
  return true;
}

void Repl::cmdLoad(const std::string& a) {
  auto files = words(a);
  if (files.empty()) {
    err_ << "error: :load needs a file name\n";
    return;
  }
  if (s_.load(files))
    out_ << fmt::format("loaded {}\n", fmt::join(files, ", "));
  else
    err_ << "load failed; the previous definitions are kept\n";
  if (watcher_) watcher_->watch(s_.watchedFiles()); // (`:watch` follows the loaded files)
}

void Repl::cmdReload(const std::string&) {
  if (s_.files().empty()) {
    err_ << "error: nothing to reload (use :l FILE first)\n";
    return;
  }
  ReloadReport rep = s_.reload();
  if (rep.ok)
    out_ << rep.summary(s_.files()) << "\n" << rep.output;
  else
    err_ << "reload failed; the previous definitions are kept\n";
  if (watcher_) watcher_->watch(s_.watchedFiles());
  releaseFreeMemory();
}

void Repl::cmdType(const std::string& a) {
  if (a.empty()) {
    err_ << "error: :type needs an expression\n";
    return;
  }
  if (isName(a)) {
    int32_t id = topByName(a, false);
    if (id >= 0) {
      World& w = s_.world();
      w.beginEntry();
      out_ << a << " : " << show(w, zonk(w, w.scratch, w.tops[id].type)) << "\n";
      return;
    }
  }
  queryArgument(TopLevel::Show::Type);
}

void Repl::queryArgument(TopLevel::Show what) {
  s_.top().query(cmdLine_, what, "<interactive>", argFrom_);
}

void Repl::cmdNormalType(const std::string& a) {
  int32_t id = topByName(a);
  if (id < 0) return;
  World& w = s_.world();
  w.beginEntry();
  try {
    out_ << a << " : " << show(w, normalize(w, w.scratch, 0, nullptr, w.tops[id].type)) << "\n";
  } catch (Interrupted&) {
    err_ << "interrupted\n";
  } catch (DepthExceeded&) {
    err_ << "error: recursion depth limit exceeded while normalizing\n";
  }
}

void Repl::cmdNormal(const std::string& a) {
  if (a.empty()) {
    err_ << "error: :nf needs an expression\n";
    return;
  }
  queryArgument(TopLevel::Show::NormalForm);
}

void Repl::cmdElaborated(const std::string& a) {
  int32_t id = topByName(a);
  if (id < 0) return;
  World& w = s_.world();
  auto& e = w.tops[id];
  out_ << str(e.name) << " : " << show(w, e.type);
  if (e.def) out_ << "\n  = " << show(w, e.def);
  out_ << "\n";
}

void Repl::cmdZonked(const std::string& a) {
  int32_t id = topByName(a);
  if (id < 0) return;
  World& w = s_.world();
  w.beginEntry();
  auto& e = w.tops[id];
  out_ << str(e.name) << " : " << show(w, zonk(w, w.scratch, e.type));
  if (e.def) out_ << "\n  = " << show(w, zonk(w, w.scratch, e.def));
  out_ << "\n";
}

// The user's definitions in definition order (a reload keeps some and
// re-elaborates others, so ids are not in that order).
static std::vector<TopId> userDefinitions(World& w, bool inScopeOnly) {
  std::vector<TopId> ids;
  for (TopId id = 0; id < w.tops.size(); ++id) {
    auto& e = w.tops[id];
    if (e.prelude || e.retired || (inScopeOnly && w.lookupTop(e.name) != int32_t(id))) continue;
    ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end(),
            [&](TopId a, TopId b) { return w.tops[a].seq < w.tops[b].seq; });
  return ids;
}

void Repl::cmdOutput(const std::string&) {
  World& w = s_.world();
  for (TopId id : userDefinitions(w, false)) {
    auto& e = w.tops[id];
    out_ << str(e.name) << " : " << show(w, e.type);
    if (e.def) out_ << " = " << show(w, e.def);
    out_ << "\n";
  }
  for (size_t m = w.preludeMetas; m < w.metas.size(); ++m) {
    auto& me = w.metas[m];
    out_ << fmt::format("{} = {}\n", metaName(w, uint32_t(m)),
                        me.solution ? show(w, me.solution) : "(unsolved)");
  }
}

void Repl::cmdBrowse(const std::string&) {
  World& w = s_.world();
  for (TopId id : userDefinitions(w, true)) {
    auto& e = w.tops[id];
    w.beginEntry();
    out_ << str(e.name) << " : " << show(w, zonk(w, w.scratch, e.type)) << "\n";
  }
}

void Repl::cmdInfo(const std::string& a) {
  int32_t id = topByName(a);
  if (id < 0) return;
  World& w = s_.world();
  auto& e = w.tops[id];
  if (e.span.src) {
    auto lc = e.span.src->lineCol(e.span.begin);
    out_ << fmt::format("{} is {} at {}:{}:{}\n", a, e.def ? "defined" : "postulated",
                        e.span.src->path, lc.line, lc.col);
  }
  w.beginEntry();
  out_ << a << " : " << show(w, zonk(w, w.scratch, e.type)) << "\n";
  if (!e.def) return;
  // The definition naming an axiom (`Nat = %core.Nat`): the axiom by its own
  // name (printed by its alias, it would read `Nat = Nat`).
  const Tm* d = e.def;
  if (d->tag == TTag::Top && w.tops[d->n].axiom && w.tops[d->n].alias == id)
    out_ << a << " = " << str(w.tops[d->n].name) << "\n";
  else
    out_ << a << " = " << show(w, zonk(w, w.scratch, e.def)) << "\n";
}

void Repl::cmdTime(const std::string&) {
  s_.opts.time = !s_.opts.time;
  out_ << (s_.opts.time ? "timing on\n" : "timing off\n");
}

static long procStatusKb(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  size_t n = std::strlen(key);
  while (std::getline(in, line))
    if (line.compare(0, n, key) == 0) return std::atol(line.c_str() + n + 1);
  return -1;
}

void Repl::cmdStats(const std::string&) {
  World& w = s_.world();
  out_ << fmt::format("definitions: {}, metavariables: {}\n", w.tops.size(), w.metas.size());
  out_ << fmt::format("term memory: {} KiB, scratch memory: {} KiB\n",
                      w.perm.bytesReserved() / 1024, w.scratch.bytesReserved() / 1024);
  out_ << fmt::format("resident memory: {} KiB (peak {} KiB)\n", procStatusKb("VmRSS:"),
                      procStatusKb("VmHWM:"));
}

void Repl::cmdEval(const std::string& a) {
  if (a.empty()) {
    err_ << "error: :eval needs an expression\n";
    return;
  }
  queryArgument(TopLevel::Show::Eval);
}

// The runtime, switched to the session's current world (a `:load` replaces it).
static rt::Runtime* runtimeOf(Session& s) {
  auto* r = dynamic_cast<rt::Runtime*>(s.opts.runner);
  if (r) r->enter(s.world());
  return r;
}

void Repl::cmdGoals(const std::string&) {
  if (s_.top().showGoals() == 0) out_ << "no open goals\n";
}

void Repl::cmdJit(const std::string&) {
  rt::Runtime* r = runtimeOf(s_);
  if (!r) return;
  World& w = s_.world();
  if (r->opts.mode == rt::JitMode::Off) out_ << "the JIT is off (--jit=off)\n";
  bool any = false;
  std::vector<TopId> ids;
  for (TopId id = 0; id < r->globals.size() && id < w.tops.size(); ++id)
    ids.push_back(id);
  for (size_t i = 0; i < r->specCount(); ++i) // specializations (`pow@(_ 3)`)
    ids.push_back(rt::kSpecBase + TopId(i));
  for (TopId id : ids) {
    const rt::Global& g = r->global(id);
    if (!g.compiled) continue;
    any = true;
    out_ << fmt::format("{:<20} {:>10} calls  compiled in {:.2f} ms{}\n", r->nameOf(id), g.calls,
                        g.compileMs,
                        g.noSpeculate ? " (deoptimized: without speculation)"
                        : r->baseline && r->baseline->owns(g.compiled) ? " (baseline code)"
                                                                       : "");
  }
  if (!any && r->opts.mode != rt::JitMode::Off)
    out_ << fmt::format("no compiled functions yet (a function is compiled after {} calls)\n",
                        r->opts.threshold);
}

void Repl::cmdLlvm(const std::string& a) {
  rt::Runtime* r = runtimeOf(s_);
  World& w = s_.world();
  int32_t id = w.lookupTop(intern(a));
  if (id < 0 && r &&
      !a.empty()) // a lifted λ (`f.λ1`) or a specialization (`pow@(_ 3)`), by its :jit name
    for (size_t i = 0; i < r->specCount(); ++i) {
      TopId sid = rt::kSpecBase + TopId(i);
      if (r->global(sid).compiled && r->nameOf(sid) == a) {
        out_ << r->backend->ir(sid);
        return;
      }
    }
  if (a.empty() || id < 0) {
    err_ << fmt::format("error: :llvm needs the name of a definition{}\n",
                        a.empty() ? ""
                                  : fmt::format(" ('{}' is not defined)", unicode::visible(a)));
    return;
  }
  std::string ir = r && r->backend && size_t(id) < r->globals.size() && r->globals[id].compiled
                       ? r->backend->ir(TopId(id))
                       : "";
  if (ir.empty()) {
    if (r && size_t(id) < r->globals.size() && r->baseline &&
        r->baseline->owns(r->globals[id].compiled))
      err_ << fmt::format("error: {} runs baseline code, which is not made by LLVM "
                          "(THORIN_BASELINE_ASM=1 prints it when it is made)\n",
                          a);
    else
      err_ << fmt::format("error: {} is not compiled (see :jit; --jit=eager compiles at once)\n",
                          a);
    return;
  }
  out_ << ir;
}

void Repl::cmdSpec(const std::string& a) {
  rt::Runtime* r = runtimeOf(s_);
  int32_t id = topByName(a);
  if (!r || id < 0) return;
  bool any = false;
  for (size_t i = 0; i < r->specCount(); ++i) {
    TopId sid = rt::kSpecBase + TopId(i);
    const rt::SpecInfo& si = r->spec(sid);
    if (si.origin != TopId(id) || si.dropped || si.lifted) continue;
    any = true;
    const rt::Global& g = r->global(sid);
    out_ << fmt::format("{:<24} size {:>5}  {:>10} calls  {}\n", r->nameOf(sid), si.size, g.calls,
                        g.compiled ? fmt::format("compiled in {:.2f} ms", g.compileMs)
                                   : std::string("not compiled"));
  }
  if (!any)
    out_ << fmt::format("{} has no specializations (inlined ones are not listed; see :residual)\n",
                        a);
}

void Repl::cmdResidual(const std::string& a) {
  if (a.empty()) {
    err_ << "error: usage: :residual NAME ARG… (for example :residual pow _ 3)\n";
    return;
  }
  s_.top().residualQuery(cmdLine_, argFrom_);
}

bool parsePositiveCount(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + uint64_t(c - '0');
  }
  out = n;
  return n > 0;
}

void Repl::cmdSet(const std::string& a) {
  auto ws = words(a);
  rt::Runtime* r = runtimeOf(s_);
  if (ws.size() == 2 && ws[0] == "jit-threshold" && r) {
    uint64_t n;
    if (!parsePositiveCount(ws[1], n)) {
      err_ << "error: jit-threshold needs a positive number\n";
      return;
    }
    r->opts.threshold = n;
    return;
  }
  err_ << "error: usage: :set jit-threshold N\n";
}

static rt::Runtime* runtimeOf(Session& s);

void Repl::cmdWatch(const std::string& a) {
  auto files = words(a);
  if (files.empty()) {
    if (watcher_)
      out_ << fmt::format("watching {} (:unwatch stops)\n", fmt::join(s_.files(), ", "));
    else
      err_ << "error: :watch needs a file name\n";
    return;
  }
  rt::Runtime* r = runtimeOf(s_);
  if (!r) return;
  auto w = std::make_unique<FileWatcher>();
  if (!w->ok()) {
    err_ << fmt::format("error: cannot watch files: {}\n", w->error());
    return;
  }
  w->busy = [r] { return r->runningProgram.load(); };
  watcher_ = std::move(w);
  if (ed_) ed_->setWake(watcher_->wakeFd(), [this] { onFileChange(); });
  bool ok = s_.load(files);
  watcher_->watch(s_.watchedFiles());
  if (!ok) {
    err_ << "load failed; watching for a fix\n";
    return;
  }
  out_ << fmt::format("watching {} (:unwatch stops)\n", fmt::join(files, ", "));
  runMain(s_, *r, {});
}

void Repl::cmdUnwatch(const std::string&) {
  if (!watcher_) {
    err_ << "error: nothing is being watched\n";
    return;
  }
  if (ed_) ed_->setWake(-1, nullptr);
  watcher_.reset();
  out_ << "stopped watching\n";
}

// A watched file changed while the prompt waited: reload and run main.
void Repl::onFileChange() {
  auto changed = watcher_ ? watcher_->poll() : std::vector<std::string>{};
  if (changed.empty()) return;
  if (ed_ && ed_->interactive()) out_ << "\r\x1b[K"; // (the prompt is redrawn after)
  bool ok = reloadAndReport(s_, changed, out_, err_);
  watcher_->watch(s_.watchedFiles());
  if (ok) runMain(s_, *runtimeOf(s_), {});
  out_.flush();
  releaseFreeMemory();
}

void Repl::cmdHelp(const std::string&) {
  out_ << "Type a definition (name : type = term), an expression (prints its normal form and\n"
          "type), a directive (.check, .nf, .eval, .ax, .import), or a command:\n";
  for (size_t i = 0; i < commands_.size(); ++i) {
    auto& c = commands_[i];
    if (!*c.help) continue;
    std::string alias;
    for (auto& d : commands_)
      if (d.fn == c.fn && !*d.help) alias += fmt::format(", :{}", d.name);
    std::string lhs = fmt::format(":{}{} {}", c.name, alias, c.args);
    out_ << fmt::format("  {:<24} {}\n", lhs, c.help);
  }
  for (auto& i : inspectors()) // (the loaded plugins' commands)
    out_ << fmt::format("  {:<24} {}\n", ":" + i.command + " EXPR", i.help);
  out_ << "Multi-line input: lines ending incomplete continue, or use :{ … :}.\n"
          "Ctrl-C interrupts a long computation; Ctrl-D quits.\n";
}

void Repl::cmdQuit(const std::string&) { quit_ = true; }

std::vector<std::string> Repl::complete(const std::string& line, const std::string& word) {
  std::vector<std::string> out;
  std::string before = line.substr(0, line.size() - std::min(line.size(), word.size()));
  if (trim(before).empty() && word.starts_with(":")) {
    for (auto& c : commands_)
      if (std::string(":") + c.name != word && (std::string(":") + c.name).starts_with(word))
        out.push_back(std::string(":") + c.name);
    for (auto& i : inspectors())
      if ((":" + i.command).starts_with(word)) out.push_back(":" + i.command);
    if (out.empty())
      for (auto& c : commands_)
        if (std::string(":") + c.name == word) out.push_back(word);
    return out;
  }
  auto ws = words(before);
  if (!ws.empty() && (ws[0] == ":l" || ws[0] == ":load")) {
    fs::path p(word);
    fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::string prefix = p.filename().string();
    if (!word.empty() && word.back() == '/') {
      dir = p;
      prefix.clear();
    }
    std::error_code ec;
    for (auto& e : fs::directory_iterator(dir, ec)) {
      std::string f = e.path().filename().string();
      if (!f.starts_with(prefix)) continue;
      std::string full =
          (p.has_parent_path() || (!word.empty() && word.back() == '/')) ? (dir / f).string() : f;
      if (e.is_directory()) full += "/";
      out.push_back(full);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  World& w = s_.world();
  for (uint32_t id = 0; id < w.tops.size(); ++id) {
    std::string n(str(w.tops[id].name));
    if (n.starts_with(word) && w.lookupTop(w.tops[id].name) == int32_t(id)) out.push_back(n);
  }
  for (const char* kw : {"let", "U", "Type"})
    if (std::string_view(kw).starts_with(word)) out.push_back(kw);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace thorin
