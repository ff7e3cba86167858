// Loads the LLVM tier (libthorin_llvm.so) on the first compilation: libLLVM
// is large, and most runs — `thorin check`, short scripts — never compile.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <system_error>
#include <thread>

#include "llvm_loader.hpp"

#ifndef THORIN_JIT_LIB
#define THORIN_JIT_LIB ""
#endif

namespace thorin::rt {
namespace {

class LazyLlvmTier : public Tier {
public:
  explicit LazyLlvmTier(const JitOptions& o) : opts_(o) {}
  ~LazyLlvmTier() override {
    if (warm_.joinable()) warm_.join();
  }
  void prepare(const std::atomic<bool>*) override {
    if (!tried_ && !warm_.joinable()) try {
        warm_ = std::thread([this] {
          if (load()) real_->prepare(&wanted_);
          ready_ = true;
          // Baseline code may be waiting for LLVM, and run on without calling
          // back into the runtime: have it ask again at its next poll.
          if (wanted_) requestSafepoint();
        });
      } catch (std::system_error&) { // (no thread: LLVM loads when first needed)
      }
  }
  void preload() override {
    wanted_ = true; // (the warm-up compilation is skipped)
    prepare(nullptr);
  }
  // While LLVM is still loading, the function stays interpreted and is
  // asked for again at a later call (the warm-up is skipped meanwhile).
  bool startCompile(Runtime& rt, TopId id, bool& failed, std::atomic<void*>* slot) override {
    failed = false;
    if (warm_.joinable() && !ready_) {
      wanted_ = true;
      return false;
    }
    if (!warm_.joinable() && !tried_) { // (no prepare() before: start LLVM now)
      wanted_ = true;
      prepare(nullptr);
      return false;
    }
    if (warm_.joinable()) warm_.join();
    if (!load()) {
      failed = true;
      rt.err << fmt::format("warning: the JIT is unavailable ({}); {} stays interpreted\n", error_,
                            rt.nameOf(id));
      return false;
    }
    compiledAny_ = true;
    return real_->startCompile(rt, id, failed, slot);
  }
  bool anyFinished() const override { return compiledAny_ && real_->anyFinished(); }
  void settle(Runtime& rt, bool wait, const std::function<void(TopId, Code)>& installed) override {
    if (real_ && compiledAny_) real_->settle(rt, wait, installed);
  }
  Code compile(Runtime& rt, TopId id) override {
    wanted_ = true;
    if (warm_.joinable()) warm_.join();
    if (!load()) {
      rt.err << fmt::format("warning: the JIT is unavailable ({}); {} stays interpreted\n", error_,
                            rt.nameOf(id));
      return nullptr;
    }
    compiledAny_ = true;
    return real_->compile(rt, id);
  }
  // Nothing compiled yet: nothing to remove, and no reason to wait for the
  // warm-up (a script that compiles nothing must not wait for LLVM).
  void remove(Runtime& rt, const std::vector<TopId>& ids) override {
    if (ids.empty() || !compiledAny_) return;
    if (warm_.joinable()) warm_.join();
    if (real_) real_->remove(rt, ids);
  }
  const ETm* lambdaOf(Code c) override {
    return compiledAny_ && real_ ? real_->lambdaOf(c) : nullptr;
  }
  std::string ir(TopId id) override {
    if (!compiledAny_) return "";
    if (warm_.joinable()) warm_.join();
    return real_ ? real_->ir(id) : "";
  }

private:
  bool load() {
    if (real_) return true;
    if (tried_) return false;
    tried_ = true;
    // THORIN_JIT_LIB, else next to the executable or in ../lib/thorin/ (an
    // installed thorin), else where it was built.
    std::string path;
    if (const char* p = std::getenv("THORIN_JIT_LIB"); p && *p) {
      path = p;
    } else {
      std::error_code ec;
      auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
      path = THORIN_JIT_LIB;
      for (auto dir : {exe.parent_path(), exe.parent_path().parent_path() / "lib" / "thorin"})
        if (auto p = dir / "libthorin_llvm.so"; !ec && std::filesystem::exists(p, ec)) {
          path = p.string(); // (an installed thorin: <prefix>/lib/thorin/)
          break;
        }
    }
    if (path.empty()) {
      error_ = "this thorin was built without LLVM";
      return false;
    }
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL); // (plugins' LLVM halves link its C API)
    if (!h) {
      error_ = dlerror();
      return false;
    }
    using Make = Tier* (*)(const JitOptions*);
    auto make = reinterpret_cast<Make>(dlsym(h, "thorin_make_llvm_backend"));
    if (!make) {
      error_ = "libthorin_llvm.so has no entry point";
      return false;
    }
    real_.reset(make(&opts_));
    return true;
  }
  JitOptions opts_;
  std::unique_ptr<Tier> real_;
  bool tried_ = false;
  bool compiledAny_ = false; // (set on the calling thread only)
  std::string error_;
  std::thread warm_;                // prepare(): loads the module and starts LLVM
  std::atomic<bool> wanted_{false}; // a compilation waits for warm_
  std::atomic<bool> ready_{false};  // warm_ is done
};

} // namespace

std::unique_ptr<Tier> makeLlvmTier(const JitOptions& o) {
  if (o.mode == JitMode::Off || !o.llvm) return nullptr;
  return std::make_unique<LazyLlvmTier>(o);
}

} // namespace thorin::rt
