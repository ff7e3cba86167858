// The io plugin's elaboration side: no normalizer at all (an action is an
// inert value to elaboration: nothing it runs performs an effect), only the
// roles by which core knows `IO`, `pure` and `bind` (`do` blocks, and a
// program's `main : IO Unit`).
#include "core/axiom.hpp"
#include "io_axioms.hpp"

namespace thorin::plug::io {

void normalizers() {
  AxiomTable& t = AxiomTable::get();
  t.setBuiltin(Builtin::IO, id(ax::IO));
  t.setBuiltin(Builtin::IOPure, id(ax::pure));
  t.setBuiltin(Builtin::IOBind, id(ax::bind));
}

} // namespace thorin::plug::io
