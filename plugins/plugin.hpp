// The plugin interface (MimIR's `mim_get_plugin()` in miniature). A plugin is
// a folder: NAME.thorin declares its axioms (`.ax %NAME.x : T`), and its C++
// binds code to them by id — normalizers.cpp (elaboration), prims.cpp (the
// runtime), baseline.cpp and llvm.cpp (the tiers), whichever it needs. The
// build (cmake/ThorinPlugin.cmake, `thorin_add_plugin(NAME)`) generates
// NAME_axioms.hpp from NAME.thorin (`thorin::plug::NAME::id(ax::x)`: no axiom
// is spelled as a string in C++) and the one descriptor the library exports,
// `thorin_plugin_NAME()`. `.plugin NAME` (plugins/loader.hpp) finds the
// folder on the plugin path, checks the descriptor and runs its callbacks
// once per process, then elaborates NAME.thorin into the world.
#pragma once
#include <cstdint>

#include "core/axiom.hpp"

/// Bumped whenever the descriptor or the registration functions a plugin
/// calls change: a library built for another ABI is refused.
#define THORIN_PLUGIN_ABI 1

#define THORIN_PLUGIN_EXPORT __attribute__((visibility("default")))

namespace thorin {

struct PluginDescriptor {
  uint32_t abi;              // THORIN_PLUGIN_ABI when the plugin was built
  const char* name;          // NAME: its axioms are `%NAME.x`
  const char* const* axioms; // their names, in declaration order (generated)
  uint32_t numAxioms;
  AxiomId* ids; // filled before the callbacks run: ids[i] is axioms[i]'s id
  // Callbacks, each null if the plugin has no such file. They bind code to
  // ids through the layers' tables: AxiomTable (core/axiom.hpp: normalizer,
  // operator, algebraic facts, builtin roles), registerPrim
  // (runtime/primitive.hpp), registerBaselineLowering
  // (jit/baseline/baseline_lowering.hpp).
  void (*normalizers)();
  void (*prims)();
  void (*baseline)();
  // The LLVM half, a library of its own loaded by the LLVM tier into its
  // address space (jit/llvm/plugin_lowering.h: LLVM's C API), or null.
  const char* llvmLibrary;
};

/// The descriptor's exported name: `thorin_plugin_` + NAME.
using PluginEntry = const PluginDescriptor* (*)();

} // namespace thorin
