#include "toplevel.hpp"

#include "inspect.hpp"
#include "zonk.hpp"

#include "axiom.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "elab.hpp"
#include "eval.hpp"
#include "guard.hpp"
#include "literal.hpp"
#include "parser.hpp"
#include "pretty.hpp"
#include "unicode.hpp"

namespace thorin {

namespace fs = std::filesystem;

std::string formatSeconds(double s) {
  if (s < 1e-3) return fmt::format("{:.1f}µs", s * 1e6);
  if (s < 1.0) return fmt::format("{:.2f}ms", s * 1e3);
  return fmt::format("{:.3f}s", s);
}

void TopLevel::printError(const Error& e) {
  out_.flush();
  err_ << render(e);
  err_.flush();
}

// Runs `body` as a transaction on the world: on any failure the error is
// printed (while its source is still alive) and the world rolled back.
template <class F>
static bool transaction(World& w, TopLevel& tl, Span where, bool keep, F&& body) {
  auto snap = w.snapshot();
  auto failWith = [&](const std::string& msg, std::vector<std::string> notes = {}) {
    tl.printError(Error(Diagnostic{where, msg, std::move(notes)}));
    w.rollback(snap);
    return false;
  };
  try {
    body();
    if (!keep) w.rollback(snap);
    return true;
  } catch (Error& e) {
    tl.printError(e);
    w.rollback(snap);
    return false;
  } catch (DepthExceeded&) {
    return failWith("recursion depth limit exceeded while elaborating this entry",
                    {"the terms involved are too deep; THORIN_STACK_MB raises the limit"});
  } catch (Interrupted&) {
    return failWith("interrupted");
  } catch (std::bad_alloc&) {
    if (size_t limit = memoryLimit())
      return failWith(fmt::format("out of memory (thorin's limit: {} MB)", limit >> 20),
                      {"THORIN_MEMORY_MB raises the limit (0: none)"});
    return failWith("out of memory");
  } catch (std::exception& e) {
    return failWith(fmt::format("internal error: {}", e.what()));
  }
}

// `.import p`: the file p itself, or p with `.thorin` or `.stt` appended.
static std::string resolveImport(const fs::path& p) {
  std::string base = p.lexically_normal().string();
  std::error_code ec;
  for (const char* ext : {"", ".thorin", ".stt"})
    if (fs::is_regular_file(base + ext, ec)) return base + ext;
  // Missing: name the file the user most likely meant (and is to be watched).
  return p.has_extension() ? base : base + ".thorin";
}

static bool readFile(const std::string& path, std::string& out) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    errno = EISDIR;
    return false;
  }
  // Opened without blocking: a FIFO nobody writes to (a watched file swapped
  // for one) reads as empty instead of hanging; reads then block as usual.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } close{fd};
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  // In pieces, up to 1 GiB (positions in a source are 32 bits): /dev/zero or
  // a runaway generated file is an error, not an allocation that fails. A
  // file larger than the memory limit allows is the same error (ENOMEM).
  constexpr size_t kMax = size_t(1) << 30;
  out.clear();
  char buf[1 << 16];
  try {
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return false;
      if (n == 0) return true;
      out.append(buf, size_t(n));
      if (out.size() > kMax) {
        std::string().swap(out);
        errno = EFBIG;
        return false;
      }
    }
  } catch (std::bad_alloc&) {
    std::string().swap(out);
    errno = ENOMEM;
    return false;
  }
}

bool TopLevel::load(const std::vector<std::string>& files, Span from) {
  auto snap = w_.snapshot();
  attempted_.clear();
  for (auto& f : files)
    if (!loadFile(f, from)) {
      w_.rollback(snap);
      staging_.clear();
      return false;
    }
  for (auto& r : staging_)
    records_.push_back(std::move(r));
  staging_.clear();
  return true;
}

// Prelude and plugin files are shown by their name, not by a machine-specific path.
std::string TopLevel::shownPath(const std::string& path, bool prelude) const {
  std::string name = fs::path(path).filename().string();
  return !plugin_.empty() ? "<plugins>/" + plugin_ + "/" + name
         : prelude        ? "<prelude>/" + name
                          : path;
}

