#pragma once

// The metric contract: what the exporter's MetricSpec tables say, written out for the code and
// the docs that cannot link the exporter. `roce_exporter metrics-contract` (a build tool, not
// in --help) writes two things from the same families:
//   header FILE       roce-lint's lint/metric_contract.h: every family's name and every label
//                     key as a constant, and each family's type, collector and label keys, so
//                     that a lint check names a family or a label only through it and a
//                     renamed metric or label fails roce-lint's build;
//   docs FILE         the tables of docs/metrics.md between `<!-- metrics-contract: NAME -->`
//                     and `<!-- /metrics-contract -->`, rewritten in place: one per collector
//                     (name, type, labels) and NAME `served` (each family's Served and detail);
//   check-docs FILE   the same, writing nothing: fails, naming the first difference, when the
//                     file's tables are not what `docs` would write.
// A collector table's "meaning" cell is prose and stays as written (a family without one gets
// its help); the served table's series counts are measured (bench/series_per_nic.py
// --families) and stay as written too.

#include <string>
#include <string_view>
#include <vector>

#include "exporter/metrics/spec.h"
#include "rocewatch/result.h"

namespace rocewatch::cli {

struct ContractFamily {
  const metrics::MetricSpec* spec = nullptr;
  std::string_view collector;  // the collector that serves it, or "exporter"
};

// Every family the exporter declares, in declaration order (collectors as all.h lists them,
// then the exporter's own series).
std::vector<ContractFamily> ContractFamilies();

// The text of lint/metric_contract.h; an error names a family declared twice or a name or
// label that is not a C++ identifier.
Result<std::string> ContractHeader(const std::vector<ContractFamily>& families);

// `markdown` with every contract table written from `families`; an error names the line of
// a marker left open, a collector no marker names or one named twice.
Result<std::string> WithContractTables(std::string_view markdown,
                                       const std::vector<ContractFamily>& families);

int RunMetricsContract(int argc, const char* const* argv);

}  // namespace rocewatch::cli
