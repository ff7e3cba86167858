// Finding and registering plugins: `.plugin NAME` (core's PluginHost). A
// plugin is a folder NAME/ holding NAME.thorin and, if it has code,
// libthorin_NAME.so (or it is linked into the executable: StaticPlugin). The
// folder is looked for on the plugin path; the library's descriptor
// (plugins/plugin.hpp) is checked and its callbacks run once per process.
#pragma once
#include <string>
#include <vector>

#include "core/runner.hpp"
#include "plugin.hpp"

namespace thorin {

/// A plugin linked into the executable: its generated descriptor file
/// makes one at start-up (it is then found without a library).
struct StaticPlugin {
  explicit StaticPlugin(PluginEntry entry);
};

namespace plugins {

/// Where `.plugin NAME` looks for NAME/NAME.thorin, in order:
/// THORIN_PLUGIN_PATH (directories separated by ':'), the installation's
/// lib/thorin/plugins (next to the executable's bin/), the build tree's
/// (these two if they exist).
std::vector<std::string> searchPath();

class Loader : public PluginHost {
public:
  PluginLoad load(std::string_view name) override;
};

} // namespace plugins
} // namespace thorin