std::string watchPath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) return path;
  fs::path dir = fs::weakly_canonical(p.parent_path(), ec);
  return ec ? p.lexically_normal().string() : (dir / p.filename()).string();
}

bool TopLevel::loadFile(const std::string& path, Span from, bool prelude) {
  std::error_code ec;
  std::string canon = fs::weakly_canonical(fs::path(path), ec).string();
  if (ec) canon = path;
  if (!prelude) attempted_.push_back(watchPath(path));
  if (auto it = std::find(loading_.begin(), loading_.end(), canon); it != loading_.end()) {
    std::string cycle;
    for (auto i = it; i != loading_.end(); ++i)
      cycle += loadingShown_[size_t(i - loading_.begin())] + " → ";
    cycle += shownPath(path, prelude);
    printError(Error(Diagnostic{from, "import cycle: " + cycle, {}}));
    return false;
  }
  if (std::find(w_.loadedFiles.begin(), w_.loadedFiles.end(), canon) != w_.loadedFiles.end())
    return true;
  std::string text;
  if (!readFile(path, text)) {
    printError(Error(Diagnostic{
        from,
        fmt::format("cannot open file '{}': {}", unicode::visible(path), std::strerror(errno)),
        {}}));
    return false;
  }
  return loadSource(path, std::move(text), canon, prelude);
}

bool TopLevel::loadSource(const std::string& path, std::string text, const std::string& canon,
                          bool prelude) {
  std::error_code ec;
  std::string shown = shownPath(path, prelude);
  bool record = opts_.trackDependencies && !prelude;
  fs::path importBase = prelude ? fs::path(canon).parent_path() : fs::path(path).parent_path();
  // A reload of an unchanged file keeps its source (and so every position in it).
  // (Matched by name: a file that became a symlink to another is still this file.)
  std::string watched = record ? watchPath(path) : std::string();
  auto old = report_ ? old_.find(watched) : old_.end();
  const Source* src = old != old_.end() && old->second.rec->src->text == text
                          ? old->second.rec->src
                          : w_.addSource(shown, std::move(text));
  size_t file = staging_.size();
  if (record) staging_.push_back(FileRecord{canon, std::move(watched), src, {}});
  w_.loadedFiles.push_back(canon);
  loading_.push_back(canon);
  loadingShown_.push_back(shown);
  struct Pop {
    TopLevel& t;
    ~Pop() {
      t.loading_.pop_back();
      t.loadingShown_.pop_back();
    }
  } pop{*this};

  Arena syntax(64 * 1024);
  Parser parser(*src, syntax);
  double parseT = 0, elabT = 0;
  const bool timed = opts_.time && !prelude;
  std::optional<Entry> signature; // an Agda-style `x : A` waiting for `x = t`
  while (true) {
    if (!signature) syntax.clear(1 << 20); // (the signature's syntax must stay)
    Entry e;
    Timer t(timed);
    bool more;
    try {
      more = parser.next(e);
    } catch (Error& err) {
      printError(err);
      return false;
    }
    parseT += t.seconds();
    uint32_t begin = signature ? signature->span.begin : e.span.begin;
    if (!completeSignature(signature, more ? &e : nullptr)) return false;
    if (!more) break;
    if (e.kind == EntryKind::Signature) continue;
    if (e.kind == EntryKind::Import) {
      if (!loadFile(resolveImport(importBase / e.path), e.nameSpan, prelude)) return false;
      continue;
    }
    if (e.kind == EntryKind::Plugin) {
      if (!usePlugin(e.path, e.nameSpan)) return false;
      continue;
    }
    Timer te(timed);
    bool isDef = record && makesDefinitions(e.kind);
    Reuse reuse = isDef ? keepEntry(e, src, begin, file) : Reuse::NewText;
    if (reuse == Reuse::Kept) {
      walkEntry(e);
      elabT += te.seconds();
      continue;
    }
    std::vector<std::pair<uint32_t, int32_t>> lookups;
    if (isDef) w_.lookupLog = &lookups;
    uint32_t spansBegin = uint32_t(w_.spans.size());
    bool ok = runEntry(e, prelude);
    w_.lookupLog = nullptr;
    elabT += te.seconds();
    if (!ok) return false;
    if (isDef) recordEntry(e, begin, file, reuse == Reuse::SameText, lookups, spansBegin);
    if (report_ && isDef) walkEntry(e);
  }
  if (timed)
    out_ << fmt::format("{}: parsed in {}, elaborated in {}\n", src->path, formatSeconds(parseT),
                        formatSeconds(elabT));
  return true;
}

