// A descriptor from an older thorin: ABI 0.
#include "plugins/plugin.hpp"

namespace {
const thorin::PluginDescriptor kOld = {0,       "oldabi", nullptr, 0,      nullptr,
                                       nullptr, nullptr,  nullptr, nullptr};
}

extern "C" THORIN_PLUGIN_EXPORT const thorin::PluginDescriptor* thorin_plugin_oldabi() {
  return &kOld;
}
