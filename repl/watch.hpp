// Watching source files for changes (inotify), for `thorin run --watch` and
// the REPL's `:watch`.
#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace thorin {

/// Watches a set of files through their directories, so that editors that
/// save by writing a new file and renaming it over the old one are followed,
/// and a file that is deleted and created again is noticed. A thread reads
/// the events: it makes `wakeFd()` readable when a watched file changed, and
/// interrupts the program being run (see `busy`) so that the reload is not
/// held up by it.
class FileWatcher {
public:
  FileWatcher();
  ~FileWatcher();
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  /// Whether inotify works here (the error is in `error()` otherwise).
  bool ok() const { return inotify_ >= 0; }
  const std::string& error() const { return error_; }
  /// Watches exactly these files from now on: each by its name (watchPath),
  /// and, when it is a symlink, what it points to now, reported by its name.
  void watch(const std::vector<std::string>& files);
  /// Readable while a change is pending.
  int wakeFd() const { return wake_[0]; }
  /// Waits for a change, then until the files have been quiet for a moment
  /// (an editor's save is a burst of events). Returns the changed files
  /// (names relative to the current directory where possible), or nothing
  /// once `quit` is set (by the Ctrl-C handler).
  std::vector<std::string> wait(const std::atomic<bool>& quit);
  /// If a change is pending, waits for it to settle and returns it (without
  /// blocking otherwise).
  std::vector<std::string> poll();
  /// Set while a program runs: a change then interrupts it.
  std::function<bool()> busy;

private:
  void loop();
  std::vector<std::string> settle();
  int inotify_ = -1;
  int wake_[2] = {-1, -1}; // self-pipe: the thread writes, wait() reads
  int stop_[2] = {-1, -1};
  std::string error_;
  std::thread thread_;
  std::mutex mu_;
  std::multimap<std::string, std::string> files_; // watched path → the file to report
  std::vector<std::pair<int, std::string>> dirs_; // watch descriptor → directory
  std::set<std::string> changed_;                 // changed since the last wait()
  std::atomic<int64_t> lastEventMs_{0};
};

} // namespace thorin
