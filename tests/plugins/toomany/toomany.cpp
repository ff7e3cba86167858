// A plugin whose axiom takes 9 arguments and has a run-time primitive
// (hand-written descriptor, as the generated one would be).
#include "plugins/plugin.hpp"
#include "runtime/primitive.hpp"

namespace {
const char* const kNames[] = {"%toomany.f"};
thorin::AxiomId gIds[1];
thorin::rt::V first(const thorin::rt::V* args, uint32_t) { return args[0]; }
void prims() { thorin::rt::registerPrim(gIds[0], first); }
const thorin::PluginDescriptor kToomany = {THORIN_PLUGIN_ABI, "toomany", kNames,  1,      gIds,
                                           nullptr,           &prims,    nullptr, nullptr};
} // namespace

extern "C" THORIN_PLUGIN_EXPORT const thorin::PluginDescriptor* thorin_plugin_toomany() {
  return &kToomany;
}
