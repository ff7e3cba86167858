# thorin_add_plugin(NAME [STATIC]) — the one line of a plugin folder's
# CMakeLists.txt. The folder holds NAME.thorin and whichever of
# normalizers.cpp, prims.cpp, baseline.cpp and llvm.cpp it needs. Builds:
#   libthorin_NAME.so       (normalizers, prims, baseline and the generated
#                            descriptor; its undefined symbols resolve against
#                            the thorin executable when `.plugin NAME` loads it)
#   libthorin_NAME_llvm.so  (llvm.cpp, through LLVM's C API: loaded by the LLVM
#                            tier, whose module exports that API)
# into THORIN_PLUGIN_OUTPUT_DIR/NAME/, next to a copy of NAME.thorin, so that
# that directory is a plugin folder thorin finds (THORIN_PLUGIN_PATH).
# STATIC (in thorin's own tree only): the plugin is linked into the
# executable instead, and its llvm.cpp into the LLVM module.
# Inside thorin's tree the targets thorin_plugin_api and thorin_llvm exist;
# outside it, find_package(thorin) provides thorin::plugin_api (this file).
set(THORIN_PLUGIN_GENERATOR ${CMAKE_CURRENT_LIST_DIR}/thorin_plugin.py)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

function(thorin_add_plugin name)
  cmake_parse_arguments(ARG "STATIC" "" "" ${ARGN})
  set(src ${CMAKE_CURRENT_SOURCE_DIR})
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/gen)
  if(NOT THORIN_PLUGIN_OUTPUT_DIR)
    set(THORIN_PLUGIN_OUTPUT_DIR ${CMAKE_BINARY_DIR}/plugins)
  endif()
  set(out ${THORIN_PLUGIN_OUTPUT_DIR}/${name})
  if(TARGET thorin_plugin_api)
    set(api thorin_plugin_api)
  else()
    set(api thorin::plugin_api)
  endif()
  set(flags)
  set(sources)
  foreach(part normalizers prims baseline)
    if(EXISTS ${src}/${part}.cpp)
      list(APPEND flags --${part})
      list(APPEND sources ${src}/${part}.cpp)
    endif()
  endforeach()
  set(generated ${gen}/${name}_axioms.hpp ${gen}/${name}_descriptor.cpp)
  if(EXISTS ${src}/llvm.cpp)
    list(APPEND flags --llvm)
  endif()
  if(ARG_STATIC)
    list(APPEND flags --static)
    if(EXISTS ${src}/llvm.cpp)
      list(APPEND generated ${gen}/${name}_llvm_entry.cpp)
    endif()
  endif()
  file(MAKE_DIRECTORY ${gen} ${out})
  add_custom_command(OUTPUT ${generated}
    COMMAND ${Python3_EXECUTABLE} ${THORIN_PLUGIN_GENERATOR} ${name} ${src}/${name}.thorin ${gen} ${flags}
    DEPENDS ${src}/${name}.thorin ${THORIN_PLUGIN_GENERATOR}
    COMMENT "Generating the axiom ids of the plugin ${name}")
  add_custom_target(thorin_plugin_${name}_ids DEPENDS ${generated})
  add_custom_command(OUTPUT ${out}/${name}.thorin
    COMMAND ${CMAKE_COMMAND} -E copy ${src}/${name}.thorin ${out}/${name}.thorin
    DEPENDS ${src}/${name}.thorin)
  set(lib thorin_plugin_${name})
  if(ARG_STATIC)
    add_library(${lib} OBJECT ${sources} ${gen}/${name}_descriptor.cpp ${out}/${name}.thorin)
    target_link_libraries(${lib} PUBLIC ${api})
  else()
    add_library(${lib} MODULE ${sources} ${gen}/${name}_descriptor.cpp ${out}/${name}.thorin)
    target_link_libraries(${lib} PRIVATE ${api})
    set_target_properties(${lib} PROPERTIES OUTPUT_NAME thorin_${name} PREFIX lib
      LIBRARY_OUTPUT_DIRECTORY ${out} CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  endif()
  target_include_directories(${lib} PUBLIC ${gen})
  set_target_properties(${lib} PROPERTIES CXX_EXTENSIONS OFF) # (no `unix`/`linux` macros)
  if(EXISTS ${src}/llvm.cpp)
    if(ARG_STATIC)
      if(TARGET thorin_llvm) # (not with -DTHORIN_JIT=OFF)
        target_sources(thorin_llvm PRIVATE ${src}/llvm.cpp ${gen}/${name}_llvm_entry.cpp)
        target_include_directories(thorin_llvm PRIVATE ${gen})
        add_dependencies(thorin_llvm thorin_plugin_${name}_ids)
      endif()
    elseif(THORIN_LLVM_INCLUDE_DIR)
      add_library(${lib}_llvm MODULE ${src}/llvm.cpp ${gen}/${name}_axioms.hpp)
      target_link_libraries(${lib}_llvm PRIVATE ${api})
      target_include_directories(${lib}_llvm PRIVATE ${gen} ${THORIN_LLVM_INCLUDE_DIR})
      set_target_properties(${lib}_llvm PROPERTIES OUTPUT_NAME thorin_${name}_llvm PREFIX lib CXX_EXTENSIONS OFF
        LIBRARY_OUTPUT_DIRECTORY ${out} CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
      add_dependencies(${lib}_llvm ${lib})
    endif()
  endif()
endfunction()