// `x : A` on its own is completed by the next entry `x = t`; anything else
// after it is an error at the signature.
bool TopLevel::completeSignature(std::optional<Entry>& sig, Entry* next) {
  if (next && next->kind == EntryKind::Clauses) {
    if (!sig || sig->name != next->name) {
      bool defined = lastClauses_ == next->name; // (the clauses just before an entry)
      printError(Error(Diagnostic{
          next->nameSpan,
          defined
              ? fmt::format("this clause of '{}' is separated from its signature and its "
                            "other clauses",
                            str(next->name))
              : fmt::format("the clauses of '{}' have no signature before them", str(next->name)),
          {defined ? std::string("the clauses of a function follow its signature, with no other "
                                 "entry between them")
                   : fmt::format("write `{} : type` on the line before the first clause",
                                 str(next->name))}}));
      if (sig) sig.reset();
      return false;
    }
    next->kind = EntryKind::Def; // (its term: the clauses, an RClauses)
    lastClauses_ = next->name;
  }
  if (sig) {
    if (next && next->kind == EntryKind::Def && next->name == sig->name && !next->ty) {
      next->ty = sig->ty;
      next->elabtime |= sig->elabtime;
      next->nftime |= sig->nftime;
      if (sig->filter || sig->filterAlways) {
        try {
          attachFilter(next->def, sig->filter, sig->filterAlways, sig->filterSpan);
        } catch (Error& err) {
          printError(err);
          return false;
        }
      }
      sig.reset();
      return true;
    }
    printError(Error(Diagnostic{
        sig->nameSpan,
        fmt::format("the signature of '{}' is not followed by its definition", str(sig->name)),
        {fmt::format("write `{0} = …` as the next entry, or `{0} : type = term`",
                     str(sig->name))}}));
    return false;
  }
  if (next && next->kind == EntryKind::Signature) sig = *next;
  return true;
}

bool TopLevel::runEntry(const Entry& e, bool prelude) {
  bool keep = makesDefinitions(e.kind);
  Timer t(!prelude); // (the prelude recurses little)
  bool ok = transaction(w_, *this, e.span, keep, [&] { elaborate(e, prelude); });
  // A long entry may have recursed deeply: give the touched stack pages back.
  if (t.seconds() > 0.01) releaseUnusedStack();
  return ok;
}

void TopLevel::elaborate(const Entry& e, bool prelude) {
  switch (e.kind) {
  case EntryKind::Def:
  case EntryKind::Postulate: define(e, prelude); break;
  case EntryKind::Data: defineData(e, prelude); break;
  case EntryKind::Mutual: defineMutual(e, prelude); break;
  case EntryKind::Check: showQuery(e.def, Show::Type); break;
  case EntryKind::Nf: showQuery(e.def, Show::NormalForm); break;
  case EntryKind::Eval: evalQuery(e.def); break;
  case EntryKind::Expr: showQuery(e.def, Show::Both); break;
  case EntryKind::Import: fail(e.span, ".import is only allowed in files (use :l at the prompt)");
  case EntryKind::Plugin: // loaded by loadSource, replEntry and replBlock

  case EntryKind::Clauses:   // (completed by completeSignature() too)
  case EntryKind::Signature: // completed by completeSignature() before elaboration
  case EntryKind::Other: break;
  }
}

