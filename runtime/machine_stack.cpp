#include "machine_stack.hpp"

#include <sys/mman.h>

#include <new>

namespace thorin::rt {

MachineStackBytes::MachineStackBytes() { gc::addRootRange(&range_); }

MachineStackBytes::~MachineStackBytes() {
  gc::removeRootRange(&range_);
  if (base_) munmap(base_, cap_);
}

void MachineStackBytes::release() {
  if (used_ || !base_) return;
  munmap(base_, cap_);
  base_ = nullptr;
  cap_ = 0;
}

void MachineStackBytes::reserve(size_t bytes) {
  size_t want = cap_ ? cap_ : size_t(64) << 10;
  while (want < used_ + bytes)
    want *= 2;
  void* p = base_ ? mremap(base_, cap_, want, MREMAP_MAYMOVE)
                  : mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  base_ = static_cast<char*>(p);
  cap_ = want;
}

} // namespace thorin::rt
