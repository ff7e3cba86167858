// The baseline tier's lowerings of the NAME plugin: which machine operation
// it emits for an axiom (the tier selects instructions and registers).
#include "NAME_axioms.hpp"
#include "jit/baseline/baseline_lowering.hpp"

namespace thorin::plug::NAME {

void baseline() { rt::registerBaselineLowering(id(ax::i64_diff), {rt::BaselineOp::Sub}); }

} // namespace thorin::plug::NAME