void TopLevel::define(const Entry& e, bool prelude, int32_t declared) {
  w_.beginEntry();
  size_t firstMeta = w_.metas.size();
  Elab el(w_);
  Cxt c;
  Timer t(e.elabtime);
  Tm* ty;
  Tm* def = nullptr;
  const Axiom* axiom = nullptr;
  int32_t self = -1; // a definition with a signature is in scope in its own body
  int32_t shadowed = declared >= 0 ? -1 : w_.lookupTop(e.name);
  if (e.kind == EntryKind::Postulate) {
    bool isAxiom = declaresAxiom(e);
    ty = el.check(c, e.ty, vUniverse());
    el.finish();
    if (isAxiom) axiom = bindAxiom(e, ty);
  } else if (declared >= 0) { // (its signature, in a mutual block)
    self = declared;
    ty = w_.tops[TopId(self)].type;
    def = el.check(c, e.def, eval(w_, nullptr, ty));
  } else if (e.ty) {
    ty = el.check(c, e.ty, vUniverse());
    el.finish(); // (the body is checked against a type without open literals)
    TopEntry te;
    te.name = e.name;
    te.type = ty;
    te.span = e.nameSpan;
    te.prelude = prelude;
    self = int32_t(w_.addTop(std::move(te)));
    def = el.check(c, e.def, eval(w_, nullptr, ty));
  } else {
    auto [d, vty] = el.infer(c, e.def);
    def = d;
    ty = quote(w_, w_.perm, 0, vty, QuoteOpts{false, false});
  }
  el.requireSolved(firstMeta);
  TopId id;
  if (self >= 0) {
    id = TopId(self);
    w_.tops[id].def = def;
    w_.tops[id].stamp = ++w_.stamps;
    if (opts_.runner) opts_.runner->invalidate(w_, id); // it was a postulate until now
    w_.beginEntry(); // values cached while it was a postulate are stale
  } else {
    TopEntry te;
    te.name = e.name;
    te.type = ty;
    te.def = def;
    te.span = e.nameSpan;
    te.prelude = prelude;
    te.axiom = axiom;
    id = w_.addTop(std::move(te));
  }
  // A redefinition drops the old definition's compiled code (and its users').
  // (A reload drops the code of what it replaced when it commits.)
  if (shadowed >= 0 && opts_.runner && !report_) opts_.runner->invalidate(w_, TopId(shadowed));
  // In a plugin's file, `Nat = %core.Nat` names the axiom for printing.
  if (!plugin_.empty() && def && def->tag == TTag::Top && w_.tops[def->n].axiom)
    w_.tops[def->n].alias = int32_t(id);
  reportGoals(firstMeta, id);
  if (!el.warnings.empty()) {
    out_.flush();
    for (const Diagnostic& d : el.warnings)
      err_ << render(d);
    err_.flush();
  }
  if (e.elabtime)
    out_ << fmt::format("{} elaborated in {}\n", str(e.name), formatSeconds(t.seconds()));
  if (e.nftime && def) {
    w_.beginEntry();
    Timer tn;
    normalForm(def, eval(w_, nullptr, w_.tops[id].type));
    out_ << fmt::format("{} normalized in {}\n", str(e.name), formatSeconds(tn.seconds()));
  }
}

bool TopLevel::declaresAxiom(const Entry& e) {
  std::string_view name = str(e.name);
  if (name.empty() || name[0] != '%') return false; // an ordinary postulate
  std::string prefix = "%" + plugin_ + ".";
  if (plugin_.empty() || name.substr(0, prefix.size()) != prefix)
    fail(e.nameSpan,
         fmt::format("the axiom '{}' can only be declared in its plugin's own file", name),
         {"write `.ax x : A` for a postulate"});
  return true;
}

