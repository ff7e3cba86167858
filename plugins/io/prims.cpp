// Run-time implementations of the io plugin's axioms. Each primitive only
// builds an action (runtime/effects.hpp); the action's code, run by the
// runner, performs the effect. An I/O failure is a run-time error located at
// the application that built the action, with the system's reason.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "core/guard.hpp"
#include "core/unicode.hpp"
#include "io_axioms.hpp"
#include "runtime/effects.hpp"
#include "runtime/primitive.hpp"

namespace thorin::plug::io {
namespace {

using namespace rt;

constexpr V kUnit = 1; // imm(0): `tt`

[[noreturn]] void failIO(const char* verb, V path, uint32_t span) {
  fail(fmt::format("cannot {} '{}': {}", verb, unicode::visible(std::string(toStr(path))),
                   std::strerror(errno))
           .c_str(),
       span);
}

// A path as the system takes it (a NUL byte inside is an invalid path).
std::string pathOf(V p, const char* verb, uint32_t span) {
  std::string s(toStr(p));
  if (s.find('\0') != std::string::npos || s.empty()) {
    errno = s.empty() ? ENOENT : EINVAL;
    failIO(verb, p, span);
  }
  return s;
}

// Standard input ----------------------------------------------------------
// Read through a buffer of our own: getLine and getContents share it. A
// blocked read wakes when thorin is interrupted (Ctrl-C, a change under
// --watch): poll on the interrupt's pipe as well.
struct Stdin {
  std::string buf;
  size_t pos = 0;
  bool eof = false;
  // Reads more; false at the end of input.
  bool fill(uint32_t span) {
    if (eof) return false;
    flushOutput();
    for (;;) {
      pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {interruptFd(), POLLIN, 0}};
      int n = ::poll(fds, interruptFd() >= 0 ? 2 : 1, -1);
      if (n < 0 && errno != EINTR) break;
      rt::poll();                                                 // (throws when interrupted)
      if (n > 0 && (fds[1].revents & POLLIN)) consumeInterrupt(); // (a stale wake-up)
      if (n <= 0 || !(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      break;
    }
    if (pos > 0) {
      buf.erase(0, pos);
      pos = 0;
    }
    size_t old = buf.size();
    buf.resize(old + 65536);
    ssize_t r;
    do
      r = ::read(STDIN_FILENO, buf.data() + old, 65536);
    while (r < 0 && errno == EINTR);
    if (r < 0) {
      buf.resize(old);
      fail(fmt::format("cannot read standard input: {}", std::strerror(errno)).c_str(), span);
    }
    buf.resize(old + size_t(r));
    if (r == 0) eof = true;
    return r > 0;
  }
};
Stdin gStdin;

V getLineRun(rt::Closure* self, const V*) {
  Stdin& in = gStdin;
  size_t scanned = in.pos;
  for (;;) {
    size_t nl = in.buf.find('\n', scanned);
    if (nl != std::string::npos) {
      V line = ofStr(std::string_view(in.buf).substr(in.pos, nl - in.pos));
      in.pos = nl + 1;
      return line;
    }
    scanned = in.buf.size() - in.pos; // (relative: fill moves the rest to the front)
    if (!in.fill(actionSpan(self))) {
      V line = ofStr(std::string_view(in.buf).substr(in.pos));
      in.pos = in.buf.size();
      return line;
    }
    scanned += in.pos;
  }
}

V isEOFRun(rt::Closure* self, const V*) {
  Stdin& in = gStdin;
  return ofBool(in.pos == in.buf.size() && !in.fill(actionSpan(self)));
}

V getContentsRun(rt::Closure* self, const V*) {
  Stdin& in = gStdin;
  while (in.fill(actionSpan(self))) {
  }
  V all = ofStr(std::string_view(in.buf).substr(in.pos));
  in.buf.clear();
  in.pos = 0;
  return all;
}

// Standard output and error ----------------------------------------------
V putStrRun(rt::Closure* self, const V*) {
  outWrite(toStr(actionArg(self, 0)));
  return kUnit;
}
V putStrLnRun(rt::Closure* self, const V*) {
  outWrite(toStr(actionArg(self, 0)));
  outWrite("\n");
  return kUnit;
}
V ePutStrRun(rt::Closure* self, const V*) {
  errWrite(toStr(actionArg(self, 0)));
  return kUnit;
}
V ePutStrLnRun(rt::Closure* self, const V*) {
  errWrite(std::string(toStr(actionArg(self, 0))) + "\n");
  return kUnit;
}

// Files ---------------------------------------------------------------------
V readFileRun(rt::Closure* self, const V*) {
  V p = actionArg(self, 0);
  uint32_t span = actionSpan(self);
  std::string path = pathOf(p, "read", span);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) failIO("read", p, span);
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    failIO("read", p, span);
  }
  // A regular file's size is known: read it straight into the string.
  if (S_ISREG(st.st_mode) && st.st_size > 0 && uint64_t(st.st_size) < UINT32_MAX) {
    size_t size = size_t(st.st_size);
    StrObj* s = mkStr(size, size);
    size_t got = 0;
    while (got < size) {
      ssize_t r = ::read(fd, s->data + got, size - got);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) failIO("read", p, span);
      if (r == 0) break; // (it shrank meanwhile)
      got += size_t(r);
    }
    s->n = uint32_t(got);
    return ofObj(s);
  }
  std::string data;
  char chunk[65536];
  for (;;) {
    ssize_t r = ::read(fd, chunk, sizeof chunk);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) failIO("read", p, span);
    if (r == 0) break;
    data.append(chunk, size_t(r));
    rt::poll(); // (an endless device: Ctrl-C still works)
  }
  return ofStr(data);
}

