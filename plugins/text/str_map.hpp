// The text plugin's map from strings (`StrMap A`): a hash table in one array
// of words, updated in place when nothing else refers to it.
#pragma once

namespace thorin::plug::text {

/// Binds the `%text.map.*` axioms to their run-time code.
void registerStrMap();

} // namespace thorin::plug::text