// The axiom's row: made here if the plugin's library has no code for it (a
// stuck constant, like a postulate); its arity is its declared type's Π
// binders, whatever the library assumed.
const Axiom* TopLevel::bindAxiom(const Entry& e, Tm* ty) {
  AxiomTable& table = AxiomTable::get();
  Axiom& a = table[table.intern(str(e.name), plugin_)];
  uint32_t arity = 0;
  for (Val* t = forceAll(w_, eval(w_, nullptr, ty)); t->tag == VTag::Pi;
       t = forceAll(w_, apply(w_, t, vUnused())))
    ++arity;
  if (a.declared && a.arity != arity && (a.norm || a.hasCode))
    fail(e.nameSpan,
         fmt::format("the axiom '{}' was declared with {} arguments before, and its code "
                     "assumes that many; now it has {}",
                     a.name, a.arity, arity),
         {"a plugin's axioms keep their types while thorin runs: restart it after changing them"});
  if (arity > kMaxAxiomArity && (a.norm || a.hasCode))
    fail(e.nameSpan,
         fmt::format("the axiom '{}' takes {} arguments; an axiom with code takes at most {}",
                     a.name, arity, kMaxAxiomArity),
         {"pass a pair or an array instead of the arguments beyond that"});
  a.arity = arity;
  a.declared = true;
  return &a;
}

bool TopLevel::usePlugin(const std::string& name, Span at) {
  PluginLoad found;
  try {
    if (!opts_.plugins) fail(at, "this thorin cannot load plugins");
    found = opts_.plugins->load(name);
  } catch (Error& err) {
    Diagnostic d = err.diags.front();
    if (!d.span.src) d.span = at;
    printError(Error(d));
    return false;
  }
  std::string outer = std::exchange(plugin_, name);
  bool ok = loadFile(found.file, at, true); // (once per world: loadedFiles)
  plugin_ = outer;
  if (!ok) return false;
  // A library built from another version of NAME.thorin.
  const AxiomTable& table = AxiomTable::get();
  for (AxiomId id : found.axioms) {
    int32_t top = w_.resolve(intern(table[id].name));
    if (top >= 0 && w_.tops[top].axiom) continue;
    printError(Error(Diagnostic{
        at,
        fmt::format("the library of the plugin '{}' has code for the axiom '{}', which {}.thorin "
                    "does not declare",
                    name, table[id].name, name),
        {"rebuild the plugin: its library and its .thorin file must come from the same sources"}}));
    return false;
  }
  return true;
}

// Is the head of a type (`Array` for `Array n String`) the builtin `b`?
static bool headIs(World& w, Val* v, Builtin b) {
  v = forceAll(w, v);
  return v->tag == VTag::Top && w.tops[v->n].axiom &&
         AxiomTable::get().is(w.tops[v->n].axiom->id, b);
}

void TopLevel::evalQuery(Raw* r) {
  w_.beginEntry();
  Elab el(w_);
  Cxt c;
  size_t firstMeta = w_.metas.size();
  auto [t, ty] = el.inferInsert(c, r);
  el.finish(); // (literals decided first: `pure 42` is an IO Nat)
  el.settleAction(c, ty);
  el.requireSolved(firstMeta);
  if (!opts_.runner) fail(r->span, "this thorin has no runtime evaluator");
  std::string s = opts_.runner->run(w_, t, ty, r->span);
  if (!(s.empty() && headIs(w_, ty, Builtin::IO))) out_ << s << "\n"; // (IO Unit: nothing)
}

static bool isArrayOfStrings(World& w, Val* v) {
  Val* f = forceAll(w, v);
  return headIs(w, f, Builtin::Array) && f->sp && f->sp->len == 2 &&
         headIs(w, f->sp->arg, Builtin::String);
}

