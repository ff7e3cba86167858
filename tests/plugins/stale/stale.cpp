// A library built from an older stale.thorin (hand-written here: the
// generated descriptor lists the axioms of the file it was built from).
#include "plugins/plugin.hpp"

namespace {
const char* const kNames[] = {"%stale.here", "%stale.gone"};
thorin::AxiomId gIds[2];
const thorin::PluginDescriptor kStale = {THORIN_PLUGIN_ABI, "stale", kNames,  2,      gIds,
                                         nullptr,           nullptr, nullptr, nullptr};
} // namespace

extern "C" THORIN_PLUGIN_EXPORT const thorin::PluginDescriptor* thorin_plugin_stale() {
  return &kStale;
}
