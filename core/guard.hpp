// Depth and interrupt guard. Elaboration runs on a thread with a very large
// stack; `guard()` turns running out of it into an error instead of a crash,
// and turns Ctrl-C (a flag set by the signal handler) into an exception that
// unwinds to the prompt.
#pragma once
#include <atomic>
#include <cstddef>
#include <exception>

namespace thorin {

struct DepthExceeded : std::exception {
  const char* what() const noexcept override { return "recursion depth limit exceeded"; }
};
struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

extern std::atomic<bool> gInterrupt;
extern char* gStackLimit; // lowest usable stack address of the elaboration thread (+ margin)
/// gStackLimit, or the highest address once Ctrl-C was pressed: compiled code
/// checks only `sp < gPollLimit` at function entry (one compare for both).
extern char* volatile gPollLimit;
/// Ctrl-C: sets gInterrupt and trips gPollLimit (async-signal-safe).
void signalInterrupt();
/// Forgets a pending interrupt (before starting new work).
void clearInterrupt();
/// A descriptor readable while an interrupt is pending (-1: none), for
/// blocking reads to poll beside their own: made on first use.
int interruptFd();
/// Takes the pending interrupt (guard() throws it): its flag and its byte.
void consumeInterrupt();

inline void guard() {
  char probe;
  if (&probe < gStackLimit) [[unlikely]]
    throw DepthExceeded();
  if (gInterrupt.load(std::memory_order_relaxed)) [[unlikely]] {
    consumeInterrupt();
    throw Interrupted();
  }
}

/// Runs `fn` on a fresh stack of `bytes` (reserved lazily) — on this thread,
/// or (sanitizer builds) on a thread of its own — with the guard limit set
/// for it; returns fn's result code.
int runWithLargeStack(size_t bytes, int (*fn)(void*), void* arg);

/// The bounds of the large stack the caller runs on; false when it runs on
/// another one (a thread's own, or the process's initial stack).
bool largeStack(char** low, char** high);

/// Gives back to the OS the stack pages of the current big-stack thread that
/// lie below the current frame (after a deep computation).
void releaseUnusedStack();

/// Stack size used for elaboration threads (THORIN_STACK_MB overrides).
size_t defaultStackBytes();

/// Limits the process's memory (RLIMIT_DATA) to 80 % of the physical memory,
/// or THORIN_MEMORY_MB (0: no limit), plus the elaboration stack, so that a
/// runaway computation fails to allocate (a located "out of memory" error)
/// instead of being killed by the kernel. Call before any thread starts.
void limitMemory(size_t stackBytes);
/// The limit limitMemory() set, in bytes (0: none).
size_t memoryLimit();

} // namespace thorin