// Applies `main` to the program's arguments: `main : {n : Nat} → Array n
// String → R` gets n and the arguments, `main : Array k String → R` exactly
// k arguments; any other main takes none.
static Tm* applyToArgs(World& w, Tm* t, Val*& ty, const std::vector<std::string>& args,
                       Span where) {
  auto app = [&](Tm* f, Tm* x, Icit i) {
    Tm* a = mkTm(w.scratch, TTag::App);
    a->a = f;
    a->b = x;
    a->icit = i;
    return a;
  };
  Val* f = forceAll(w, ty);
  if (f->tag == VTag::Pi && headIs(w, f->a, Builtin::Nat)) {
    Val* n = vLit(w, LitKind::Nat, args.size());
    Val* rest = forceAll(w, apply(w, f, n));
    if (rest->tag == VTag::Pi && isArrayOfStrings(w, rest->a)) {
      t = app(t, tmOfLit(w.scratch, n), f->icit);
      f = rest;
    }
  }
  if (f->tag == VTag::Pi && isArrayOfStrings(w, f->a)) {
    Val* len = forceAll(w, forceAll(w, f->a)->sp->prev->arg);
    if (len->tag != VTag::Lit || LitKind(len->n) != LitKind::Nat)
      fail(where, "main takes an array of arguments whose length is not known",
           {"declare `main : {n : Nat} → Array n String → …`"});
    if (len->bits != args.size())
      fail(where,
           fmt::format("main takes {} argument{}, but {} {} given", len->bits,
                       len->bits == 1 ? "" : "s", args.size(), args.size() == 1 ? "was" : "were"));
    Tm* arr = mkTm(w.scratch, TTag::Arr);
    arr->n = uint32_t(args.size());
    arr->elems = w.scratch.array<Tm*>(args.size());
    for (size_t i = 0; i < args.size(); ++i)
      arr->elems[i] = tmOfLit(w.scratch, vStr(w, args[i]));
    t = app(t, arr, f->icit);
    ty = apply(w, f, eval(w, nullptr, arr));
    return t;
  }
  if (!args.empty())
    fail(where,
         fmt::format("main takes no arguments, but {} {} given", args.size(),
                     args.size() == 1 ? "was" : "were"),
         {"declare `main : {n : Nat} → Array n String → …` to receive them"});
  ty = f;
  return t;
}

bool TopLevel::evalMain(TopId id, const std::vector<std::string>& args) {
  const TopEntry& e = w_.tops[id];
  return transaction(w_, *this, e.span, false, [&] {
    w_.beginEntry();
    if (!opts_.runner) fail(e.span, "this thorin has no runtime evaluator");
    Tm* t = mkTm(w_.scratch, TTag::Top);
    t->n = id;
    Val* ty = w_.topType(id);
    t = applyToArgs(w_, t, ty, args, e.span);
    // A program's output: a String prints as its text, a Unit not at all.
    std::string s = opts_.runner->run(w_, t, ty, e.span, true);
    if (!headIs(w_, ty, Builtin::Unit) && !(s.empty() && headIs(w_, ty, Builtin::IO)))
      out_ << s << "\n";
  });
}

// A REPL input, numbered from the line the REPL says it starts on.
const Source* TopLevel::interactiveSource(const char* origin, const std::string& text,
                                          uint32_t from) {
  return w_.addSource(origin, text, inputLine_, from);
}

