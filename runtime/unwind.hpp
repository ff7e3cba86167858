#pragma once
// The unwinder that C++ exceptions thrown by thorin's runtime use. Code the
// JITs emit (baseline and LLVM) registers its .eh_frame here, so that errors,
// Ctrl-C and stack overflow unwind through it. Outside sanitizer builds the
// executable links libgcc's unwinder statically (loading libgcc_s.so cost
// ~0.1 ms of every start), so the LLVM module, which has its own copy, must
// register through these.

namespace thorin::rt {
/// `ehFrame`: a whole .eh_frame section, ended by a zero word.
void registerUnwindInfo(void* ehFrame);
void deregisterUnwindInfo(void* ehFrame);
} // namespace thorin::rt
