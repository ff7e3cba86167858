#include "loader.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <map>

#include "core/diagnostic.hpp"
#include "runtime/primitive.hpp"

#ifndef THORIN_BUILD_PLUGIN_DIR
#define THORIN_BUILD_PLUGIN_DIR ""
#endif

namespace thorin {

namespace fs = std::filesystem;

static std::vector<PluginEntry>& staticPlugins() {
  static std::vector<PluginEntry> v;
  return v;
}

StaticPlugin::StaticPlugin(PluginEntry entry) { staticPlugins().push_back(entry); }

namespace plugins {
namespace {

[[noreturn]] void refuse(std::string message, std::vector<std::string> notes = {}) {
  throw Error(Diagnostic{Span{}, std::move(message), std::move(notes)});
}

// [a-z][a-z0-9_]* (a std::regex cost 0.4 M instructions of every start).
bool isPluginName(std::string_view s) {
  if (s.empty() || s[0] < 'a' || s[0] > 'z') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

fs::path executableDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

const PluginDescriptor* staticDescriptor(std::string_view name) {
  for (PluginEntry e : staticPlugins())
    if (const PluginDescriptor* d = e(); d && d->name == name) return d;
  return nullptr;
}

void check(const PluginDescriptor* d, const std::string& name, const fs::path& dir);

// The descriptor in dir's libthorin_NAME.so, checked, or nullptr if the
// plugin has no library (a plugin of declarations only). A library that is
// refused is unloaded again (a rebuilt one at the same path loads next time).
const PluginDescriptor* libraryDescriptor(const fs::path& dir, const std::string& name) {
  fs::path lib = dir / ("libthorin_" + name + ".so");
  if (!fs::exists(lib)) return nullptr;
  void* h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) refuse(fmt::format("cannot load the library of the plugin '{}': {}", name, dlerror()));
  struct Close {
    void* h;
    ~Close() {
      if (h) dlclose(h);
    }
  } close{h};
  std::string entry = "thorin_plugin_" + name;
  auto get = reinterpret_cast<PluginEntry>(dlsym(h, entry.c_str()));
  if (!get)
    refuse(fmt::format("the library '{}' has no plugin descriptor", lib.string()),
           {fmt::format("a plugin's library exports `{}()`, which thorin_add_plugin({}) in its "
                        "CMakeLists.txt generates",
                        entry, name)});
  const PluginDescriptor* d = get();
  check(d, name, dir);
  // Accepted: its symbols become global, so that the plugin's LLVM half,
  // loaded later by the LLVM tier, finds its axiom ids (plug::NAME::gIds).
  dlopen(lib.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
  return d; // (the handle stays open: Close only drops the first reference)
}

void check(const PluginDescriptor* d, const std::string& name, const fs::path& dir) {
  if (d->abi != THORIN_PLUGIN_ABI)
    refuse(fmt::format("the plugin '{}' was built for plugin ABI {}, but this thorin has ABI {}",
                       name, d->abi, THORIN_PLUGIN_ABI),
           {fmt::format("rebuild the plugin in '{}' against this thorin's headers", dir.string())});
  if (d->name != name)
    refuse(fmt::format("the library in '{}' is the plugin '{}', not '{}'", dir.string(), d->name,
                       name));
}

// Binds the descriptor's axioms to ids and runs its callbacks.
std::vector<AxiomId> registerCode(const PluginDescriptor* d, const fs::path& dir) {
  AxiomTable& table = AxiomTable::get();
  std::vector<AxiomId> ids;
  for (uint32_t i = 0; i < d->numAxioms; ++i)
    ids.push_back(d->ids[i] = table.intern(d->axioms[i], d->name));
  for (void (*cb)() : {d->normalizers, d->prims, d->baseline})
    if (cb) cb();
  rt::notePluginCode(d->name, d->llvmLibrary ? (dir / d->llvmLibrary).string() : "");
  return ids;
}

} // namespace

std::vector<std::string> searchPath() {
  std::vector<std::string> path;
  if (const char* env = std::getenv("THORIN_PLUGIN_PATH")) {
    std::string s = env;
    for (size_t b = 0, e; b <= s.size(); b = e + 1) {
      e = s.find(':', b);
      if (e == s.npos) e = s.size();
      if (e > b) path.push_back(s.substr(b, e - b));
    }
  }
  std::error_code ec;
  if (fs::path exe = executableDir(); !exe.empty())
    if (fs::path p = exe.parent_path() / "lib" / "thorin" / "plugins"; fs::is_directory(p, ec))
      path.push_back(p.string());
  if (*THORIN_BUILD_PLUGIN_DIR && fs::is_directory(THORIN_BUILD_PLUGIN_DIR, ec))
    path.push_back(THORIN_BUILD_PLUGIN_DIR);
  return path;
}

PluginLoad Loader::load(std::string_view nameView) {
  std::string name(nameView);
  static std::map<std::string, PluginLoad, std::less<>> loaded; // (per process)
  if (auto it = loaded.find(name); it != loaded.end()) return it->second;
  if (!isPluginName(name))
    refuse(fmt::format("'{}' is not a plugin's name", name),
           {"plugin names are lower-case letters, digits and _"});
  std::vector<std::string> path = searchPath();
  fs::path dir;
  for (const std::string& d : path)
    if (fs::exists(fs::path(d) / name / (name + ".thorin"))) {
      dir = fs::path(d) / name;
      break;
    }
  if (dir.empty()) {
    std::string where;
    for (const std::string& d : path)
      where += (where.empty() ? "" : ", ") + d;
    refuse(fmt::format("no plugin '{}' on the plugin path", name),
           {fmt::format("looked for {}/{}.thorin in: {}", name, name,
                        where.empty() ? "(nothing)" : where),
            "THORIN_PLUGIN_PATH adds directories (separated by ':') to look in"});
  }
  const PluginDescriptor* d = staticDescriptor(name);
  if (d)
    check(d, name, dir);
  else
    d = libraryDescriptor(dir, name);
  PluginLoad result{(dir / (name + ".thorin")).string(), {}};
  if (d) result.axioms = registerCode(d, dir);
  return loaded.emplace(name, std::move(result)).first->second;
}

} // namespace plugins
} // namespace thorin
