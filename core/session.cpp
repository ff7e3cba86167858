#include "session.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#ifndef THORIN_PRELUDE_DIR
#define THORIN_PRELUDE_DIR "prelude"
#endif

namespace thorin {

namespace fs = std::filesystem;

#ifndef THORIN_PLUGIN_DIR
#define THORIN_PLUGIN_DIR "plugins"
#endif

std::string pluginDir() {
  if (const char* p = std::getenv("THORIN_PLUGIN_DIR")) return p;
  return THORIN_PLUGIN_DIR;
}

std::string preludeDir() {
  if (const char* p = std::getenv("THORIN_PRELUDE_DIR")) return p;
  return THORIN_PRELUDE_DIR;
}

Session::Session(std::ostream& out, std::ostream& err, Options o) : opts(o), out_(out), err_(err) {
  world_ = std::make_unique<World>();
  top_ = std::make_unique<TopLevel>(*world_, out_, err_, opts);
  if (opts.prelude) loadPrelude(*top_);
}

Session::~Session() = default;

bool Session::loadPrelude(TopLevel& tl) {
  std::error_code ec;
  std::vector<std::string> files;
  if (!tl.loadPlugin(pluginDir(), "core")) return false;
  for (auto& e : fs::directory_iterator(preludeDir(), ec))
    if (e.path().extension() == ".thorin") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (auto& f : files)
    if (!tl.loadFile(f, {}, true)) return false;
  tl.world().preludeMetas = tl.world().metas.size();
  return true;
}

bool Session::load(const std::vector<std::string>& files) {
  world_->scratch.clear(0); // the old world's values are not needed any more
  files_ = files;           // the target of `:r`, even if this load fails
  if (pristine_) {
    // Nothing but the prelude yet: load into this world, roll back on failure.
    auto snap = world_->snapshot();
    for (auto& f : files)
      if (!top_->loadFile(f)) {
        world_->rollback(snap);
        return false;
      }
    pristine_ = false;
    return true;
  }
  auto w = std::make_unique<World>();
  auto tl = std::make_unique<TopLevel>(*w, out_, err_, opts);
  if (opts.prelude && !loadPrelude(*tl)) return false;
  for (auto& f : files)
    if (!tl->loadFile(f)) return false;
  top_ = std::move(tl);
  world_ = std::move(w);
  return true;
}

} // namespace thorin
