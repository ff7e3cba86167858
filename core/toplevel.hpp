// Processing top-level entries: definitions, postulates, imports and the
// `.check`/`.nf` queries, with per-file and per-entry timing. Every entry is
// a transaction on the World: if it fails, the World is left as it was.
#pragma once
#include <chrono>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "diagnostic.hpp"
#include "syntax.hpp"
#include "world.hpp"

namespace thorin {

/// Runs closed programs (`.eval`, `thorin run`): the runtime evaluator and
/// the JIT live outside core/ (in jit/) and plug in here.
class Runner {
public:
  virtual ~Runner() = default;
  /// Evaluates the closed, elaborated term `t : ty`; returns its printed value.
  /// Throws Error (located at `where` or inside `t`) on a run-time error.
  virtual std::string run(World& w, Tm* t, Val* ty, Span where) = 0;
  /// The definition `id` was shadowed by a new one: drop its compiled code.
  virtual void invalidate(World& w, TopId id) = 0;
  /// A new world: install the runtime's hooks (World::closedCall).
  virtual void attach(World& w) = 0;
};

struct Options {
  bool time = false;   // print parse/elaboration time per file (`--time`, `:time`)
  bool prelude = true; // load prelude/*.thorin into every new world
  Runner* runner = nullptr; // `.eval` (none: an error)
};

struct Timer {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};
std::string formatSeconds(double s);

class TopLevel {
public:
  TopLevel(World& w, std::ostream& out, std::ostream& err, const Options& opts)
      : w_(w), out_(out), err_(err), opts_(opts) {
    if (opts.runner) opts.runner->attach(w);
  }

  /// Loads a file and its imports into the world, stopping at the first error
  /// (printed). `from` is the span of the `.import` that asked for it.
  bool loadFile(const std::string& path, Span from = {}, bool prelude = false);
  /// Loads source text as if it were the file `path` (`canon`: its canonical path).
  bool loadSource(const std::string& path, std::string text, const std::string& canon,
                  bool prelude = false);
  /// Elaborates one REPL input (definition, directive or expression).
  bool replInput(const std::string& text, bool* incomplete = nullptr);
  /// Elaborates a `:{ … :}` block: several entries under the layout rule,
  /// kept all together or not at all.
  bool replBlock(const std::string& text);

  /// Elaborates an expression typed by the user; prints its normal form
  /// and/or type. Used by `:type` / `:nf` and by plain expressions.
  enum class Show { Type, NormalForm, Both, Eval };
  bool query(const std::string& text, Show what, const char* origin = "<interactive>");

  void printError(const Error& e);
  /// Runs the top-level definition `id` (`main`) and prints its value.
  bool evalMain(TopId id);
  /// Loads plugins/NAME/NAME.thorin, whose `.ax %NAME.x` bind the plugin's code.
  bool loadPlugin(const std::string& dir, const std::string& name);
  World& world() { return w_; }

  double parseSeconds = 0, elabSeconds = 0;

private:
  bool runEntry(const Entry& e, bool prelude);
  bool completeSignature(std::optional<Entry>& sig, Entry* next);
  void elaborate(const Entry& e, bool prelude);
  void define(const Entry& e, bool prelude);
  void showQuery(Raw* r, Show what);
  void evalQuery(Raw* r);
  const struct AxiomDef* bindAxiom(const Entry& e);
  template <class F> bool guarded(Span where, F&& body);

  World& w_;
  std::ostream& out_;
  std::ostream& err_;
  const Options& opts_;
  std::string plugin_;                    // the plugin whose file is being loaded
  std::vector<std::string> loading_;      // import stack (canonical paths)
  std::vector<std::string> loadingShown_; // the same, as shown to the user
};

} // namespace thorin