V writeTo(rt::Closure* self, int flags) {
  V p = actionArg(self, 0);
  uint32_t span = actionSpan(self);
  std::string path = pathOf(p, "write", span);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0666);
  if (fd < 0) failIO("write", p, span);
  std::string_view s = toStr(actionArg(self, 1));
  while (!s.empty()) {
    ssize_t r = ::write(fd, s.data(), s.size());
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int e = errno;
      ::close(fd);
      errno = e;
      failIO("write", p, span);
    }
    s.remove_prefix(size_t(r));
  }
  if (::close(fd) < 0) failIO("write", p, span);
  return kUnit;
}
V writeFileRun(rt::Closure* self, const V*) { return writeTo(self, O_TRUNC); }
V appendFileRun(rt::Closure* self, const V*) { return writeTo(self, O_APPEND); }

V removeFileRun(rt::Closure* self, const V*) {
  V p = actionArg(self, 0);
  std::string path = pathOf(p, "remove", actionSpan(self));
  if (::unlink(path.c_str()) != 0) failIO("remove", p, actionSpan(self));
  return kUnit;
}

V fileExistsRun(rt::Closure* self, const V*) {
  std::string path(toStr(actionArg(self, 0)));
  struct stat st {};
  return ofBool(path.find('\0') == std::string::npos && ::stat(path.c_str(), &st) == 0 &&
                !S_ISDIR(st.st_mode));
}

V getEnvRun(rt::Closure* self, const V*) {
  std::string name(toStr(actionArg(self, 0)));
  const char* v = name.find('\0') == std::string::npos ? std::getenv(name.c_str()) : nullptr;
  return ofStr(v ? v : "");
}

V exitRun(rt::Closure* self, const V*) {
  V n = actionArg(self, 0);
  flushOutput();
  throw ProgramExit{isImm(n) && immVal(n) <= 255 ? int(immVal(n)) : 255};
}

V clockRun(rt::Closure*, const V*) {
  auto t = std::chrono::steady_clock::now().time_since_epoch();
  return ofF64(std::chrono::duration<double>(t).count());
}

// References: a one-field object updated in place. What is read out of one
// is shared (the reference still holds it: an array read out must not be
// updated in place).
V newRefRun(rt::Closure* self, const V*) {
  V r = mkCon(0, 1);
  static_cast<ConObj*>(obj(r))->fields[0] = share(actionArg(self, 0));
  return r;
}
V readRefRun(rt::Closure* self, const V*) {
  return share(static_cast<ConObj*>(obj(actionArg(self, 0)))->fields[0]);
}
V writeRefRun(rt::Closure* self, const V*) {
  static_cast<ConObj*>(obj(actionArg(self, 0)))->fields[0] = share(actionArg(self, 1));
  return kUnit;
}

// The primitives: each builds its action ------------------------------------
template <Code run> V action0(const V*, uint32_t span) { return mkAction(run, span, {}); }
template <Code run> V action1(const V* a, uint32_t span) { return mkAction(run, span, {a[0]}); }
template <Code run> V action2(const V* a, uint32_t span) {
  return mkAction(run, span, {a[0], a[1]});
}
// (Implicit type arguments come first, erased: skip them.)
template <Code run, uint32_t skip> V actionAfter(const V* a, uint32_t span) {
  return mkAction(run, span, {a[skip]});
}
V pure(const V* a, uint32_t) { return mkPure(a[1]); }       // {A} x
V bind(const V* a, uint32_t) { return mkBind(a[2], a[3]); } // {A B} m k
V writeRef(const V* a, uint32_t span) { return mkAction(writeRefRun, span, {a[1], a[2]}); }

} // namespace

void prims() {
  auto reg = [](ax a, PrimFn f) { registerPrim(id(a), f); };
  reg(ax::pure, pure);
  reg(ax::bind, bind);
  reg(ax::putStr, action1<putStrRun>);
  reg(ax::putStrLn, action1<putStrLnRun>);
  reg(ax::ePutStr, action1<ePutStrRun>);
  reg(ax::ePutStrLn, action1<ePutStrLnRun>);
  reg(ax::getLine, action0<getLineRun>);
  reg(ax::isEOF, action0<isEOFRun>);
  reg(ax::getContents, action0<getContentsRun>);
  reg(ax::readFile, action1<readFileRun>);
  reg(ax::writeFile, action2<writeFileRun>);
  reg(ax::appendFile, action2<appendFileRun>);
  reg(ax::removeFile, action1<removeFileRun>);
  reg(ax::fileExists, action1<fileExistsRun>);
  reg(ax::getEnv, action1<getEnvRun>);
  reg(ax::exit, actionAfter<exitRun, 1>);
  reg(ax::clock, action0<clockRun>);
  reg(ax::newRef, actionAfter<newRefRun, 1>);
  reg(ax::readRef, actionAfter<readRefRun, 1>);
  reg(ax::writeRef, writeRef);
}

} // namespace thorin::plug::io
