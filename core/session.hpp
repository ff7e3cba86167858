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
  bool reload() { return load(files_); }
  const std::vector<std::string>& files() const { return files_; }

private:
  bool loadPrelude(TopLevel& tl);
  std::ostream& out_;
  std::ostream& err_;
  std::unique_ptr<World> world_;
  std::unique_ptr<TopLevel> top_;
  std::vector<std::string> files_;
  bool pristine_ = true; // the world holds only the prelude
};

/// Directory of the prelude (THORIN_PRELUDE_DIR overrides the built-in path).
std::string preludeDir();

} // namespace thorin