bool TopLevel::residualQuery(const std::string& text, uint32_t from) {
  auto snap = w_.snapshot();
  const Source* src = interactiveSource("<interactive>", text, from);
  Arena syntax(16 * 1024);
  Parser parser(*src, syntax);
  bool ok = transaction(w_, *this, Span{src, src->lexFrom, uint32_t(src->text.size())}, true, [&] {
    Raw* r = parser.wholeTerm();
    std::vector<RApp*> apps;
    while (r->kind == RKind::App) {
      apps.push_back(static_cast<RApp*>(r));
      r = static_cast<RApp*>(r)->fn;
    }
    int32_t id = r->kind == RKind::Var ? w_.lookupTop(static_cast<RVar*>(r)->name) : -1;
    if (id < 0 || !w_.tops[id].def)
      fail(r->span, "expected the name of a definition, then its arguments (`_`: dynamic)",
           {"for example :residual pow _ 3"});
    if (!opts_.runner) fail(r->span, "this thorin has no runtime");
    w_.beginEntry();
    Elab el(w_);
    Cxt c;
    size_t firstMeta = w_.metas.size();
    Val* ty = w_.topType(TopId(id));
    struct Static {
      Tm* t; // nullptr: dynamic
      Lvl lvl;
      Span span;
    };
    std::vector<Static> given;
    struct Inferred {
      MetaId m;
      Name name;
      Span span;
    };
    std::vector<Inferred> inferred;
    auto stat = [&](Tm* t, Span span, Val* f) {
      given.push_back({t, c.lvl, span});
      ty = apply(w_, f, eval(w_, c.env, t));
    };
    for (size_t i = apps.size(); i-- > 0;) {
      RApp* a = apps[i];
      Val* f = forceAll(w_, ty);
      // Implicit parameters are inferred, as in an application (or given
      // as `{A}`): `:residual sumA [1, 2, 3] 0` for `{n : Nat} → Array n I64 → …`.
      while (f->tag == VTag::Pi && f->icit == Icit::Impl && a->info.icit == Icit::Expl) {
        Tm* m = el.freshMeta(c, f->a, a->arg->span, MetaOrigin{MetaOrigin::Implicit, f->name});
        inferred.push_back({m->n, f->name, a->arg->span});
        stat(m, a->arg->span, f);
        f = forceAll(w_, ty);
      }
      if (f->tag != VTag::Pi) fail(a->arg->span, "this argument is one too many");
      if (f->icit != a->info.icit)
        fail(a->arg->span, "unexpected implicit argument: the function expects an explicit one",
             {"the function's type: " + el.showVal(c, ty)});
      if (a->arg->kind == RKind::Hole) {
        given.push_back({nullptr, c.lvl, a->arg->span});
        Val* x = w_.var(c.lvl);
        c = el.bind(c, f->name, f->a);
        ty = apply(w_, f, x);
        continue;
      }
      stat(el.check(c, a->arg, f->a), a->arg->span, f);
    }
    el.finish();
    for (const Inferred& i : inferred)
      if (!w_.metas[i.m].solution)
        fail(i.span,
             fmt::format("the implicit argument {{{}}} is not determined by the static arguments",
                         str(i.name)),
             {"give it before this argument, e.g. {3}, or make it dynamic: {_}"});
    el.requireSolved(firstMeta);
    std::vector<Tm*> args;
    for (const Static& g : given) {
      Tm* t = g.t ? zonk(w_, w_.scratch, g.t, g.lvl) : nullptr;
      for (Ix ix = 0; t && ix < g.lvl; ++ix)
        if (freeIn(t, ix)) fail(g.span, "a static argument cannot depend on a dynamic one");
      args.push_back(t);
    }
    out_ << opts_.runner->residual(w_, TopId(id), args) << "\n";
  });
  if (ok) w_.rollback(snap);
  return ok;
}

// By running code when the runtime can (runtime/readback.cpp), else by the evaluator.
Tm* TopLevel::normalForm(Tm* t, Val* ty) {
  if (opts_.runner)
    if (Tm* nf = opts_.runner->normalize(w_, w_.scratch, t, ty)) return nf;
  return normalize(w_, w_.scratch, 0, nullptr, t);
}

void TopLevel::showQuery(Raw* r, Show what) {
  w_.beginEntry();
  Elab el(w_);
  Cxt c;
  size_t firstMeta = w_.metas.size();
  // No implicit insertion at the top: `.check id` shows id's own type.
  auto [t, ty] = el.infer(c, r);
  el.finish();
  // An action typed at the prompt runs, as in GHCi (its result printed
  // unless it is Unit).
  if (what == Show::Both && opts_.runner && el.settleAction(c, ty)) {
    el.requireSolved(firstMeta);
    std::string s = opts_.runner->run(w_, t, ty, r->span);
    if (!s.empty()) out_ << s << "\n";
    return;
  }
  el.finish();
  std::string tyStr = show(w_, quote(w_, w_.scratch, 0, ty));
  switch (what) {
  case Show::Type: out_ << show(r) << " : " << tyStr << "\n"; break;
  case Show::NormalForm: out_ << show(w_, normalForm(t, ty)) << "\n"; break;
  case Show::Both: out_ << show(w_, normalForm(t, ty)) << " : " << tyStr << "\n"; break;
  case Show::Eval: break;
  }
}

