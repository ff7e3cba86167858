// Processing top-level entries: definitions, postulates, imports and the
// `.check`/`.nf` queries, with per-file and per-entry timing. Every entry is
// a transaction on the World: if it fails, the World is left as it was.
#pragma once
#include <chrono>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "diagnostic.hpp"
#include "elab.hpp"
#include "runner.hpp"
#include "syntax.hpp"
#include "world.hpp"

namespace thorin {

struct Options {
  bool time = false;             // print parse/elaboration time per file (`--time`, `:time`)
  bool prelude = true;           // load prelude/*.thorin into every new world
  Runner* runner = nullptr;      // `.eval` (none: an error)
  PluginHost* plugins = nullptr; // `.plugin NAME` (none: an error)
  bool trackDependencies = true; // record what reloads need (`thorin check` does not)
};

/// What a load remembers of one entry of a file, so that a reload can keep it.
struct EntryRecord {
  uint32_t begin = 0, end = 0; // its text in the file's source (with an Agda-style signature)
  int32_t id = -1;             // the definition or postulate it made
  std::vector<int32_t> more;   // a data type's constructors
  // The top-level names its elaboration looked up, and what they meant
  // (-1: nothing). The entry is kept while they all still mean the same.
  std::vector<std::pair<uint32_t, int32_t>> lookups;
  uint32_t spansBegin = 0, spansEnd = 0; // the positions it added to World::spans
};

struct FileRecord {
  std::string canon;   // canonical path
  std::string watched; // watchPath(): what a reload matches it by, what a watcher follows
  const Source* src = nullptr;
  std::vector<EntryRecord> entries; // its definitions, in order
};

/// The name a file is watched and reloaded by: absolute, its directory
/// canonical, but a symlink as the file itself not followed. The name is what
/// an editor or `ln -sf` replaces; what it points to may change.
std::string watchPath(const std::string& path);

/// What a reload did, for its one-line summary.
struct ReloadReport {
  bool ok = false;
  bool full = false; // a fresh world: everything was elaborated again
  std::vector<std::string> changed, added, removed; // definitions, by name
  size_t rechecked = 0, total = 0; // definitions elaborated, definitions in the files
  double seconds = 0;
  std::string output; // what the files' directives printed
  /// `reloaded a.thorin: changed f; re-checked 2 of 40 definitions in 1.20ms`
  std::string summary(const std::vector<std::string>& files) const;
};

struct Timer {
  // (An unused timer reads no clock: a start-up elaborates ~100 entries of
  // the core plugin, each timed three ways.)
  explicit Timer(bool on = true) : on(on) {
    if (on) start = std::chrono::steady_clock::now();
  }
  bool on;
  std::chrono::steady_clock::time_point start{};
  double seconds() const {
    if (!on) return 0;
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

  /// Loads files and what they import, all or nothing: on an error (printed)
  /// the world is left as it was.
  bool load(const std::vector<std::string>& files, Span from = {});
  /// Loads `files` again into this world, incrementally: a definition whose
  /// text is unchanged and whose looked-up names still mean the same is kept
  /// (with its metas and compiled code); the others, and so everything that
  /// depends on a changed definition, are elaborated again. Definitions not
  /// in the files any more (and those typed at the prompt) go out of scope.
  /// All or nothing, like load().
  ReloadReport reload(const std::vector<std::string>& files);
  /// The files the last load or reload read or tried to read (watchPath()
  /// names): what a watcher watches.
  std::vector<std::string> watchedFiles() const;
  const std::vector<FileRecord>& records() const { return records_; }

  /// Loads a file and its imports into the world, stopping at the first error
  /// (printed). `from` is the span of the `.import` that asked for it.
  bool loadFile(const std::string& path, Span from = {}, bool prelude = false);
  /// Loads source text as if it were the file `path` (`canon`: its canonical path).
  bool loadSource(const std::string& path, std::string text, const std::string& canon,
                  bool prelude = false);
  /// Elaborates one REPL input (definition, directive or expression).
  /// `awaitsDefinition`: incomplete, and only its `= …` is missing.
  bool replInput(const std::string& text, bool* incomplete = nullptr,
                 bool* awaitsDefinition = nullptr);
  /// Elaborates a `:{ … :}` block: several entries under the layout rule,
  /// kept all together or not at all.
  bool replBlock(const std::string& text, bool* incomplete = nullptr);

  /// Elaborates an expression typed by the user; prints its normal form
  /// and/or type. Used by `:type` / `:nf` and by plain expressions.
  enum class Show { Type, NormalForm, Both, Eval };
  /// `from`: where the expression starts in `text` (after a REPL command's name).
  bool query(const std::string& text, Show what, const char* origin = "<interactive>",
             uint32_t from = 0);
  bool onTerm(const std::string& text, const char* origin, uint32_t from,
              const std::function<void(Raw*)>& body);
  /// A plugin's command (core/inspect.hpp) on the expression in `text`.
  bool inspect(const std::string& text, const struct Inspector& i, const char* origin,
               uint32_t from);
  /// The line number of the REPL's next input (`<interactive>:LINE:COL`, as
  /// GHCi counts the lines typed in a session).
  void setInputLine(uint32_t line) { inputLine_ = line; }

  /// `:residual NAME ARG…` (`_` for a dynamic argument): prints the
  /// specialized code of NAME for those arguments.
  bool residualQuery(const std::string& text, uint32_t from = 0);
  void printError(const Error& e);
  /// Runs the top-level definition `id` (`main`), applied to the program's
  /// arguments if it takes them, and prints its value (unless it is a Unit).
  bool evalMain(TopId id, const std::vector<std::string>& args = {});
  /// `.plugin NAME` at `at`: registers NAME's library (opts.plugins) and
  /// loads NAME.thorin, whose `.ax %NAME.x` declare its axioms, once per world.
  bool usePlugin(const std::string& name, Span at);
  std::string shownPath(const std::string& path, bool prelude) const;
  World& world() { return w_; }

private:
  const Source* interactiveSource(const char* origin, const std::string& text, uint32_t from = 0);
  uint32_t inputLine_ = 1;
  bool runEntry(const Entry& e, bool prelude);
  bool completeSignature(std::optional<Entry>& sig, Entry* next);
  void elaborate(const Entry& e, bool prelude);
  /// `declared`: the entry's type was checked and entered before (a mutual block).
  void define(const Entry& e, bool prelude, int32_t declared = -1);
  void defineData(const Entry& e, bool prelude); // data.cpp
  struct DataDecl {
    TopId self = 0;
    Cxt params;
    std::vector<Tm*> paramTys;
    uint32_t indices = 0;
  };
  DataDecl declareData(const Entry& e, bool prelude);
  void finishData(const Entry& e, const DataDecl& d, const std::vector<TopId>& block, bool prelude);
  void defineMutual(const Entry& e, bool prelude);  // mutual.cpp
  std::vector<int32_t> definedTops(const Entry& e); // reload.cpp
  Name lastClauses_; // the function whose clauses came last (a later clause is separated)
  // eliminator.cpp
  std::string eliminatorText(const std::vector<const Entry*>& block);
  void defineEliminators(const std::vector<const Entry*>& block, const std::vector<TopId>& datas,
                         bool prelude);
  void tryEliminators(const std::vector<const Entry*>& block, const std::vector<TopId>& datas,
                      bool prelude);
  void walkEntry(const Entry& e);
  // Goals (core/goals.cpp).
  Diagnostic goalDiagnostic(MetaId m);
  void reportGoals(size_t firstMeta, TopId owner);

public:
  /// Prints the goals still open in definitions in scope; how many.
  size_t showGoals();

private:
  TopId defineConstructor(const Entry& e, const ConDecl& con, TopId self, const struct Cxt& params,
                          const std::vector<Tm*>& paramTys, uint32_t indices, bool prelude,
                          bool* positive, const std::vector<TopId>& block);
  void showQuery(Raw* r, Show what);
  /// The normal form of the closed term `t : ty` (see Runner::normalize).
  Tm* normalForm(Tm* t, Val* ty);
  void evalQuery(Raw* r);
  /// Is `e` (a postulate) an axiom `%plugin.x` (an error outside its plugin's file)?
  bool declaresAxiom(const Entry& e);
  const struct Axiom* bindAxiom(const Entry& e, Tm* ty);
  template <class F> bool guarded(Span where, F&& body);
  // Incremental reloading (reload.cpp).
  enum class Reuse { NewText, SameText, Kept };
  Reuse keepEntry(const Entry& e, const Source* src, uint32_t begin, size_t file);
  void recordEntry(const Entry& e, uint32_t begin, size_t file, bool matched,
                   std::vector<std::pair<uint32_t, int32_t>>& lookups, uint32_t spansBegin);
  void undoMoves();
  void commitReload(const World::Snapshot& snap, ReloadReport& rep);

  World& w_;
  std::ostream& out_;
  std::ostream& err_;
  const Options& opts_;
  std::string plugin_;                    // the plugin whose file is being loaded
  std::vector<std::string> loading_;      // import stack (canonical paths)
  std::vector<std::string> loadingShown_; // the same, as shown to the user

  std::vector<FileRecord> records_;    // what the loaded files defined
  std::vector<FileRecord> staging_;    // the same, for the load under way
  std::vector<std::string> attempted_; // files the load under way tried to read
  std::vector<TopId> walk_;            // definitions of a reload, in file order
  // During a reload: the previous records by file, and which of their
  // entries have been matched by text so far.
  struct OldFile {
    const FileRecord* rec;
    std::unordered_map<std::string_view, std::vector<uint32_t>> byText;
    std::vector<bool> taken;
  };
  std::unordered_map<std::string, OldFile> old_;
  ReloadReport* report_ = nullptr; // set during a reload
  // Kept entries whose text moved: their positions are updated at once and
  // restored if the reload fails.
  struct Move {
    TopId id;
    Span oldName;
    uint32_t spansBegin, spansEnd;
    const Source* oldSrc;
    uint32_t oldBegin, oldEnd;
    const Source* newSrc;
    int64_t delta;
  };
  std::vector<Move> moves_;
};

} // namespace thorin
