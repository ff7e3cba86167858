// Interned names: every identifier is stored once; terms and values carry a
// 32-bit `Name` instead of a string.
#pragma once
#include <cstdint>
#include <string_view>

namespace thorin {

struct Name {
  uint32_t id = 0; // 0 is the empty name
  bool operator==(const Name&) const = default;
  explicit operator bool() const { return id != 0; }
};

/// Interns `s` (thread-safe enough for one elaboration thread at a time).
Name intern(std::string_view s);
std::string_view str(Name n);
/// Number of distinct names interned so far (names are dense: 0..count-1).
uint32_t nameCount();

namespace names {
extern const Name underscore; // "_"
extern const Name U;          // "U"
extern const Name Type;       // "Type"
} // namespace names

} // namespace thorin
