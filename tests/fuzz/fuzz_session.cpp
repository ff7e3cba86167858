#include "fuzz_session.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "core/guard.hpp"
#include "core/session.hpp"
#include "plugins/loader.hpp"
#include "runtime/engine.hpp"

namespace thorin::fuzz {

// `.plugin NAME` as `thorin` loads plugins (repl/main.cpp): the prelude's
// `.plugin core` finds the core plugin in the build tree.
static plugins::Loader gLoader;

void startUp() {}

namespace {

std::string inputPath() {
  static const std::string path = [] {
    std::string dir = "/tmp/thorin-fuzz-" + std::to_string(getpid());
    ::mkdir(dir.c_str(), 0700);
    return dir + "/input.thorin";
  }();
  return path;
}

struct Load {
  const std::string* path;
  rt::Runtime* runtime;
  bool ok = false;
};

int loadOnLargeStack(void* p) {
  auto& l = *static_cast<Load*>(p);
  std::ostream null(nullptr); // output is discarded (a stream without buffer writes nothing)
  Options opts;
  opts.trackDependencies = false;
  opts.runner = l.runtime;
  opts.plugins = &gLoader;
  Session s(null, null, opts);
  l.ok = s.load({*l.path});
  return 0;
}

// Interrupts a load that runs longer than its time, as Ctrl-C would.
class Watchdog {
public:
  explicit Watchdog(double seconds) : thread_([this, seconds] {
    std::unique_lock lock(m_);
    if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; }))
      signalInterrupt();
  }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(m_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
    clearInterrupt();
  }

private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

} // namespace

bool loadInput(const uint8_t* data, size_t size, rt::Runtime* runtime, double seconds) {
  const std::string& path = inputPath();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  Load l{&path, runtime};
  clearInterrupt();
  Watchdog w(seconds);
  runWithLargeStack(defaultStackBytes(), loadOnLargeStack, &l);
  return l.ok;
}

} // namespace thorin::fuzz
