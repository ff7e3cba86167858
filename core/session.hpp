// A session: the current World plus the files it was loaded from. Loading or
// reloading builds a fresh World and replaces the old one only on success.
#pragma once
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "toplevel.hpp"

namespace thorin {

class Session {
public:
  Session(std::ostream& out, std::ostream& err, Options opts);
  ~Session();

  World& world() { return *world_; }
  /// Marks the world as changed by the user (then a load builds a new one).
  void touched() { pristine_ = false; }
  TopLevel& top() { return *top_; }
  Options opts;

  /// Replaces the world by prelude + `files`; on failure keeps the old one.
  bool load(const std::vector<std::string>& files);
  /// Loads the files of the last load again, incrementally (TopLevel::reload),
  /// or into a fresh world when `full`, when there is nothing to build on, or
  /// when what reloads replaced takes as much memory as what is live. What
  /// the files print goes into the report, to be shown after its summary.
  ReloadReport reload(bool full = false);
  const std::vector<std::string>& files() const { return files_; }
  /// The files to watch for changes (canonical paths).
  std::vector<std::string> watchedFiles() const { return top_->watchedFiles(); }

private:
  bool loadPrelude(TopLevel& tl);
  std::ostream& out_;
  std::ostream& err_;
  std::unique_ptr<World> world_;
  std::unique_ptr<TopLevel> top_;
  std::vector<std::string> files_;
  bool pristine_ = true; // the world holds only the prelude
  size_t liveBytes_ = 0; // memory of the world after its last full load
  size_t usedBytes() const;
};

/// Directory of the prelude (THORIN_PRELUDE_DIR overrides the built-in path).
std::string preludeDir();

} // namespace thorin
