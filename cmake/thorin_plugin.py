#!/usr/bin/env python3
"""Generates a plugin's axiom ids and descriptor from its NAME.thorin.

  thorin_plugin.py NAME NAME.thorin OUT_DIR [--normalizers] [--prims] [--baseline]
                   [--llvm] [--static]

Writes OUT_DIR/NAME_axioms.hpp (enum `thorin::plug::NAME::ax`, one
enumerator per `.ax %NAME.x` in declaration order, and `id(ax)`, the axiom's
id in the axiom table) and OUT_DIR/NAME_descriptor.cpp (the exported
descriptor, `thorin_plugin_NAME()`, naming the callbacks of the files the
plugin has). With --static the descriptor registers itself with the
executable it is linked into (plugins/loader.hpp, StaticPlugin).
"""
import re
import sys

AX = re.compile(r"^\.ax\s+(%[^\s:]+)\s*:", re.M)
# C++ keywords an axiom may be named (`%core.true`): the enumerator gets a `_`.
KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char
char8_t char16_t char32_t class compl concept const consteval constexpr constinit const_cast
continue co_await co_return co_yield decltype default delete do double dynamic_cast else enum
explicit export extern false float for friend goto if inline int long mutable namespace new
noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast requires return short signed sizeof static static_assert static_cast struct
switch template this thread_local throw true try typedef typeid typename union unsigned using
virtual void volatile wchar_t while xor xor_eq""".split())


# Predefined in GNU modes (-std=gnu++20): `unix`, `linux`, `i386`.
MACROS = {"unix", "linux", "i386"}


def strip_block_comments(text):
    """The text with `{- … -}` comments (nested) blanked: a declaration
    commented out that way is not the library's."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("{-", i):
            depth, i = depth + 1, i + 2
        elif depth and text.startswith("-}", i):
            depth, i = depth - 1, i + 2
        else:
            out.append(text[i] if depth == 0 or text[i] == "\n" else " ")
            i += 1
    return "".join(out)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = {a[2:] for a in sys.argv[1:] if a.startswith("--")}
    name, thorin, out = args
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name in KEYWORDS or name in MACROS:
        sys.exit(f"{thorin}: a plugin's name is lower-case letters, digits and _, and no C++ "
                 f"keyword: '{name}'")
    text = strip_block_comments(open(thorin, encoding="utf-8").read())
    names, enums = [], []
    for m in AX.finditer(text):
        full = m.group(1)
        prefix = f"%{name}."
        if not full.startswith(prefix):
            continue  # (elaboration reports it, located)
        e = full[len(prefix):].replace(".", "_")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", e):
            sys.exit(f"{thorin}: the axiom '{full}' has no C++ name (letters, digits, _ and .)")
        e = e + "_" if e in KEYWORDS or e in MACROS else e
        if e in enums:
            sys.exit(f"{thorin}: the axioms '{names[enums.index(e)]}' and '{full}' have the same "
                     f"C++ name '{e}'")
        names.append(full)
        enums.append(e)
    n = len(names)
    hdr = f"""// Generated from {name}.thorin by cmake/thorin_plugin.py: do not edit.
#pragma once
#include "plugins/plugin.hpp"

namespace thorin::plug::{name} {{

/// The axioms of {name}.thorin, in declaration order.
enum class ax : uint32_t {{
{"".join(f"  {e},{chr(10)}" for e in enums)}}};
inline constexpr uint32_t kNumAxioms = {n};
/// Filled when the plugin registers (before its callbacks run).
THORIN_PLUGIN_EXPORT extern AxiomId gIds[kNumAxioms ? kNumAxioms : 1];
/// The id of an axiom of {name} in the axiom table.
inline AxiomId id(ax a) {{ return gIds[uint32_t(a)]; }}

}} // namespace thorin::plug::{name}
"""
    cb = {k: f"&{k}" if k in flags else "nullptr" for k in ("normalizers", "prims", "baseline")}
    decls = "".join(f"void {k}();\n" for k in ("normalizers", "prims", "baseline") if k in flags)
    llvm = f'"libthorin_{name}_llvm.so"' if "llvm" in flags and "static" not in flags else "nullptr"
    names_init = ", ".join(f'"{x}"' for x in names) or "nullptr"
    static = (f"""
namespace {{
thorin::StaticPlugin registration{{&thorin_plugin_{name}}};
}}
""" if "static" in flags else "")
    src = f"""// Generated from {name}.thorin by cmake/thorin_plugin.py: do not edit.
#include "{name}_axioms.hpp"
{'#include "plugins/loader.hpp"' if "static" in flags else ""}

namespace thorin::plug::{name} {{

AxiomId gIds[kNumAxioms ? kNumAxioms : 1];
{decls}
namespace {{
const char* const kNames[] = {{{names_init}}};
const PluginDescriptor kDescriptor = {{THORIN_PLUGIN_ABI, "{name}", kNames, kNumAxioms, gIds,
                                      {cb["normalizers"]}, {cb["prims"]}, {cb["baseline"]}, {llvm}}};
}} // namespace

}} // namespace thorin::plug::{name}

extern "C" THORIN_PLUGIN_EXPORT const thorin::PluginDescriptor* thorin_plugin_{name}() {{
  return &thorin::plug::{name}::kDescriptor;
}}
{static}"""
    files = [(f"{out}/{name}_axioms.hpp", hdr), (f"{out}/{name}_descriptor.cpp", src)]
    if "static" in flags and "llvm" in flags:
        files.append((f"{out}/{name}_llvm_entry.cpp", f"""// Generated by cmake/thorin_plugin.py: do not edit.
// The LLVM half of the static plugin {name}, compiled into the LLVM module.
#include "jit/llvm/llvm_lowering.hpp"

namespace thorin::plug::{name} {{
void llvm();
}}

namespace {{
thorin::rt::InModuleLowerings registration{{"{name}", &thorin::plug::{name}::llvm}};
}}
"""))
    for path, body in files:
        try:
            if open(path, encoding="utf-8").read() == body:
                continue  # (unchanged: nothing that includes it rebuilds)
        except OSError:
            pass
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)


if __name__ == "__main__":
    main()
