// The cell table (runtime/cell_table.hpp): cells start empty, never move,
// live at the fixed address when it is free (one table per process), and
// past the region in a deque.
#include <doctest/doctest.h>

#include <cstdint>

#include "runtime/cell_table.hpp"

using namespace thorin::rt;

TEST_CASE("cells start empty and never move") {
  CellTable t;
  CHECK(t.epoch() == 1);
  GlobalCell* first = &t.at(0);
  GlobalCell* far = &t.at(100000); // (a later chunk)
  CHECK(first->valueEpoch == 0);
  CHECK(first->value == 0);
  CHECK(!far->entry);
  far->value = 42;
  for (size_t i = 0; i < 5000; ++i)
    t.at(i).valueEpoch = i + 1;
  CHECK(&t.at(0) == first);
  CHECK(&t.at(100000) == far);
  CHECK(t.at(100000).value == 42);
  CHECK(t.at(4999).valueEpoch == 5000);
  CHECK(reinterpret_cast<char*>(&t.at(1)) - reinterpret_cast<char*>(&t.at(0)) ==
        sizeof(GlobalCell));
}

TEST_CASE("one table at the fixed address; the next elsewhere, and the address is free again") {
  bool firstStable;
  uintptr_t firstAt;
  {
    CellTable a;
    firstStable = a.stable();
    firstAt = reinterpret_cast<uintptr_t>(&a.epoch());
    CellTable b;
    CHECK_FALSE(b.stable());
    CHECK(reinterpret_cast<uintptr_t>(&b.epoch()) != firstAt);
    ++b.epoch();
    CHECK(a.epoch() == 1);
  }
  CellTable c;
  CHECK(c.stable() == firstStable);
  if (firstStable) {
    CHECK(reinterpret_cast<uintptr_t>(&c.epoch()) == firstAt);
    CHECK(firstAt == 0x5e0000000000);
  }
}

TEST_CASE("past the region: a deque, cells still stable") {
  CellTable t;
  size_t beyond = (size_t(1) << 21) + 3;
  GlobalCell* c = &t.at(beyond);
  c->value = 7;
  t.at(beyond + 1000).value = 8;
  CHECK(&t.at(beyond) == c);
  CHECK(t.at(beyond).value == 7);
  CHECK(t.at(beyond + 1000).value == 8);
}
