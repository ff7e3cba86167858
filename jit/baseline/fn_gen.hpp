// The baseline tier's generator of one worker (codegen.hpp), whose members
// the emit_*.cpp files define, one concern each: the analyses it starts
// from (loop_plan, entry_facts, value_class) and its frame allocation
// (frame) are apart from it.
#pragma once
#include <asmjit/x86.h>

#include <functional>
#include <utility>
#include <vector>

#include "baseline_lowering.hpp"
#include "codegen.hpp"
#include "entry_facts.hpp"
#include "frame.hpp"
#include "loop_plan.hpp"
#include "module_gen.hpp"
#include "operand.hpp"
#include "value_class.hpp"

namespace thorin::rt::baseline_gen {

// One worker (see FnSig). Emitted twice — the first time into a scratch
// buffer, to learn the frame (which callee-saved registers its variables
// take, how many stack slots) that the prologue sets up.
//
// The registers and slots come from a FrameAlloc, a private base: its
// operations (tmp, temp, release, newHome…) are the generator's own.
class FnGen : private FrameAlloc {
public:
  FnGen(ModuleGen& m, x86::Assembler& a, TopId id, const FrameNeeds* frame, uint32_t maxUnroll);

  uint32_t unroll() const { return plan_.unroll(); }
  using FrameAlloc::needs;

  // emit_function.cpp: the prologue, the loop, the epilogue, then the
  // paths out of line.
  void emit(BaselineFn& fn);

private:
  // A loop: the function's body, or a copy of it inlined at one of its own
  // calls, whose tail calls of the function jump back to the copy's top. A
  // copy of a loop is a loop nested in it: inlining the function into
  // itself d levels deep takes d levels of calls off the recursion (gcc -O2
  // makes fib a nest of eight accumulating loops).
  struct Loop {
    std::vector<Opnd> params; // homes
    Opnd acc;                 // home of the accumulator (accumulating bodies)
    Label go, exit;           // the body; after the loop (its value in resultLocation)
    uint32_t depth = 0;       // 0: the function itself
    std::vector<Opnd> from;   // copies: the variable each parameter starts as (or an Imm)
    // Inverted loops (the body a test): back edges test again and jump to
    // the arm (`armOf[value]`); `arm` is the one being emitted.
    bool inverted = false;
    Label armOf[2];
    int arm = 0;
    // A copy whose first test was made on its arguments: they are in its
    // homes, and it starts in the arm `enterArm` (armOf made beforehand).
    int enterArm = -1;
  };

  // What a branch knows of a variable: `cmp home, imm` meets cc. Homes of
  // variables in scope change only at back edges, where the path ends.
  struct Fact {
    Opnd home;
    x86::CondCode cc;
    int64_t imm;
  };

  // The primitive's run-time implementation on `words` (registers, slots
  // or immediates of class None): result ← prim(words) as a word; at hot
  // code, or out of line from `from` back to `to` (then `branch`: instead
  // of a result, jump to `target` when the word is the Bool `when`).
  struct PrimSlow {
    Label from, to;
    bool branch = false, when = false;
    Label target;
    bool discard = false; // (the fast path's result is the primitive's, when it returns)
  };

  // An argument of a back edge: how its parameter's home changes.
  struct BackArg {
    enum { Same, InPlace, Value, FInPlace } kind;
    Opnd v;
    bool add = true;
    x86::Inst::Id fop = x86::Inst::kIdNone; // FInPlace: home ⊕= v (an F64 accumulator)
  };

  // emit_moves.cpp: moves between operands, saves around calls
  void move(const Opnd& dst, const Opnd& src);
  void moveF(const Opnd& dst, const Opnd& src);
  void save(const Saves& saves);
  void restore(const Saves& saves, bool free = true);
  void parallelMove(const std::vector<Opnd>& dsts, std::vector<Opnd> vs);
  void parallelMovePass(const std::vector<Opnd>& dsts, std::vector<Opnd>& vs,
                        std::vector<bool>& done);
  Opnd copyToTemp(const Opnd& v, const Gp* want = nullptr);
  Opnd inReg(const Opnd& v) { return v.kind == Opnd::Reg ? v : copyToTemp(v); }
  Opnd fit(const Opnd& v);

  // emit_loops.cpp: loops and tail positions
  void loop(Loop& l);
  bool tailInto(ETm* t, bool last = false);
  void accumulate(Loop& l, const Opnd& e);
  bool tailBranch(ETm* c, bool value, ETm* t, bool last = false);
  Opnd bind(ETm* value);
  void unbind(const Opnd& h);
  bool isVar(ETm* t, const Opnd& home);

  // emit_unroll.cpp: copies of the function (recursion unrolled)
  void nested(ETm* call);

  // emit_facts.cpp: what branches, entries and straight-line paths know
  bool asFact(ETm* c, bool value, Fact& f);
  int atEntry(const Loop& l, ETm* c);
  const ParamFact* factOf(const Opnd& o) const;
  void factChecks(const std::vector<Opnd>& params, Label fail, bool backEdge,
                  const std::vector<bool>* same = nullptr,
                  const std::vector<bool>* immNew = nullptr);
  void rowsCheck(const Opnd& p, uint64_t code, Label fail);
  void mergeAt(Label l);
  bool knownBelow(const Opnd& o, int64_t word) const;
  void checkedBelow(const Opnd& o, int64_t word);
  void forgetBelow(const Opnd& o);

