#pragma once

// `roce-lint verify`'s reports, like `check`'s: text (a per-pair table, then every failed
// verdict; English or Chinese), JSON (schema_version 1) and JUnit XML (one test case per pair).
// Every text from the plan or a node passes escape::TerminalText (text) or the XML escape.

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "lint/report/node_report.h"
#include "lint/verify/judge.h"

namespace rocewatch::lint::verify {

inline constexpr int kVerifyJsonSchemaVersion = 1;

struct VerifyRunInfo {
  std::string plan;                   // the plan file
  std::string tool;                   // ib_write_bw
  double duration_seconds = 0;
  std::vector<std::string> unpaired;  // NICs left without a partner, and why
};

void WriteVerifyText(std::ostream& out, const std::vector<PairResult>& results,
                     const VerifyRunInfo& info, report::Language lang);
nlohmann::json VerifyJson(const std::vector<PairResult>& results, const VerifyRunInfo& info);
void WriteVerifyJUnit(std::ostream& out, const std::vector<PairResult>& results,
                      const VerifyRunInfo& info);

// "96.2% of 400" / "—": the bandwidth column of the table.
std::string BandwidthCell(const PairResult& r);

}  // namespace rocewatch::lint::verify
