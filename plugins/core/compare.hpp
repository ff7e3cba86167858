// The comparison operators of the core plugin, shared by its normalizers
// (elaboration time) and its run-time primitives.
#pragma once

namespace thorin::plug::core {

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

template <class T> bool compare(Cmp c, T a, T b) {
  switch (c) {
  case Cmp::Eq: return a == b;
  case Cmp::Ne: return a != b;
  case Cmp::Lt: return a < b;
  case Cmp::Le: return a <= b;
  case Cmp::Gt: return a > b;
  case Cmp::Ge: return a >= b;
  }
  return false;
}

} // namespace thorin::plug::core