  // emit_calls.cpp: calls of workers, of the runtime, of C++
  MType callInto(ETm* t);
  void callRuntime(TopId g, ETm* t);
  void callOnWords(ETm* t, const std::function<void(int32_t)>& call);
  Opnd callC(void* fn, const std::vector<Opnd>& args);
  void shareWord(const Opnd& v);
  MType call(TopId g, ETm* t);
  void coldHelper(Label from, Label to, void* fn, std::vector<Opnd> args, Opnd result);
  void primFnCall(uint32_t prim, uint32_t span, int32_t base);
  void primCallCode(uint32_t prim, uint32_t span, const std::vector<Opnd>& words, int32_t base,
                    const Saves& saves);
  Opnd primCall(ETm* t);
  void coldPrim(ETm* t, const std::vector<Opnd>& words, const Opnd& result, const PrimSlow& s);

  // emit_select.cpp: expressions and conditions
  Opnd eval(ETm* t, const Gp* want = nullptr);
  // data values (emit_data.cpp)
  Opnd construct(ETm* t);
  Opnd field(ETm* t);
  void dispatch(ETm* t, const std::vector<Label>& alts);
  Opnd caseOf(ETm* t);
  bool tailCase(ETm* t, bool last);
  Opnd litOpnd(ETm* t, bool emit);
  Opnd litImm(ETm* t, bool emit);
  void into(ETm* t, const Opnd& dst);
  void branch(ETm* t, bool when, Label target);

  // emit_int.cpp: I64 and Bool operations
  Opnd intPrim(ETm* t, const Gp* want);
  const BaselineLowering& lowering(ETm* t);
  bool arithInto(ETm* t, const Gp& dst);
  void binary(BaselineOp op, const Gp& dst, const Opnd& src);
  x86::CondCode compare(ETm* t, x86::CondCode cc);
  void divide(ETm* t, const BaselineLowering& low, const Gp& dst);

  // emit_convert.cpp: conversions between classes
  Opnd as(Opnd v, MType m);

  // emit_float.cpp: F64 operations
  Opnd floatPrim(ETm* t, const BaselineLowering& l);
  x86::CondCode fcompare(ETm* t, x86::CondCode cc);
  void fcompareValue(ETm* t, x86::CondCode cc, const Gp& r);
  void fbranch(ETm* t, x86::CondCode cc, bool when, Label target);

  // emit_back_edge.cpp: back edges
  void backEdge(Loop& l, ETm* call, bool lastArm = false);
  std::vector<BackArg> backEdgeArgs(Loop& l, ETm* call, uint32_t last);
  void testBeforeHomes(Loop& l, ETm* call, std::vector<BackArg>& args, uint32_t last, ETm* exitArm);
  void writeHomes(Loop& l, ETm* call, std::vector<BackArg>& args, uint32_t last);
  void retest(Loop& l, bool lastArm);

  // emit_poll.cpp: polls
  void pollCheck(Loop& l, bool back = false);
  void pollStub(Label stub, const Saves& saves, const std::vector<Opnd>& params, const Opnd& acc,
                Label go, Label exit);

  // emit_select.cpp: value classes of the variables in scope
  MType classOf(ETm* t);

  // emit_words.cpp: words (Nat and Idx immediates, arrays)
  int knownImm(const Opnd& o) const;
  void immCheck(const Opnd& a, const Opnd& b, Label slow);
  std::vector<Opnd> words(ETm* t);
  x86::CondCode cmpWords(Opnd x, Opnd y, x86::CondCode cc, int& known);
  void natBranch(ETm* t, x86::CondCode cc, bool when, Label target);
  Opnd wordPrim(ETm* t, const BaselineLowering& l);
  bool natAdd(std::vector<Opnd>& ws, Label slow, Opnd& r);
  Opnd natSub(std::vector<Opnd>& ws, Label slow);
  Opnd natMul(std::vector<Opnd>& ws, Label slow);
  Opnd natDivMod(std::vector<Opnd>& ws, bool mod, Label slow);
  Opnd natCompare(std::vector<Opnd>& ws, x86::CondCode cc, Label slow);
  bool idxOf(ETm* t, std::vector<Opnd>& ws, Label slow, Label done, Opnd& r);
  Opnd natToF64(std::vector<Opnd>& ws, Label slow);

  // emit_arrays.cpp: arrays
  Opnd arrLength(ETm* t);
  x86::Mem elemAt(std::vector<Opnd>& ws, OTag rep, Label slow);
  Opnd arrGet(ETm* t, std::vector<Opnd>& ws, Label slow);
  Opnd arrSet(ETm* t, std::vector<Opnd>& ws, Label slow);
  void divByConstant(const Opnd& word, uint64_t k, bool mod, const Opnd& r);

  ModuleGen& m_;
  x86::Assembler& a_;
  TopId self_;
  FnSig sig_;
  ETm* body_;
  uint32_t arity_;
  LoopPlan plan_;
  Label selfLabel_;
  std::vector<Loop*> loops_;
  std::vector<Opnd> env_;
  std::vector<Fact> facts_; // what the branches around the code being emitted know
  // Variables' homes (register ids) that straight-line code has checked to
  // be immediates below a word (`idx {n} k`): a second `idx k` on the path,
  // or a `get` at that index, checks nothing. Forgotten where control flow
  // merges (mergeAt), when the home is bound anew, and at back edges (which
  // rewrite the homes); paths out of line that come back write no home.
  std::vector<std::pair<uint32_t, int64_t>> belowKnown_;
  std::vector<ParamFact> pfacts_;           // (entry_facts.hpp; none for a function with copies)
  bool useFacts_ = false;                   // (emitting the loop's version that knows the facts)
  Label plainGo_;                           // the top of the plain version
  std::vector<std::function<void()>> cold_; // the paths out of line, emitted after the body
};

// emit_function.cpp: the boxed entry of a module's root.
void entry(ModuleGen& m, x86::Assembler& a, TopId id, BaselineFn& fn);

} // namespace thorin::rt::baseline_gen
