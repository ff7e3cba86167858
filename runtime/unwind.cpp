#include "unwind.hpp"

// libgcc's unwinder: registers the .eh_frame data of code it did not load.
extern "C" void __register_frame(void*);
extern "C" void __deregister_frame(void*);

namespace thorin::rt {
void registerUnwindInfo(void* ehFrame) { __register_frame(ehFrame); }
void deregisterUnwindInfo(void* ehFrame) { __deregister_frame(ehFrame); }
} // namespace thorin::rt
