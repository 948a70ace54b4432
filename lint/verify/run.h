#pragma once

// `roce-lint verify` from pairs to verdicts: round after round (lint/verify/pairs.h), up to
// `transport.concurrency` pairs of a round at once; for each pair, both exporters scraped
// before, during and after its perftest run (lint/verify/runner.h), then judged
// (lint/verify/judge.h).

#include <functional>
#include <string>
#include <vector>

#include "lint/observe/observe.h"
#include "lint/plan/model.h"
#include "lint/verify/judge.h"
#include "lint/verify/pairs.h"
#include "lint/verify/runner.h"

namespace rocewatch::lint::verify {

struct VerifyOptions {
  RunnerOptions runner;
  observe::ScrapeOptions scrape;
  std::string tool = "ib_write_bw";
  double duration_seconds = 60;
  std::optional<std::int64_t> message_bytes;  // --size, over the profile's
  bool bidirectional = false;
  int base_tcp_port = 18515;  // perftest -p: this plus the pair's place in its round
  // Called once per finished pair (from worker threads, one at a time).
  std::function<void(const PairResult&, std::size_t done, std::size_t total)> on_result;
};

std::vector<PairResult> RunVerify(const plan::Plan& plan,
                                  const std::vector<std::vector<Pair>>& rounds,
                                  const VerifyOptions& options);

// The perftest invocation of one end of `pair`: server (client false) or client. An error when
// the plan's roce_ip is not an address.
Result<PerftestInvocation> InvocationFor(const plan::Plan& plan, const Pair& pair, bool client,
                                         const Thresholds& thresholds, const VerifyOptions& options,
                                         int tcp_port, const std::string& token);

}  // namespace rocewatch::lint::verify
