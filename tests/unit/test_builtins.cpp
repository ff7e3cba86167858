// Builtin data below the surface: literal lexing and printing, the core
// plugin's normalizers and operator table, the run-time word representation.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/axiom.hpp"
#include "core/lexer.hpp"
#include "core/literal.hpp"
#include "core_axioms.hpp"
#include "plugins/loader.hpp"
#include "runtime/heap.hpp"
#include "runtime/primitive.hpp"

using namespace thorin;
namespace core = thorin::plug::core;
using core::ax;

// The core plugin's code, registered as `.plugin core` does (from the build tree).
static void loadCore() {
  plugins::Loader loader;
  loader.load("core");
}

static std::vector<std::string> texts(const std::string& text) {
  Source src("t", text);
  Lexer lx(src);
  std::vector<std::string> out;
  for (auto& t : lx.all())
    if (t.kind != Tok::Eof) out.push_back(text.substr(t.begin, t.end - t.begin));
  return out;
}

TEST_CASE("lexer: numbers, exponents, projections and binder dots") {
  CHECK(texts("1.5 2e9 2.5E-3") == std::vector<std::string>{"1.5", "2e9", "2.5E-3"});
  CHECK(texts("t.1.2") == std::vector<std::string>{"t", ".", "1", ".", "2"});
  CHECK(texts("λ x. 1.5") == std::vector<std::string>{"λ", "x", ".", "1.5"});
  CHECK(texts("a+b <= c") == std::vector<std::string>{"a", "+", "b", "<=", "c"});
  CHECK(texts("%plug.nat.add x % y") == std::vector<std::string>{"%plug.nat.add", "x", "%", "y"});
}

