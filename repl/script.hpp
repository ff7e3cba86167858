// Running .thorin files as programs: `thorin run FILE ARGS…` once, or again
// at every change with `--watch` (and the REPL's `:watch`).
#pragma once
#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "runtime/engine.hpp"

namespace thorin {

/// Exit statuses of `thorin run`.
enum Status { kOk = 0, kElabError = 1, kRunError = 2 };

/// Runs the loaded files' `main` (if there is one) on `args` and prints its
/// value; returns a Status.
int runMain(Session& s, rt::Runtime& rt, const std::vector<std::string>& args);

/// Reloads after `changed` files changed; prints the one-line summary and
/// what the files print. Returns false if the reload failed (the errors are
/// printed; the last good version stays loaded).
bool reloadAndReport(Session& s, const std::vector<std::string>& changed, std::ostream& out,
                     std::ostream& err);

/// Gives memory freed since (by a reload, a run) back to the system, as the
/// allocator would later: called when waiting for the next change.
void releaseFreeMemory();

/// `thorin run --watch FILE ARGS…`: runs the file, then again after every
/// change to it or to a file it imports, until `quit` is set (Ctrl-C).
int watchScript(Session& s, rt::Runtime& rt, const std::string& file,
                const std::vector<std::string>& args, const std::atomic<bool>& quit,
                std::ostream& out, std::ostream& err);

} // namespace thorin
