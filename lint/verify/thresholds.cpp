#include "lint/verify/thresholds.h"

namespace rocewatch::lint::verify {

Thresholds ThresholdsFor(const plan::Profile& profile) {
  Thresholds t;
  const plan::VerifySettings& v = profile.verify;
  t.min_bandwidth_fraction = v.min_bandwidth_fraction.value_or(t.min_bandwidth_fraction);
  t.max_latency_us = v.max_latency_us.value_or(t.max_latency_us);
  t.max_pause_duration_fraction =
      v.max_pause_duration_fraction.value_or(t.max_pause_duration_fraction);
  t.max_retransmissions_per_second =
      v.max_retransmissions_per_second.value_or(t.max_retransmissions_per_second);
  t.max_discards = v.max_discards.value_or(t.max_discards);
  t.queue_pairs = v.queue_pairs.value_or(t.queue_pairs);
  t.message_bytes = v.message_bytes.value_or(t.message_bytes);
  t.link_speed_gbps = profile.link_speed_gbps;
  t.pfc_priorities = profile.pfc_priorities;
  t.roce_dscp = profile.roce_dscp;
  t.roce_mtu = profile.roce_mtu;
  return t;
}

std::int64_t TrafficClassForDscp(std::int64_t dscp) { return dscp << 2 | 2; }

}  // namespace rocewatch::lint::verify
