#include "script.hpp"

#include <ostream>

#include <fmt/format.h>

#include "core/guard.hpp"
#include "watch.hpp"

namespace thorin {

int runMain(Session& s, rt::Runtime& rt, const std::vector<std::string>& args) {
  World& w = s.world();
  int32_t m = w.lookupTop(intern("main"));
  if (m < 0 || w.tops[m].prelude) {
    if (args.empty()) return kOk;
    s.top().printError(Error(Diagnostic{
        {},
        fmt::format("{} defines no main to take the arguments", fmt::join(s.files(), ", ")),
        {}}));
    return kElabError;
  }
  rt.hadError = false;
  bool ok = s.top().evalMain(TopId(m), args);
  if (rt.hadError) return kRunError;
  return ok ? kOk : kElabError;
}

bool reloadAndReport(Session& s, const std::vector<std::string>& changed, std::ostream& out,
                     std::ostream& err) {
  clearInterrupt(); // (the change may have interrupted the last run)
  ReloadReport rep = s.reload();
  if (!rep.ok) {
    out.flush();
    err << "reload failed; the last good version stays loaded\n";
    err.flush();
    return false;
  }
  out << rep.summary(changed.empty() ? s.files() : changed) << "\n" << rep.output;
  out.flush();
  return true;
}

int watchScript(Session& s, rt::Runtime& rt, const std::string& file,
                const std::vector<std::string>& args, const std::atomic<bool>& quit,
                std::ostream& out, std::ostream& err) {
  FileWatcher fw;
  if (!fw.ok()) {
    err << fmt::format("thorin: cannot watch files: {}\n", fw.error());
    return kRunError;
  }
  fw.busy = [&rt] { return rt.runningProgram.load(); };
  bool ok = s.load({file});
  while (!quit.load()) {
    // (Watch before running: a change during the run interrupts it.)
    fw.watch(s.watchedFiles());
    if (ok) runMain(s, rt, args);
    out.flush();
    releaseFreeMemory();
    auto changed = fw.wait(quit);
    if (changed.empty()) break;
    ok = reloadAndReport(s, changed, out, err);
  }
  return kOk;
}

} // namespace thorin
