// What both fuzz targets share: the start-up of `thorin` (plugins
// registered), and one input loaded as a file by a fresh Session, on the
// large elaboration stack, with its output discarded.
#pragma once
#include <cstddef>
#include <cstdint>

namespace thorin::rt {
class Runtime;
}

namespace thorin::fuzz {

/// Once per process: registers the plugins as `thorin` does at start-up.
void startUp();

/// Writes the input to a file and loads it (prelude included) into a new
/// Session, as `thorin check FILE` does; `.eval`s run on `runtime` (nullptr:
/// they are errors, nothing runs). A load that takes longer than
/// `seconds` is interrupted (as by Ctrl-C). Returns whether it loaded.
bool loadInput(const uint8_t* data, size_t size, rt::Runtime* runtime, double seconds);

} // namespace thorin::fuzz
