#pragma once

// Deterministic exporter-style exposition text for the parser's tests and benchmark: what
// roce_exporter serves for a node with `nics` NICs (hw counters, per-priority PFC, DCQCN
// settings, optics), 3-6 labels a series, plus some node_exporter-like series.

#include <cstdint>
#include <string>

namespace rocewatch::lint::testing {

struct Corpus {
  std::string text;
  std::size_t samples = 0;
};

inline Corpus MakeExporterText(int nics) {
  static const char* kHwCounters[] = {"np_cnp_sent",
                                      "np_ecn_marked_roce_packets",
                                      "rp_cnp_handled",
                                      "rp_cnp_ignored",
                                      "out_of_sequence",
                                      "packet_seq_err",
                                      "out_of_buffer",
                                      "local_ack_timeout_err",
                                      "implied_nak_seq_err",
                                      "duplicate_request",
                                      "rnr_nak_retry_err",
                                      "resp_local_length_error",
                                      "req_cqe_error",
                                      "resp_cqe_error",
                                      "roce_adp_retrans",
                                      "roce_slow_restart",
                                      "rx_atomic_requests",
                                      "rx_read_requests",
                                      "rx_write_requests",
                                      "rx_icrc_encapsulated",
                                      "lifespan",
                                      "req_remote_access_errors",
                                      "resp_remote_access_errors",
                                      "roce_adp_retrans_to"};
  static const char* kDcqcn[] = {"rpg_ai_rate",   "rpg_hai_rate",   "rpg_min_rate",
                                 "rpg_max_rate",  "rpg_time_reset", "rpg_byte_reset",
                                 "rpg_threshold", "rpg_gd",         "rpg_min_dec_fac",
                                 "dce_tcp_g",     "dce_tcp_rtt",    "initial_alpha_value"};
  Corpus c;
  std::string& t = c.text;
  std::uint64_t x = 88172645463325252ull;  // xorshift, for counter values
  auto next = [&]() {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  auto sample = [&](const std::string& line) {
    t += line;
    t += '\n';
    ++c.samples;
  };
  t += "# HELP roce_hw_counter_total RDMA hw counter from "
       "/sys/class/infiniband/<dev>/ports/<port>/hw_counters.\n";
  t += "# TYPE roce_hw_counter_total counter\n";
  for (int n = 0; n < nics; ++n) {
    std::string dev = "mlx5_" + std::to_string(n);
    for (const char* counter : kHwCounters) {
      sample("roce_hw_counter_total{counter=\"" + std::string(counter) + "\",device=\"" + dev +
             "\",port=\"1\"} " + std::to_string(next() % 100000000000ull));
    }
  }
  t += "# HELP roce_pfc_pause_frames_total PFC pause frames per priority.\n";
  t += "# TYPE roce_pfc_pause_frames_total counter\n";
  for (int n = 0; n < nics; ++n) {
    std::string netdev = "ens" + std::to_string(n + 1) + "f0np0";
    for (int prio = 0; prio < 8; ++prio) {
      for (const char* dir : {"rx", "tx"}) {
        sample("roce_pfc_pause_frames_total{direction=\"" + std::string(dir) + "\",netdev=\"" +
               netdev + "\",priority=\"" + std::to_string(prio) + "\"} " +
               std::to_string(prio == 3 ? next() % 1000000 : 0));
      }
    }
  }
  t += "# HELP roce_dcqcn_parameter DCQCN parameter value.\n";
  t += "# TYPE roce_dcqcn_parameter gauge\n";
  for (int n = 0; n < nics; ++n) {
    std::string netdev = "ens" + std::to_string(n + 1) + "f0np0";
    for (const char* p : kDcqcn) {
      sample("roce_dcqcn_parameter{netdev=\"" + netdev + "\",parameter=\"" + p +
             "\",point=\"rp\"} " + std::to_string(next() % 2000));
    }
  }
  t += "# HELP roce_module_lane_rx_power_watts Received optical power per lane.\n";
  t += "# TYPE roce_module_lane_rx_power_watts gauge\n";
  for (int n = 0; n < nics; ++n) {
    std::string netdev = "ens" + std::to_string(n + 1) + "f0np0";
    for (int lane = 0; lane < 8; ++lane) {
      sample("roce_module_lane_rx_power_watts{lane=\"" + std::to_string(lane) + "\",netdev=\"" +
             netdev + "\"} 0.000" + std::to_string(500 + next() % 400));
    }
  }
  t += "# HELP roce_module_threshold Module alarm and warning thresholds.\n";
  t += "# TYPE roce_module_threshold gauge\n";
  for (int n = 0; n < nics; ++n) {
    std::string netdev = "ens" + std::to_string(n + 1) + "f0np0";
    for (const char* sensor : {"temperature", "voltage", "tx_bias", "tx_power", "rx_power"}) {
      for (const char* level : {"high_alarm", "low_alarm", "high_warning", "low_warning"}) {
        sample("roce_module_threshold{level=\"" + std::string(level) + "\",netdev=\"" + netdev +
               "\",sensor=\"" + sensor + "\"} " + std::to_string(next() % 100) + ".5");
      }
    }
  }
  t += "# HELP node_network_info Non-numeric data from /sys/class/net/<iface>.\n";
  t += "# TYPE node_network_info gauge\n";
  for (int n = 0; n < nics; ++n) {
    sample("node_network_info{address=\"b8:3f:d2:00:00:0" + std::to_string(n % 10) +
           "\",broadcast=\"ff:ff:ff:ff:ff:ff\",device=\"ens" + std::to_string(n + 1) +
           "f0np0\",duplex=\"full\",ifalias=\"\",operstate=\"up\"} 1");
  }
  return c;
}

}  // namespace rocewatch::lint::testing
