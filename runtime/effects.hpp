// IO actions: values that describe effects, run only by the runner here.
//
// An action (the io plugin's `IO A`) is a closure the plugin's primitives
// build; building one performs nothing, so evaluation, the specializer and
// read-back — everything elaboration may run — only pass actions around.
// `runAction` performs one: `bind m k` and `pure x` are closures it takes
// apart, with the continuations on a stack of its own, so a loop written as
// a recursive function of binds runs in constant C stack (a trampoline);
// any other action is a primitive whose code performs it.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "heap.hpp"

namespace thorin::rt {

class Runtime;

/// `pure x`, `bind m k`.
V mkPure(V x);
V mkBind(V m, V k);
/// A primitive action: `code(self, …)` performs it, reading its arguments
/// with actionArg (the span locates its run-time errors: actionSpan).
V mkAction(Code code, uint32_t span, std::initializer_list<V> args);
inline V actionArg(const Closure* self, uint32_t i) { return self->free[1 + i]; }
inline uint32_t actionSpan(const Closure* self) { return uint32_t(immVal(self->free[0])); }

/// Is `v` an action the runner knows (for printing an action not run)?
bool isAction(V v);

/// `exit n` was run: the program ends with status n (output flushed).
struct ProgramExit {
  int status;
};

/// Performs `action` and returns its result. A computation between two
/// effects that deoptimizes runs again from the continuation (no effect is
/// repeated): see Runtime::run.
V runAction(Runtime& rt, V action);

// Standard streams, through C's stdio (thorin's own printing goes there too,
// so the order is kept): standard output is line-buffered on a terminal and
// fully buffered otherwise; it is flushed at the end of a run, before
// reading standard input, before writing to standard error, and on exit.
void outWrite(std::string_view s);
void errWrite(std::string_view s);
void flushOutput();

} // namespace thorin::rt
