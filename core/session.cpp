#include "session.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#ifndef THORIN_PRELUDE_DIR
#define THORIN_PRELUDE_DIR "prelude"
#endif

namespace thorin {

namespace fs = std::filesystem;

std::string preludeDir() {
  if (const char* p = std::getenv("THORIN_PRELUDE_DIR")) return p;
  // An installed thorin: <prefix>/bin/thorin and <prefix>/share/thorin/prelude.
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  fs::path installed = exe.parent_path().parent_path() / "share" / "thorin" / "prelude";
  if (!ec && fs::exists(installed / "prelude.thorin", ec)) return installed.string();
  return THORIN_PRELUDE_DIR;
}

Session::Session(std::ostream& out, std::ostream& err, Options o) : opts(o), out_(out), err_(err) {
  world_ = std::make_unique<World>();
  top_ = std::make_unique<TopLevel>(*world_, out_, err_, opts);
  if (opts.prelude)
    loadPrelude(*top_);
  else
    world_->markPrelude();
}

Session::~Session() = default;

bool Session::loadPrelude(TopLevel& tl) {
  std::error_code ec;
  std::vector<std::string> files;
  bool ok = true;
  for (auto& e : fs::directory_iterator(preludeDir(), ec))
    if (e.path().extension() == ".thorin") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (auto& f : files)
    if (ok && !tl.loadFile(f, {}, true)) ok = false;
  tl.world().markPrelude();
  return ok;
}

size_t Session::usedBytes() const {
  size_t n = world_->perm.used();
  for (auto& s : world_->sources)
    n += s->text.size();
  if (opts.runner) n += opts.runner->bytesUsed(*world_); // (each run of main adds to it)
  return n;
}

bool Session::load(const std::vector<std::string>& files) {
  world_->scratch.clear(0); // the old world's values are not needed any more
  files_ = files;           // the target of `:r`, even if this load fails
  if (pristine_) {
    // Nothing but the prelude yet: load into this world (all or nothing).
    if (!top_->load(files)) return false;
    pristine_ = false;
    liveBytes_ = usedBytes();
    return true;
  }
  auto w = std::make_unique<World>();
  auto tl = std::make_unique<TopLevel>(*w, out_, err_, opts);
  if (opts.prelude && !loadPrelude(*tl)) return false;
  if (!opts.prelude) w->markPrelude();
  if (!tl->load(files)) return false;
  top_ = std::move(tl);
  world_ = std::move(w);
  liveBytes_ = usedBytes();
  return true;
}

ReloadReport Session::reload(bool full) {
  // What the files print comes after the summary line: collect it.
  std::ostringstream buf;
  out_.flush(); // (errors go straight to err_: what came before must be out first)
  auto* saved = out_.rdbuf(buf.rdbuf());
  struct Restore {
    std::ostream& o;
    std::streambuf* b;
    ~Restore() { o.rdbuf(b); }
  } restore{out_, saved};
  ReloadReport rep;
  full = full || pristine_ || top_->records().empty() ||
         usedBytes() > liveBytes_ + liveBytes_ / 2 + (512 << 10);
  if (full) {
    Timer t;
    rep.full = true;
    rep.ok = load(files_);
    rep.seconds = t.seconds();
    if (rep.ok)
      for (auto& f : top_->records())
        rep.total += f.entries.size();
    rep.rechecked = rep.total;
  } else {
    world_->scratch.clear(0);
    rep = top_->reload(files_);
  }
  rep.output = buf.str();
  return rep;
}

} // namespace thorin
