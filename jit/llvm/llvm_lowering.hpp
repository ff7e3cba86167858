// LLVM lowerings of axioms for machine-typed code: a plugin registers, per
// axiom name, how to emit it on unboxed operands (`%core.i64.add` → `add`).
#pragma once
#include <functional>
#include <iosfwd>
#include <string_view>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "core/axiom.hpp"
#include "plugin_lowering.h"
#include "runtime/primitive.hpp"

namespace thorin::rt {

struct ETm;

struct LowerCx {
  llvm::IRBuilder<>& b;
  llvm::FunctionCallee fail; // void(const char* msg, i32 span), does not return
  uint32_t span;             // for run-time errors
};
using Lowering = llvm::Value* (*)(LowerCx& cx, const std::vector<llvm::Value*>& args);

/// A machine-typed axiom's lowering: one in the module (C++ API) or a
/// plugin's in a library of its own (LLVM's C API, plugin_lowering.h).
struct LoweringFn {
  Lowering cpp = nullptr;
  ThorinLowering c = nullptr;
  explicit operator bool() const { return cpp || c; }
  llvm::Value* operator()(LowerCx& cx, const std::vector<llvm::Value*>& args) const;
};

void registerLowering(AxiomId axiom, Lowering l);
LoweringFn findLowering(AxiomId axiom);

/// A static plugin's LLVM half compiled into the module (a file generated
/// by thorin_add_plugin(NAME STATIC) makes one at the module's load).
struct InModuleLowerings {
  InModuleLowerings(const char* plugin, void (*reg)());
};
/// Registers the LLVM halves of the plugins the executable loaded since the
/// last call (runtime/primitive.hpp, pluginCode): those in the module, and
/// those in libraries of their own, loaded now. A half that fails to load
/// is reported on `err` once (its axioms are then called, not inlined).
void syncPluginLowerings(std::ostream& err);

/// A fast path on words (`Nat` additions of immediates, array indexing):
/// `slow` calls the primitive's run-time implementation for the rest.
///
/// `hint` is the machine type the primitive's first argument names when that
/// argument is an erased type (`get {F64} …`); a lowering may then return a
/// machine-typed value instead of a word by setting `result`, using `unbox`
/// on words it gets from `slow`.
struct WordCx {
  llvm::IRBuilder<>& b;
  llvm::FunctionCallee fail;
  uint32_t span;
  std::function<llvm::Value*(const std::vector<llvm::Value*>&)> slow;
  MType hint = MType::None;
  /// The first argument is a type known where this code was written (not a
  /// variable of a polymorphic function): `hint` is its machine type, None
  /// for any other type.
  bool concreteType = false;
  MType result = MType::None;
  std::function<llvm::Value*(llvm::Value*, MType)> unbox = {};
  /// Set when this code may speculate: emits a call that leaves compiled
  /// code for good (a Deopt, see rt.hpp). A lowering may then replace a slow
  /// path that joins the fast one by this exit, so that what the fast path's
  /// test established holds after it (LLVM drops later checks, keeps loops
  /// tight).
  std::function<void(DeoptReason)> deopt = {};
  /// For a parameter of a worker (a loop φ), emits a check on the value it
  /// had on entry, before the loop — what LLVM cannot hoist itself, not
  /// knowing that a word points to memory (an array's header). `cond` gets
  /// a builder there and that value; false deoptimizes. Other values: nothing.
  /// `facts` then runs where the check passed (e.g. to tell LLVM, with an
  /// assumption, what the check established).
  using EntryCheck = std::function<llvm::Value*(llvm::IRBuilder<>&, llvm::Value*)>;
  using EntryFacts = std::function<void(llvm::IRBuilder<>&, llvm::Value*)>;
  /// `key` names the check: one with the same key on the same parameter is
  /// not emitted twice. True if the check is there (made now or before).
  std::function<bool(llvm::Value*, uint64_t key, const EntryCheck&, DeoptReason, const EntryFacts&)>
      deoptAtEntry = {};
  /// A lowering registered with `typedArgs` gets each argument in the
  /// machine type it was computed in (argTypes; None: a word), so that an
  /// F64 stored into a raw array is never boxed; `box` makes the word the
  /// primitive wants on the slow path.
  std::vector<MType> argTypes = {};
  std::function<llvm::Value*(llvm::Value*, MType)> box = {};
  /// Marks a word shared (runtime/share.hpp) before it is stored in the heap.
  std::function<llvm::Value*(llvm::Value*)> share = {};
  /// The erased terms of the arguments, and what one is when it is known
  /// where this code is compiled: a constant definition's erased body for a
  /// global (followed through aliases), the term itself otherwise (the
  /// regex plugin reads a pattern literal there).
  std::vector<const ETm*> terms = {};
  /// The function whose code this is (its code is dropped with it: a
  /// plugin may tie what it makes for the code to it, codeDropped).
  uint32_t owner = 0;
  std::function<const ETm*(const ETm*)> known = {};
};
using WordLowering = llvm::Value* (*)(WordCx& cx, const std::vector<llvm::Value*>& args);

void registerWordLowering(AxiomId axiom, WordLowering l, bool typedArgs = false);
/// Registered with typed arguments (WordCx::argTypes).
bool wordLoweringTypedArgs(AxiomId axiom);

/// `cond ? fast() : slow()` with `cond` expected true (branch weights), the
/// two results joined by a φ. Each side may create blocks of its own.
/// `yes()` where cond holds, else `no()`, joined (`yesLikely`: weighted so).
llvm::Value* ifElse(llvm::IRBuilder<>& b, llvm::Value* cond,
                    const std::function<llvm::Value*()>& yes,
                    const std::function<llvm::Value*()>& no, bool yesLikely = false);
llvm::Value* likelyOr(llvm::IRBuilder<>& b, llvm::Value* cond,
                      const std::function<llvm::Value*()>& fast,
                      const std::function<llvm::Value*()>& slow);
WordLowering findWordLowering(AxiomId axiom);

/// Code continues where `cond` holds; where it does not, `exit()` runs and
/// must not return (a deoptimization, a run-time error).
void expectOr(llvm::IRBuilder<>& b, llvm::Value* cond, const std::function<void()>& exit);

} // namespace thorin::rt
