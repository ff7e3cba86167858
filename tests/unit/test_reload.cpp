// Incremental reloading: which definitions a reload keeps (same TopEntry, same
// metas) and which it elaborates again, through edits, type changes,
// shadowing, imports and failures.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/pretty.hpp"
#include "core/session.hpp"
#include "core/zonk.hpp"

using namespace thorin;
namespace fs = std::filesystem;

namespace {

struct Files {
  fs::path dir;
  std::ostringstream out, err;
  Options opts;
  std::unique_ptr<Session> s;
  Files() {
    char tmpl[] = "/tmp/thorin-reload-XXXXXX";
    dir = mkdtemp(tmpl);
    opts.prelude = false;
    s = std::make_unique<Session>(out, err, opts);
  }
  ~Files() { fs::remove_all(dir); }
  std::string path(const char* name) { return (dir / name).string(); }
  void write(const char* name, const std::string& text) { std::ofstream(path(name)) << text; }
  bool load(const char* name) { return s->load({path(name)}); }
  ReloadReport reload() {
    out.str("");
    err.str("");
    return s->reload();
  }
  int32_t id(const char* name) { return s->world().lookupTop(intern(name)); }
  std::string def(const char* name) {
    World& w = s->world();
    w.beginEntry();
    return show(w, zonk(w, w.scratch, w.tops[id(name)].def));
  }
  uint32_t line(const char* name) {
    const TopEntry& e = s->world().tops[id(name)];
    return e.span.src->lineCol(e.span.begin).line;
  }
};

const char* kBase = R"(Nat : U = (N : U) → (N → N) → N → N
zero : Nat = λ N s z. z
suc : Nat → Nat = λ n N s z. s (n N s z)
add : Nat → Nat → Nat = λ a b N s z. a N s (b N s z)
two : Nat = suc (suc zero)
four : Nat = add two two
id : {A : U} → A → A = λ x. x
idTwo : Nat = id two
)";

} // namespace

TEST_CASE("reload: an unchanged file keeps every definition") {
  Files f;
  f.write("a.thorin", kBase);
  REQUIRE(f.load("a.thorin"));
  int32_t four = f.id("four"), idTwo = f.id("idTwo");
  ReloadReport r = f.reload();
  REQUIRE(r.ok);
  CHECK(!r.full);
  CHECK(r.rechecked == 0);
  CHECK(r.total == 8);
  CHECK(r.changed.empty());
  CHECK(f.id("four") == four);
  CHECK(f.id("idTwo") == idTwo);
  CHECK(f.def("idTwo") == "id {Nat} two"); // its meta solution is kept
}

TEST_CASE("reload: an edit re-checks the definition and what uses it, transitively") {
  Files f;
  f.write("a.thorin", kBase);
  REQUIRE(f.load("a.thorin"));
  int32_t zero = f.id("zero"), add = f.id("add"), id = f.id("id");
  std::string text = kBase;
  text.replace(text.find("suc (suc zero)"), 14, "suc zero");
  f.write("a.thorin", text);
  ReloadReport r = f.reload();
  REQUIRE(r.ok);
  CHECK(r.changed == std::vector<std::string>{"two"});
  CHECK(r.rechecked == 3); // two, four (uses two), idTwo (uses two)
  CHECK(f.id("zero") == zero);
  CHECK(f.id("add") == add);
  CHECK(f.id("id") == id);
  CHECK(f.def("two") == "suc zero");
  CHECK(r.summary({"a.thorin"}).starts_with(
      "reloaded a.thorin: changed two; re-checked 3 of 8 definitions in "));
}

TEST_CASE("reload: a type change re-checks the users, and an ill-typed user fails the reload") {
  Files f;
  f.write("a.thorin", kBase);
  REQUIRE(f.load("a.thorin"));
  int32_t two = f.id("two"), four = f.id("four");
  std::string text = kBase;
  text.replace(text.find("two : Nat"), 9, "two : U = Nat\nold : Nat");
  f.write("a.thorin", text);
  ReloadReport r = f.reload();
  CHECK(!r.ok);
  CHECK(f.err.str().find("a.thorin:7:1") != std::string::npos); // four = add two two
  // Nothing changed: same entries in scope, same positions.
  CHECK(f.id("two") == two);
  CHECK(f.id("four") == four);
  CHECK(f.id("old") < 0);
  CHECK(f.line("four") == 6);
  // Fixed: the reload goes through against the last good version.
  text.replace(text.find("four : Nat = add two two"), 24, "four : Nat = add old old");
  text.replace(text.find("idTwo : Nat = id two"), 20, "idTwo : U = id two");
  f.write("a.thorin", text);
  r = f.reload();
  REQUIRE(r.ok);
  CHECK(r.changed == std::vector<std::string>{"two", "four", "idTwo"});
  CHECK(r.added == std::vector<std::string>{"old"});
  CHECK(r.rechecked == 4);
}

