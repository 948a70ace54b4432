#pragma once

// What `roce-lint verify` runs and what a pair must reach, from the NIC's profile
// (profiles.*.verify in the plan, docs/plan.md) with these defaults (docs/verify.md).

#include <cstdint>
#include <optional>
#include <vector>

#include "lint/plan/model.h"

namespace rocewatch::lint::verify {

inline constexpr double kDefaultMinBandwidthFraction = 0.9;
inline constexpr double kDefaultMaxLatencyUs = 5;
inline constexpr double kDefaultMaxPauseDurationFraction = 0.05;
inline constexpr double kDefaultMaxRetransmissionsPerSecond = 1;
inline constexpr std::int64_t kDefaultMaxDiscards = 0;
inline constexpr std::int64_t kDefaultQueuePairs = 4;
inline constexpr std::int64_t kDefaultMessageBytes = 65536;

struct Thresholds {
  double min_bandwidth_fraction = kDefaultMinBandwidthFraction;
  double max_latency_us = kDefaultMaxLatencyUs;
  double max_pause_duration_fraction = kDefaultMaxPauseDurationFraction;
  double max_retransmissions_per_second = kDefaultMaxRetransmissionsPerSecond;
  std::int64_t max_discards = kDefaultMaxDiscards;
  std::int64_t queue_pairs = kDefaultQueuePairs;
  std::int64_t message_bytes = kDefaultMessageBytes;
  // From the profile itself.
  std::optional<std::int64_t> link_speed_gbps;             // the line rate bandwidth is judged against
  std::optional<std::vector<std::int64_t>> pfc_priorities;  // priorities that may pause
  std::optional<std::int64_t> roce_dscp;                    // perftest --tclass = DSCP << 2 | ECT(0)
  std::optional<std::int64_t> roce_mtu;                     // perftest -m
};

Thresholds ThresholdsFor(const plan::Profile& profile);

// The IP traffic class perftest puts in the GRH for `dscp`: DSCP in the upper six bits, ECT(0)
// in the ECN bits, the same ToS `roce-lint fix` gives rdma_cm (default_roce_tos).
std::int64_t TrafficClassForDscp(std::int64_t dscp);

}  // namespace rocewatch::lint::verify
