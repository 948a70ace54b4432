#pragma once

#include "model/snapshot.h"

namespace rocewatch {

// Appends every section of `part` (what one source read into its own snapshot)
// to `whole`. A new NodeSnapshot section must be added here too; the
// collector test on the fixtures catches a forgotten one.
void AppendSnapshot(NodeSnapshot& whole, NodeSnapshot&& part);

}  // namespace rocewatch
