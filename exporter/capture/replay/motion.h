#pragma once

// Replay motion: counters that move in a replayed capture. A capture is one
// instant; dashboards and rate() alerts need counters that grow. A capture
// directory may hold motion.json declaring per-second rates for sysfs counter
// files, ethtool statistics and the FEC counters of ethtool netlink's FEC_GET; the replay
// then serves
//   value(t) = captured value + floor(rate × seconds since the replay started).
// Documented in docs/capture.md.
//
// {"version": 1,
//  "sysfs":   {"class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent": 1200, …},
//  "ethtool": {"ens1f0np0": {"rx_prio3_pause": 150, "tx_pause_storm_warning_events": 0.2}, …},
//  "fec":     {"ens1f0np0": {"corrected": 400, "uncorrectable": 0.5, "corrected_bits": 1600}, …}}
// A FEC counter moves in its total and in its first lane (where the answer has lanes). A sysfs
// key class/infiniband/DEV/ports/N/hw_counters/NAME moves NAME in DEV's port N RDMA netlink
// STAT_GET answer too, as the kernel reads both from the same counters.

#include <chrono>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "exporter/fs/tree.h"
#include "rocewatch/result.h"

namespace rocewatch::replay {

class Motion {
 public:
  // Reads DIR/motion.json; an empty Motion when there is none. Sysfs keys may
  // go through symlinks (class/…); they are resolved against `sysfs`.
  static Result<std::shared_ptr<Motion>> Load(const std::string& capture_dir, const fs::Tree& sysfs);
  // From JSON text (tests); `where` names it in errors.
  static Result<std::shared_ptr<Motion>> Parse(const std::string& text, const std::string& where,
                                               const fs::Tree& sysfs);

  bool empty() const { return sysfs_.empty() && ethtool_.empty() && fec_.empty(); }  // rdma_ ⊂ sysfs_

  // The transform for the replayed sysfs tree.
  fs::ValueTransform SysfsTransform() const;
  // Adds the motion to a GSTATS answer, given the GSTRINGS answer naming its entries.
  void ApplyToStats(const std::string& netdev, const std::vector<std::uint8_t>& strings_answer,
                    std::vector<std::uint8_t>& stats_answer) const;
  // The same in two steps, so that a replay names the entries once, not on every pass:
  // which entries of `netdev`'s GSTATS answer move (index, rate), from its GSTRINGS answer;
  struct StatRate {
    std::uint32_t index;
    double rate;
  };
  std::vector<StatRate> StatsRates(const std::string& netdev,
                                   const std::vector<std::uint8_t>& strings_answer) const;
  // and the motion added to a GSTATS answer's entries.
  void ApplyRates(const std::vector<StatRate>& rates, std::vector<std::uint8_t>& stats_answer) const;

  // Adds the motion of `netdev`'s FEC counters to its FEC_GET answer (a netlink message with
  // ETHTOOL_A_FEC_STATS); an answer of another shape is left as it is.
  void ApplyToFec(const std::string& netdev, std::vector<std::uint8_t>& fec_answer) const;

  // Adds the motion of `device`'s port `port` hw counters to its RDMA netlink STAT_GET answer;
  // an answer of another shape is left as it is.
  void ApplyToRdmaStat(const std::string& device, std::uint32_t port,
                       std::vector<std::uint8_t>& stat_answer) const;

  // Seconds since the replay started (the clock is injectable for tests).
  void set_clock(std::function<double()> seconds_since_start) { clock_ = std::move(seconds_since_start); }

 private:
  Motion();
  std::uint64_t Delta(double rate) const;

  std::unordered_map<std::string, double> sysfs_;                      // canonical path → rate
  std::map<std::string, std::unordered_map<std::string, double>> ethtool_;  // netdev → stat → rate
  std::map<std::string, std::map<std::uint16_t, double>> fec_;  // netdev → ETHTOOL_A_FEC_STAT_* → rate
  std::map<std::string, std::unordered_map<std::string, double>> rdma_;  // "DEV/PORT" → counter → rate
  std::function<double()> clock_;
};

}  // namespace rocewatch::replay
