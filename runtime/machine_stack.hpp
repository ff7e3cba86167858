// A stack of words outside the collected heap that the collector scans up
// to its top: the interpreter's continuations and pending arguments
// (Runtime::eval). Its memory is a mapping grown by mremap (pages move, no
// copy; only what is used counts against THORIN_MEMORY_MB), so a recursion
// 10⁷ deep costs its depth in these stacks, not in the C++ stack.
#pragma once
#include <cstddef>
#include <type_traits>

#include "gc.hpp"

namespace thorin::rt {

/// The untyped part: a mapping of `cap_` bytes, `used_` of them in use.
class MachineStackBytes {
public:
  MachineStackBytes();
  ~MachineStackBytes();
  MachineStackBytes(const MachineStackBytes&) = delete;
  MachineStackBytes& operator=(const MachineStackBytes&) = delete;

protected:
  /// Room for `bytes` more (throws std::bad_alloc when the mapping cannot grow).
  void reserve(size_t bytes);

public:
  /// Gives the mapping back when the stack is empty (after a run: a
  /// recursion 10⁷ deep left hundreds of MB resident).
  void release();

protected:
  char* base_ = nullptr;
  size_t used_ = 0, cap_ = 0;
  gc::RootRange range_{reinterpret_cast<void**>(&base_), &used_};
};

template <class T> class MachineStack : public MachineStackBytes {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % sizeof(void*) == 0);

public:
  size_t size() const { return used_ / sizeof(T); }
  T* data() { return reinterpret_cast<T*>(base_); }
  T& back() { return data()[size() - 1]; }
  void push_back(const T& x) {
    if (used_ + sizeof(T) > cap_) [[unlikely]]
      reserve(sizeof(T));
    *reinterpret_cast<T*>(base_ + used_) = x;
    used_ += sizeof(T);
  }
  void pop_back() { used_ -= sizeof(T); }
  /// Drops the elements from n on (n ≤ size()).
  void shrink(size_t n) { used_ = n * sizeof(T); }
};

} // namespace thorin::rt