bool TopLevel::replInput(const std::string& text, bool* incomplete, bool* awaitsDefinition) {
  auto snap = w_.snapshot();
  const Source* src = interactiveSource("<interactive>", text);
  Arena syntax(16 * 1024);
  Parser parser(*src, syntax);
  Entry e;
  try {
    parser.replInput(e);
  } catch (Error& err) {
    if (incomplete && err.incomplete) {
      *incomplete = true;
      if (awaitsDefinition) *awaitsDefinition = err.awaitsDefinition;
    } else {
      printError(err);
    }
    w_.rollback(snap);
    return false;
  }
  if (e.kind == EntryKind::Other) {
    w_.rollback(snap);
    return true;
  }
  if (e.kind == EntryKind::Import) // (the input stays: an error points into it)
    return load({resolveImport(e.path)}, e.nameSpan);
  if (e.kind == EntryKind::Plugin) { // (all or nothing, as a load)
    bool ok = usePlugin(e.path, e.nameSpan);
    if (!ok) w_.rollback(snap);
    return ok;
  }
  bool keep = makesDefinitions(e.kind);
  bool ok = transaction(w_, *this, e.span, true, [&] { elaborate(e, false); });
  if (ok && !keep) w_.rollback(snap);
  return ok;
}

bool TopLevel::replBlock(const std::string& text, bool* incomplete) {
  // Several entries under the layout rule, as in a file; all or nothing.
  auto snap = w_.snapshot();
  const Source* src = interactiveSource("<interactive>", text);
  Arena syntax(16 * 1024);
  Parser parser(*src, syntax);
  std::optional<Entry> signature;
  while (true) {
    Entry e;
    bool more;
    try {
      more = parser.next(e);
    } catch (Error& err) {
      if (incomplete && err.incomplete)
        *incomplete = true;
      else
        printError(err);
      w_.rollback(snap);
      return false;
    }
    if (!more && signature && incomplete) { // (its definition is yet to come)
      *incomplete = true;
      w_.rollback(snap);
      return false;
    }
    if (!completeSignature(signature, more ? &e : nullptr)) {
      w_.rollback(snap);
      return false;
    }
    if (!more) return true;
    if (e.kind == EntryKind::Signature) continue;
    if (e.kind == EntryKind::Import) {
      printError(Error(Diagnostic{e.span, ".import is not allowed in a :{ block (use :l)", {}}));
      w_.rollback(snap);
      return false;
    }
    if (e.kind == EntryKind::Plugin) {
      if (!usePlugin(e.path, e.nameSpan)) {
        w_.rollback(snap);
        return false;
      }
      continue;
    }
    bool keep = makesDefinitions(e.kind);
    auto inner = w_.snapshot();
    bool ok = transaction(w_, *this, e.span, true, [&] { elaborate(e, false); });
    if (!ok) {
      w_.rollback(snap);
      return false;
    }
    if (!keep) w_.rollback(inner);
  }
}

// The term in `text` (from `from`) given to `body`, in a transaction rolled
// back afterwards: a query leaves the world as it was.
bool TopLevel::onTerm(const std::string& text, const char* origin, uint32_t from,
                      const std::function<void(Raw*)>& body) {
  auto snap = w_.snapshot();
  const Source* src = interactiveSource(origin, text, from);
  Arena syntax(16 * 1024);
  Parser parser(*src, syntax);
  bool ok = transaction(w_, *this, Span{src, src->lexFrom, uint32_t(src->text.size())}, true,
                        [&] { body(parser.wholeTerm()); });
  if (ok) w_.rollback(snap);
  return ok;
}

bool TopLevel::query(const std::string& text, Show what, const char* origin, uint32_t from) {
  return onTerm(text, origin, from, [&](Raw* r) {
    if (what == Show::Eval)
      evalQuery(r);
    else
      showQuery(r, what);
  });
}

bool TopLevel::inspect(const std::string& text, const Inspector& i, const char* origin,
                       uint32_t from) {
  return onTerm(text, origin, from, [&](Raw* r) {
    w_.beginEntry();
    Elab el(w_);
    Cxt c;
    auto [t, ty] = el.infer(c, r);
    el.finish();
    Val* v = forceAll(w_, eval(w_, nullptr, normalForm(t, ty)));
    std::string error;
    auto shown = i.show(w_, v, error);
    if (!shown) fail(r->span, error);
    out_ << *shown;
  });
}

} // namespace thorin
