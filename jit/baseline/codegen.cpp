// The baseline tier's code generation (codegen.hpp): a module's functions,
// each emitted twice (first into a scratch buffer, for its frame), and the
// root's boxed entry. The generator is FnGen (fn_gen.hpp).
#include "codegen.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fn_gen.hpp"

namespace thorin::rt {

using namespace asmjit;
using baseline_gen::FnGen;
using baseline_gen::FrameNeeds;
using baseline_gen::ModuleGen;
using baseline_gen::Unsupported;

namespace {

// Where the generator refused (THORIN_BASELINE_ASM): its file and line.
std::string where(const Unsupported& u) {
  const char* slash = std::strrchr(u.file, '/');
  return std::string(slash ? slash + 1 : u.file) + ":" + std::to_string(u.line);
}

} // namespace

bool generateBaseline(Runtime& rt, CodeHolder& code, TopId root, const ExistingSlot& existing,
                      BaselineModuleCode& out) {
  // A function the generator refuses (a construct it does not compile) is
  // called through the runtime by the others: each refusal starts the
  // module again without it. First each function into a scratch buffer,
  // for its frame (copies whose intermediate values outnumber the registers
  // are fewer), then all of them for real.
  std::unordered_set<TopId> refused;
  for (;;) {
    out = BaselineModuleCode{};
    ModuleGen m{rt, existing, out, refused, {}, {}, {}, {}};
    std::vector<std::pair<FrameNeeds, uint32_t>> frames;
    TopId at = root;
    try {
      m.slotOf(root);
      for (size_t i = 0; i < m.todo.size(); ++i) {
        at = m.todo[i];
        uint32_t unroll = UINT32_MAX;
        for (;;) {
          CodeHolder scratch;
          scratch.init(code.environment());
          x86::Assembler sa(&scratch);
          FnGen first(m, sa, at, nullptr, unroll);
          try {
            BaselineFn ignored;
            first.emit(ignored);
            frames.push_back({first.needs(), first.unroll()});
            break;
          } catch (Unsupported&) {
            if (first.unroll() == 0) throw;
            unroll = first.unroll() - 1;
          }
        }
      }
    } catch (Unsupported& u) {
      if (std::getenv("THORIN_BASELINE_ASM"))
        std::fprintf(stderr, "baseline: %s unsupported (%s)\n", rt.nameOf(at).c_str(),
                     where(u).c_str());
      if (at == root) return false;
      refused.insert(at);
      continue;
    }
    try {
      x86::Assembler a(&code);
      for (size_t i = 0; i < m.todo.size(); ++i) {
        TopId id = m.todo[i];
        FnGen gen(m, a, id, &frames[i].first, frames[i].second);
        BaselineFn fn;
        gen.emit(fn);
        out.workers.push_back({id, std::move(fn)});
      }
      entry(m, a, root, out.entry);
    } catch (Unsupported& u) {
      if (std::getenv("THORIN_BASELINE_ASM"))
        std::fprintf(stderr, "baseline: unsupported (%s)\n", where(u).c_str());
      return false;
    }
    return true;
  }
}

} // namespace thorin::rt