TEST_CASE("reload: shadowing — a new definition above a user changes what its name means") {
  Files f;
  f.write("a.thorin", R"(Nat : U = (N : U) → (N → N) → N → N
zero : Nat = λ N s z. z
x : Nat = zero
y : Nat = x
)");
  REQUIRE(f.load("a.thorin"));
  int32_t x = f.id("x"), y = f.id("y");
  f.write("a.thorin", R"(Nat : U = (N : U) → (N → N) → N → N
zero : Nat = λ N s z. z
x : Nat = zero
x : Nat = λ N s z. s z
y : Nat = x
)");
  ReloadReport r = f.reload();
  REQUIRE(r.ok);
  CHECK(r.rechecked == 2); // the second x (added) and y (its x is not the same any more)
  CHECK(r.changed == std::vector<std::string>{"x"}); // (a second x: the name was there)
  CHECK(f.id("y") != y);
  CHECK(f.id("x") != x);
  World& w = f.s->world();
  CHECK(w.tops[w.tops[f.id("y")].def->n].name == intern("x"));
  CHECK(w.tops[f.id("y")].def->n == uint32_t(f.id("x")));
}

TEST_CASE("reload: imports — an edit in an imported file re-checks its users in the importer") {
  Files f;
  f.write("lib.thorin", "Nat : U = (N : U) → (N → N) → N → N\nzero : Nat = λ N s z. z\n");
  f.write("main.thorin", ".import lib\none : Nat = λ N s z. s (zero N s z)\nT : U = U\n");
  REQUIRE(f.load("main.thorin"));
  int32_t T = f.id("T"), nat = f.id("Nat");
  f.write("lib.thorin", "Nat : U = (N : U) → (N → N) → N → N\nzero : Nat = λ N s z. s z\n");
  ReloadReport r = f.reload();
  REQUIRE(r.ok);
  CHECK(r.changed == std::vector<std::string>{"zero"});
  CHECK(r.rechecked == 2); // zero, one
  CHECK(f.id("T") == T);
  CHECK(f.id("Nat") == nat);
  // Dropping the import: its definitions leave scope, their users fail.
  f.write("main.thorin", "T : U = U\n");
  r = f.reload();
  REQUIRE(r.ok);
  CHECK(f.id("zero") < 0);
  CHECK(f.id("T") == T);
  CHECK(r.removed == std::vector<std::string>{"one", "Nat", "zero"});
  // A deleted import is a located error; the last good version stays.
  f.write("main.thorin", ".import gone\nT : U = U\n");
  r = f.reload();
  CHECK(!r.ok);
  CHECK(f.err.str().find("main.thorin:1:9: error: cannot open file") != std::string::npos);
  CHECK(f.id("T") == T);
}

TEST_CASE("reload: moved definitions are kept and their positions follow the text") {
  Files f;
  f.write("a.thorin", kBase);
  REQUIRE(f.load("a.thorin"));
  int32_t four = f.id("four");
  CHECK(f.line("four") == 6);
  f.write("a.thorin", std::string("-- a comment\n\n") + kBase);
  ReloadReport r = f.reload();
  REQUIRE(r.ok);
  CHECK(r.rechecked == 0);
  CHECK(f.id("four") == four);
  CHECK(f.line("four") == 8);
  // A failed reload puts the positions back.
  f.write("a.thorin", std::string("\n\n\n") + kBase + "bad : U = zero\n");
  CHECK(!f.reload().ok);
  CHECK(f.line("four") == 8);
}

TEST_CASE("reload: definitions typed at the prompt leave scope; recursion is kept") {
  Files f;
  f.write("a.thorin", "T : U = U\nloop : U → U = λ x. loop x\n");
  REQUIRE(f.load("a.thorin"));
  int32_t loop = f.id("loop");
  f.s->touched();
  REQUIRE(f.s->top().replInput("extra : U = T"));
  CHECK(f.id("extra") >= 0);
  ReloadReport r = f.reload();
  REQUIRE(r.ok);
  CHECK(r.rechecked == 0);
  CHECK(f.id("extra") < 0);
  CHECK(f.id("loop") == loop); // (its lookup of itself does not count)
  CHECK(f.s->world().tops[loop].retired == false);
}

TEST_CASE("reload: a full reload elaborates everything in a fresh world") {
  Files f;
  f.write("a.thorin", kBase);
  REQUIRE(f.load("a.thorin"));
  ReloadReport r = f.s->reload(true);
  REQUIRE(r.ok);
  CHECK(r.full);
  CHECK(r.rechecked == 8);
  CHECK(r.summary({"a.thorin"}).starts_with("reloaded a.thorin: re-checked all 8 definitions in "));
}
