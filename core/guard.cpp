#include "guard.hpp"

#include <fmt/format.h>
#include <gmp.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

namespace thorin {

std::atomic<bool> gInterrupt{false};
char* gStackLimit = nullptr;
char* volatile gPollLimit = nullptr;

// The interrupt's pipe: a byte in it while an interrupt is pending, so that
// a program blocked reading its input (poll on both) wakes up.
static int gWake[2] = {-1, -1};

int interruptFd() {
  static bool made = [] {
    if (::pipe2(gWake, O_CLOEXEC | O_NONBLOCK) != 0) gWake[0] = gWake[1] = -1;
    return true;
  }();
  (void)made;
  return gWake[0];
}

void signalInterrupt() {
  gInterrupt.store(true);
  gPollLimit = reinterpret_cast<char*>(~uintptr_t(0));
  if (gWake[1] >= 0) {
    char b = 1;
    ssize_t r = ::write(gWake[1], &b, 1); // (async-signal-safe; full: one is there)
    (void)r;
  }
}
void consumeInterrupt() {
  gInterrupt.store(false);
  if (gWake[0] >= 0) {
    char buf[64];
    while (::read(gWake[0], buf, sizeof buf) > 0) {
    }
  }
}
void clearInterrupt() {
  consumeInterrupt();
  gPollLimit = gStackLimit;
}

static char* gStackBase = nullptr;
static char* gStackHigh = nullptr;

namespace {
struct ThreadArgs {
  int (*fn)(void*);
  void* arg;
  char* stackLow;
  size_t size;
  int result;
};

void* threadMain(void* p) {
  auto* a = static_cast<ThreadArgs*>(p);
  // Leave a margin for the guard's own frames, signal handlers and unwinding.
  size_t margin = std::min<size_t>(a->size / 8, size_t(64) << 20);
  gStackLimit = a->stackLow + margin;
  gPollLimit = gStackLimit;
  gStackBase = a->stackLow;
  gStackHigh = a->stackLow + a->size;
  a->result = a->fn(a->arg);
  return nullptr;
}
#if defined(__x86_64__) && !defined(THORIN_SANITIZE)
int onStack(void* p) {
  // (Nothing unwinds out of here onto the caller's stack.)
  try {
    threadMain(p);
  } catch (...) {
    static_cast<ThreadArgs*>(p)->result = 70; // (EX_SOFTWARE)
  }
  return 0;
}
#endif
} // namespace

#if defined(__x86_64__) && !defined(THORIN_SANITIZE)
// int thorin_call_on_stack(char* top, int (*fn)(void*), void* arg): fn(arg)
// with the stack pointer at `top`, then back. rbp keeps the caller's stack
// pointer; the CFI says so, so that debuggers and unwinders walk through.
extern "C" int thorin_call_on_stack(char* top, int (*fn)(void*), void* arg);
asm(R"(
  .text
  .globl thorin_call_on_stack
  .type thorin_call_on_stack, @function
thorin_call_on_stack:
  .cfi_startproc
  push %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  mov %rsp, %rbp
  .cfi_def_cfa_register %rbp
  and $-16, %rdi
  mov %rdi, %rsp
  mov %rdx, %rdi
  call *%rsi
  mov %rbp, %rsp
  .cfi_def_cfa_register %rsp
  pop %rbp
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc
  .size thorin_call_on_stack, .-thorin_call_on_stack
)");
#endif

// A runaway computation (a normal form that never ends, a loop that builds
// ever longer strings) grew until the kernel's OOM killer ended the process,
// the machine thrashing before: a crash. RLIMIT_DATA counts private writable
// mappings (the allocators' memory, the arenas, the run-time heap), so past
// it an allocation fails instead: std::bad_alloc, a located error, and the
// session goes on. Not under the sanitizers: their shadow memory counts too.
static size_t gMemoryLimit = 0;

// GMP's allocations fail like any other: std::bad_alloc, a located error
// (its default aborts the process: "GNU MP: Cannot allocate memory"). The
// exception unwinds through GMP's frames (its unwind tables); what GMP had
// allocated for temporaries in the failed call is lost, once per failure.
namespace {
void* gmpAlloc(size_t n) {
  void* p = std::malloc(n);
  if (!p) throw std::bad_alloc();
  return p;
}
void* gmpRealloc(void* p, size_t, size_t n) {
  void* q = std::realloc(p, n);
  if (!q) throw std::bad_alloc();
  return q;
}
void gmpFree(void* p, size_t) { std::free(p); }
} // namespace

void limitMemory([[maybe_unused]] size_t stackBytes) {
  mp_set_memory_functions(gmpAlloc, gmpRealloc, gmpFree);
#ifndef THORIN_SANITIZE
  size_t limit;
  if (const char* s = std::getenv("THORIN_MEMORY_MB")) {
    long mb = std::atol(s);
    if (mb <= 0) return;
    limit = size_t(mb) << 20;
  } else {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return;
    limit = size_t(pages) * size_t(page) / 10 * 8;
  }
  rlimit r;
  if (getrlimit(RLIMIT_DATA, &r) != 0) return;
  rlim_t want = rlim_t(limit + stackBytes); // (the elaboration stack is such a mapping)
  if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur <= want) return; // a tighter limit stays
  if (r.rlim_max != RLIM_INFINITY && want > r.rlim_max) want = r.rlim_max;
  r.rlim_cur = want;
  if (setrlimit(RLIMIT_DATA, &r) == 0) gMemoryLimit = limit;
#endif
}