TEST_CASE("literals print as .eval shows them") {
  CHECK(showF64(2.0) == "2.0");
  CHECK(showF64(0.1) == "0.1");
  CHECK(showF64(1e20) == "1e+20");
  CHECK(showF64(-0.5) == "-0.5");
  CHECK(showF64(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(showF64(std::nan("")) == "nan");
  CHECK(quoteString("a\"b\\\n\t") == "\"a\\\"b\\\\\\n\\t\"");
  CHECK(unescape("a\\nb\\\"") == "a\nb\"");
  CHECK(showLit(LitKind::I64, uint64_t(-5), nullptr) == "-5");
  CHECK(showLit(LitKind::Bool, 1, nullptr) == "true");
}

TEST_CASE("core plugin: operators resolve by operand type") {
  loadCore();
  auto& t = AxiomTable::get();
  CHECK(t.operatorAxiom("+", core::id(ax::I64)) == core::id(ax::i64_add));
  CHECK(t.operatorAxiom("<", core::id(ax::Nat)) == core::id(ax::nat_lt));
  CHECK(t.operatorAxiom("==", core::id(ax::Bool)) == core::id(ax::bool_eq));
  CHECK(t.operatorAxiom("%", core::id(ax::F64)) == kNoAxiom); // no remainder on F64
  CHECK(t[core::id(ax::f64_mul)].op == "*");
  CHECK(t[core::id(ax::i64_add)].name == t[t.find(t[core::id(ax::i64_add)].name)].name);
  CHECK(t.builtin(Builtin::Nat) == core::id(ax::Nat));
  CHECK(t.role(core::id(ax::arr_get)) == Builtin::ArrGet);
}

TEST_CASE("core plugin: normalizers fold constants, keep identities, stay stuck on errors") {
  loadCore();
  World w;
  auto run = [&](ax a, std::vector<Val*> args) {
    return AxiomTable::get()[core::id(a)].norm(w, args.data());
  };
  auto i64 = [&](int64_t x) { return vLit(w, LitKind::I64, uint64_t(x)); };
  auto nat = [&](uint64_t x) { return vLit(w, LitKind::Nat, x); };
  Val* x = w.var(0); // a rigid variable

  Val* s = run(ax::i64_add, {i64(INT64_MAX), i64(1)}); // wraps
  REQUIRE(s);
  CHECK(int64_t(s->bits) == INT64_MIN);
  Val* q = run(ax::i64_div, {i64(INT64_MIN), i64(-1)}); // wraps, no trap
  REQUIRE(q);
  CHECK(int64_t(q->bits) == INT64_MIN);
  CHECK(run(ax::i64_div, {i64(1), i64(0)}) == nullptr); // a run-time error: stuck here
  CHECK(run(ax::nat_add, {x, nat(0)}) == x);            // n + 0 ▷ n
  CHECK(run(ax::nat_mul, {nat(1), x}) == x);            // 1 * n ▷ n
  Val* d = run(ax::nat_sub, {nat(3), nat(5)});          // truncated
  REQUIRE(d);
  CHECK(d->bits == 0);
  Val* big = run(ax::nat_mul, {nat(UINT64_MAX), nat(UINT64_MAX)}); // to GMP
  REQUIRE(big);
  CHECK(LitKind(big->n) == LitKind::BigNat);
  CHECK(showLit(LitKind::BigNat, 0, big->big) == "340282366920938463426481119284349108225");
  CHECK(run(ax::nat_lt, {x, nat(3)}) == nullptr); // stuck on a variable
}

TEST_CASE("run-time words: immediates and boxes") {
  using namespace rt;
  CHECK(isImm(ofI64(5)));
  CHECK(toI64(ofI64(-7)) == -7);
  CHECK(!isImm(ofI64(INT64_MAX))); // beyond 63 bits: boxed
  CHECK(toI64(ofI64(INT64_MAX)) == INT64_MAX);
  CHECK(toF64(ofF64(2.5)) == 2.5);
  CHECK(showNat(ofNat(uint64_t(1) << 63)) == "9223372036854775808");
  CHECK(toStr(ofStr("abc")) == "abc");
  resetHeap();
}

TEST_CASE("run-time arrays: the erased element type picks the representation") {
  using namespace rt;
  auto rep = [](V a) { return obj(a)->tag; };
  CHECK(rep(mkArrOf(erased(), 2)) == OTag::Arr);
  CHECK(rep(mkArrOf(erasedType(uint32_t(MType::Bool)), 2)) == OTag::Arr);
  V is = mkArrOf(erasedType(uint32_t(MType::I64)), 2);
  V fs = mkArrOf(erasedType(uint32_t(MType::F64)), 2);
  REQUIRE(rep(is) == OTag::ArrI64);
  REQUIRE(rep(fs) == OTag::ArrF64);
  auto* ia = static_cast<ArrObj*>(obj(is));
  auto* fa = static_cast<ArrObj*>(obj(fs));
  arrStore(ia, 0, ofI64(INT64_MIN)); // a boxed I64 is stored raw…
  arrStore(ia, 1, ofI64(-3));
  arrStore(fa, 0, ofF64(0.5));
  arrStore(fa, 1, ofF64(-1e300));
  CHECK(ia->elems[0] == uint64_t(INT64_MIN));
  CHECK(ia->elems[1] == uint64_t(int64_t(-3)));
  CHECK(toI64(arrElem(ia, 0)) == INT64_MIN); // …and read back as a word
  CHECK(isImm(arrElem(ia, 1)));
  CHECK(toF64(arrElem(fa, 0)) == 0.5);
  CHECK(toF64(arrElem(fa, 1)) == -1e300);
  // `build` itself: its first argument is the erased element type.
  loadCore();
  const Prim* build = findPrim(core::id(ax::arr_build));
  REQUIRE(build);
  V k = mkClosure([](rt::Closure*, const V* args) { return ofF64(double(immVal(args[0])) / 4); }, 1,
                  0);
  V args[3] = {erasedType(uint32_t(MType::F64)), imm(3), k};
  V built = build->fn(args, 0);
  CHECK(rep(built) == OTag::ArrF64);
  CHECK(toF64(arrElem(static_cast<ArrObj*>(obj(built)), 2)) == 0.5);
  args[0] = erased();
  CHECK(rep(build->fn(args, 0)) == OTag::Arr);
  resetHeap();
}
