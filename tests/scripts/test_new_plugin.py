#!/usr/bin/env python3
"""A user extends thorin without forking it: scripts/new-plugin makes a plugin
folder outside the source tree, `cmake --install` installs thorin (the
executable, the prelude, the plugins, the headers and the CMake package),
the folder builds against the installed thorin alone, and the installed
thorin loads it with `.plugin` — its golden test passes in every JIT mode.

Usage: test_new_plugin.py THORIN   (the build tree's executable)
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODES = [["--jit=off"], ["--jit=eager"], ["--jit=lazy", "--jit-threshold", "1"],
         ["--jit=baseline", "--jit-threshold", "1"]]


def sh(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if p.returncode != 0:
        print(f"$ {' '.join(cmd)}\n{p.stdout}")
        raise SystemExit(1)
    return p.stdout


def main():
    build = os.path.dirname(os.path.abspath(sys.argv[1]))
    tmp = tempfile.mkdtemp(prefix="thorin-plugin-")
    try:
        prefix, demo = os.path.join(tmp, "prefix"), os.path.join(tmp, "demo")
        sh([os.path.join(ROOT, "scripts", "new-plugin"), "demo", demo])
        sh(["cmake", "--install", build, "--prefix", prefix])
        sh(["cmake", "-S", demo, "-B", os.path.join(demo, "build"), f"-DCMAKE_PREFIX_PATH={prefix}",
            "-DCMAKE_BUILD_TYPE=Release"])
        sh(["cmake", "--build", os.path.join(demo, "build"), "-j2"])
        plugins = os.path.join(demo, "build", "plugins")
        for f in ("libthorin_demo.so", "libthorin_demo_llvm.so", "demo.thorin"):
            assert os.path.exists(os.path.join(plugins, "demo", f)), f
        thorin = os.path.join(prefix, "bin", "thorin")
        expected = open(os.path.join(demo, "test", "demo.out"), encoding="utf-8").read()
        env = dict(os.environ, THORIN_PLUGIN_PATH=plugins)
        # (Not the source tree's prelude: the installed one.)
        env.pop("THORIN_PRELUDE_DIR", None)
        failed = 0
        for m in MODES:
            p = subprocess.run([thorin, "run", *m, "demo.thorin"], cwd=os.path.join(demo, "test"),
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            actual = p.stdout + f"[exit {p.returncode}]\n"
            if actual != expected:
                print(f"{' '.join(m)}: expected\n{expected}got\n{actual}")
                failed += 1
        # Without the plugin path the installed thorin does not find it: a located error.
        p = subprocess.run([thorin, "check", "demo.thorin"], cwd=os.path.join(demo, "test"),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 1 or "no plugin 'demo' on the plugin path" not in p.stdout:
            print(f"without THORIN_PLUGIN_PATH: {p.returncode}\n{p.stdout}")
            failed += 1
        print(f"{len(MODES) + 1 - failed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