size_t memoryLimit() { return gMemoryLimit; }

size_t defaultStackBytes() {
  if (const char* s = std::getenv("THORIN_STACK_MB")) {
    long mb = std::atol(s);
    if (mb >= 16) return size_t(mb) << 20;
  }
#ifdef THORIN_SANITIZE
  // ASan cannot unwind exceptions through more than ~64 MiB of stack.
  return size_t(64) << 20;
#else
  // 1 GiB, committed only as deep recursion touches it (as OCaml's default
  // limit). Every workload of bench/ needs far less; a runaway recursion
  // (`f n = 1 + f n`) fills it in seconds, and unwinding it takes longer
  // still: with 4 GiB, failing or answering Ctrl-C took 25–50 s and 4 GB.
  return size_t(1) << 30;
#endif
}

int runWithLargeStack(size_t bytes, int (*fn)(void*), void* arg) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  bytes = (bytes + page - 1) & ~(page - 1);
  // MAP_NORESERVE: the reservation is virtual; only touched pages cost memory.
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mem == MAP_FAILED) // (e.g. under `ulimit -v`)
    throw std::runtime_error(
        fmt::format("cannot reserve the elaboration stack of {} MB (a smaller one: "
                    "THORIN_STACK_MB=256, say)",
                    bytes >> 20));
  ThreadArgs a{fn, arg, static_cast<char*>(mem), bytes, 0};
#if defined(__x86_64__) && !defined(THORIN_SANITIZE)
  // This thread, on the new stack: a thread of its own cost each start-up
  // ~0.3 ms (its creation, and its allocator heap starting with fresh
  // pages). (The sanitizers keep the thread: they track each thread's stack.)
  thorin_call_on_stack(static_cast<char*>(mem) + bytes, onStack, &a);
  munmap(mem, bytes);
  return a.result;
#else
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, mem, bytes);
  pthread_t th;
  int rc = pthread_create(&th, &attr, threadMain, &a);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    munmap(mem, bytes);
    throw std::runtime_error("cannot start the elaboration thread");
  }
  // Let the worker receive SIGINT (so a Ctrl-C interrupts its blocking reads),
  // not this thread, which only waits.
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  pthread_join(th, nullptr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  munmap(mem, bytes);
  return a.result;
#endif
}

bool largeStack(char** low, char** high) {
  char probe;
  if (!gStackBase || &probe < gStackBase || &probe >= gStackHigh) return false;
  *low = gStackBase;
  *high = gStackHigh;
  return true;
}

void releaseUnusedStack() {
  if (!gStackBase) return;
  char probe;
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  uintptr_t top = (reinterpret_cast<uintptr_t>(&probe) - (size_t(1) << 20)) & ~(page - 1);
  uintptr_t low = reinterpret_cast<uintptr_t>(gStackBase);
  if (top > low) madvise(gStackBase, top - low, MADV_DONTNEED);
}

} // namespace thorin
