#pragma once

// The verdicts on one tested pair: perftest's bandwidth against the profile's share of the
// line rate (or its latency against the bound), and what both NICs' counters did meanwhile —
// pause frames on priorities without PFC, the share of the test a priority was paused,
// retransmissions and sequence errors, discards, link flaps. Every verdict names the counter,
// the NIC, the limit and by how much it was missed (docs/verify.md).

#include <optional>
#include <string>
#include <vector>

#include "lint/i18n/catalogue.h"
#include "lint/verify/pair_counters.h"
#include "lint/verify/pairs.h"
#include "lint/verify/perftest/perftest_output.h"
#include "lint/verify/runner.h"
#include "lint/verify/thresholds.h"

namespace rocewatch::lint::verify {

struct Verdict {
  std::string check;     // "verify.bandwidth", "verify.pause-duration", …
  bool passed = false;
  std::string nic;       // "gpu-10/mlx5_0 (ens1f0np0)", or "" for the pair
  std::string counter;   // what was measured: "BW average", "rx_prio3_pause_duration" family…
  std::string expected;  // "≥ 360 Gb/s"
  std::string found;     // "97.3 Gb/s"
  std::string message;   // one sentence with the numbers
  // expected, found and message as catalogue messages (lint/i18n/), for the text report in
  // another language; an empty ID: the field is a value, the same in every language.
  i18n::StoredMessage expected_text{}, found_text{}, message_text{};
};

enum class PairStatus { kPass, kFail, kError, kUnreachable };

struct PairResult {
  std::string name;    // PairName
  std::string origin;  // "rail 0", "pairs.txt:3"
  std::size_t round = 0;
  std::string server, client;  // EndpointName
  std::string tool;
  PairStatus status = PairStatus::kError;
  std::string detail;  // why error / unreachable
  i18n::StoredMessage detail_text{};  // the same from the catalogue, when roce-lint wrote it
  std::optional<double> bandwidth_gbps, line_rate_gbps, latency_us;
  std::optional<int> server_gid_index, client_gid_index;
  std::optional<NicCounters> server_counters, client_counters;
  double test_seconds = 0;
  std::vector<Verdict> verdicts;
  std::string log;  // both ends' commands and output, escaped, for --log-dir (pair_log.h)
};

struct JudgeInput {
  const plan::Plan* plan = nullptr;
  Pair pair;
  std::size_t round = 0;
  Thresholds thresholds;
  std::string tool;
  bool bidirectional = false;
  const PerftestRun* run = nullptr;
  // The client's output parsed (when the run ran); its error when it did not parse.
  std::optional<Result<PerftestOutput>> client_output;
  std::optional<NicCounters> server_counters, client_counters;
};

PairResult Judge(const JudgeInput& in);

const char* StatusName(PairStatus status);  // PASS, FAIL, ERROR, UNREACHABLE

}  // namespace rocewatch::lint::verify
