# `cmake --install build [--prefix P]`: the executable, the LLVM module, the
# prelude, the plugins, and what a plugin author builds against (headers and
# the CMake package `thorin`, whose thorin_add_plugin builds a plugin folder
# outside this tree). The executable finds the rest relative to itself.
include(GNUInstallDirs)
install(TARGETS thorin RUNTIME DESTINATION bin)
if(TARGET thorin_llvm)
  install(FILES $<TARGET_FILE:thorin_llvm> DESTINATION lib/thorin)
endif()
install(DIRECTORY prelude/ DESTINATION share/thorin/prelude FILES_MATCHING PATTERN "*.thorin")
install(DIRECTORY ${THORIN_PLUGIN_OUTPUT_DIR}/ DESTINATION lib/thorin/plugins
        FILES_MATCHING PATTERN "*.thorin" PATTERN "*.so")
# Headers: core/ and runtime/ whole (small), the tiers' lowering interfaces.
install(DIRECTORY core runtime DESTINATION include/thorin FILES_MATCHING PATTERN "*.hpp" PATTERN "*.inc")
install(FILES plugins/plugin.hpp DESTINATION include/thorin/plugins)
install(FILES jit/baseline/baseline_lowering.hpp DESTINATION include/thorin/jit/baseline)
install(FILES jit/llvm/plugin_lowering.h DESTINATION include/thorin/jit/llvm)
# The CMake package.
if(THORIN_STATIC_LIBS)
  set(THORIN_FMT_DEFINITIONS "FMT_HEADER_ONLY=1")
else()
  set(THORIN_FMT_DEFINITIONS "")
endif()
configure_file(cmake/thorinConfig.cmake.in ${PROJECT_BINARY_DIR}/thorinConfig.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/thorinConfig.cmake cmake/ThorinPlugin.cmake cmake/thorin_plugin.py
        DESTINATION lib/cmake/thorin)
