#pragma once

// NodeSnapshot: everything one collection pass read from the kernel, as plain
// structs in base units. Sources fill it (each its own section); the metrics
// step turns it into families. Neither side knows the other (docs/design.md#one-scrape-is-one-snapshot).
// The sections are the registered collectors' (collectors/all.h): a new
// collector brings its own and this file does not change.

#include <string>
#include <vector>

#include "exporter/collectors/all.h"
#include "exporter/model/section.h"

namespace rocewatch {

// How one source fared in this collection (docs/design.md#one-scrape-is-one-snapshot: each source reports its
// own success and duration; one broken device never fails the scrape).
struct SourceStatus {
  std::string name;
  bool success = true;
  double duration_seconds = 0;
  double parse_errors_total = 0;   // cumulative since start
  double unavailable_values = 0;   // "N/A (no PMA)" and the like, this collection
  double vanished_total = 0;       // devices/attributes that disappeared mid-read, cumulative
  std::vector<std::string> errors;  // this collection's errors, for the log
  bool rediscover = false;          // something vanished: walk the tree again next time
};

struct NodeSnapshot : SectionsOf<collectors::All> {
  std::vector<SourceStatus> sources;
  double collection_seconds = 0;
};

// Appends every section of `part` (what one source read into its own snapshot)
// to `whole`.
inline void AppendSnapshot(NodeSnapshot& whole, NodeSnapshot&& part) {
  whole.AppendSections(std::move(part));
}

}  // namespace rocewatch
