#include "watch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/select.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "core/guard.hpp"
#include "core/toplevel.hpp"

namespace thorin {

namespace fs = std::filesystem;

static int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// What an editor's save can look like: a write in place, a new file renamed
// over the old one, a delete and a create.
static constexpr uint32_t kEvents =
    IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE;

FileWatcher::FileWatcher() {
  inotify_ = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (inotify_ < 0) {
    error_ = std::strerror(errno);
    return;
  }
  if (pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0 || pipe2(stop_, O_CLOEXEC | O_NONBLOCK) != 0) {
    error_ = std::strerror(errno);
    close(inotify_);
    inotify_ = -1;
    return;
  }
  // Ctrl-C is for the main thread (its handler and its pselect).
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  thread_ = std::thread([this] { loop(); });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

FileWatcher::~FileWatcher() {
  if (inotify_ < 0) return;
  char c = 0;
  (void)!write(stop_[1], &c, 1);
  thread_.join();
  for (int fd : {inotify_, wake_[0], wake_[1], stop_[0], stop_[1]})
    close(fd);
}

// One spelling per directory: the same directory named two ways ("." and
// its absolute path, as for a file that was missing at one reload and found
// at the next) is one inotify watch, which removing either name would drop.
// A file keeps its own name (watchPath): when it is a symlink, it is the link
// that an editor or `ln -sf` replaces, and the link is what was loaded.
static std::string canonicalDir(const fs::path& file) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(file.parent_path(), ec);
  return ec ? file.parent_path().lexically_normal().string() : p.string();
}

// What a symlink points to (itself otherwise), resolved now: an edit through
// the link changes the file as much as replacing the link does.
static std::string linkTarget(const std::string& file) {
  std::error_code ec;
  if (!fs::is_symlink(file, ec)) return file;
  fs::path t = fs::weakly_canonical(file, ec);
  return ec ? file : t.string();
}

void FileWatcher::watch(const std::vector<std::string>& files) {
  if (inotify_ < 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  files_.clear();
  std::set<std::string> want;
  for (auto& f : files) {
    std::string name = watchPath(f);
    // (Resolved at every call, after every reload: the link may point
    // elsewhere now, or be a regular file again.)
    std::string target = linkTarget(name);
    files_.emplace(name, name);
    want.insert(canonicalDir(name));
    if (target == name) continue;
    files_.emplace(target, name);
    want.insert(canonicalDir(target));
  }
  std::vector<std::pair<int, std::string>> keep;
  for (auto& [wd, dir] : dirs_)
    if (want.count(dir)) {
      keep.push_back({wd, dir});
      want.erase(dir);
    } else {
      inotify_rm_watch(inotify_, wd);
    }
  for (auto& dir : want) {
    int wd = inotify_add_watch(inotify_, dir.empty() ? "." : dir.c_str(), kEvents);
    if (wd >= 0) keep.push_back({wd, dir});
  }
  dirs_ = std::move(keep);
}

void FileWatcher::loop() {
  alignas(inotify_event) char buf[16 * 1024];
  while (true) {
    pollfd fds[2] = {{inotify_, POLLIN, 0}, {stop_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (fds[1].revents) return;
    if (!(fds[0].revents & POLLIN)) continue;
    ssize_t n = read(inotify_, buf, sizeof buf);
    if (n <= 0) continue;
    bool relevant = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (char* p = buf; p < buf + n;) {
        auto* ev = reinterpret_cast<inotify_event*>(p);
        p += sizeof(inotify_event) + ev->len;
        auto d =
            std::find_if(dirs_.begin(), dirs_.end(), [&](auto& e) { return e.first == ev->wd; });
        if (d == dirs_.end()) continue;
        if (ev->mask & IN_IGNORED) { // the directory is gone
          dirs_.erase(d);
          continue;
        }
        if (!ev->len) continue;
        std::string path = (fs::path(d->second) / ev->name).string();
        for (auto [f, end] = files_.equal_range(path); f != end; ++f) {
          changed_.insert(f->second); // (a link's target is reported as the link)
          relevant = true;
        }
      }
    }
    if (!relevant) continue;
    lastEventMs_ = nowMs();
    char c = 1;
    (void)!write(wake_[1], &c, 1);
    // A running program would hold up the reload: stop it.
    if (busy && busy()) signalInterrupt();
  }
}

// Waits until no event has come for a moment, then takes the changes.
std::vector<std::string> FileWatcher::settle() {
  const int64_t quietMs = 20, maxMs = 1000; // (an editor's save takes well under 20 ms)
  int64_t start = nowMs();
  while (nowMs() - lastEventMs_ < quietMs && nowMs() - start < maxMs)
    usleep(5000);
  char buf[256];
  while (read(wake_[0], buf, sizeof buf) > 0) {
  }
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  for (auto& f : changed_) {
    fs::path rel = fs::path(f).lexically_relative(cwd);
    out.push_back(!rel.empty() && *rel.begin() != ".." ? rel.string() : f);
  }
  changed_.clear();
  return out;
}

std::vector<std::string> FileWatcher::poll() {
  pollfd p{wake_[0], POLLIN, 0};
  if (inotify_ < 0 || ::poll(&p, 1, 0) <= 0) return {};
  return settle();
}

std::vector<std::string> FileWatcher::wait(const std::atomic<bool>& quit) {
  if (inotify_ < 0) return {};
  // SIGINT is unblocked only inside pselect, so a Ctrl-C cannot slip in
  // between the check of the flag and the wait.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  std::vector<std::string> out;
  while (true) {
    if (quit.load()) break;
    fd_set in;
    FD_ZERO(&in);
    FD_SET(wake_[0], &in);
    int r = pselect(wake_[0] + 1, &in, nullptr, nullptr, nullptr, &old);
    if (r > 0) {
      out = settle();
      if (!out.empty()) break;
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return out;
}

} // namespace thorin
