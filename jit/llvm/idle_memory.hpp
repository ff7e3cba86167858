// Memory the LLVM tier holds only while it compiles, given back when it has
// been idle a while: LLVM's code and read-only data (the pages of this
// module's image that compiling touched: about 30 MB, which the kernel reads
// again from the page cache on the next compilation) and the allocator's
// free pages (mimalloc keeps what LLVM freed). A program that compiled its
// hot functions early then runs with that much less resident memory.
#pragma once

namespace thorin::rt {

/// Gives back the pages above. Safe while other threads run: the code's
/// pages fault in again when used.
void releaseIdleMemory();

} // namespace thorin::rt
