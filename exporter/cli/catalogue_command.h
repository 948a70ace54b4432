#pragma once

namespace rocewatch::cli {

// `roce_exporter catalogue`: prints every metric family the exporter can serve (each
// collector's spec table and the exporter's own series) as JSON — the machine-readable
// catalogue checked in as docs/metrics.json, which docs/metrics.md, roce-lint's metric names,
// the dashboards and the rules are checked against.
int RunCatalogue(int argc, const char* const* argv);

}  // namespace rocewatch::cli
