#pragma once

// What one side of a perftest run (ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw and the
// *_lat tests, perftest 4.x to 26.x) printed, parsed from its stdout and stderr together. Pure:
// text in, struct out, no I/O; fuzzed (tests/fuzz/perftest_output_fuzz.cpp) and tested on real
// outputs users published (tests/fixtures/real/perftest/README.md).
//
// The formats were learnt from perftest's own source (github.com/linux-rdma/perftest):
// src/perftest_parameters.h (RESULT_FMT*, REPORT_FMT*), src/perftest_parameters.c
// (ctx_print_test_info, print_full_bw_report, print_report_lat, print_report_lat_duration),
// src/perftest_communication.{c,h} (BASIC_ADDR_FMT, PERF_GID_FMT) and the *_bw.c / *_lat.c
// mains (error lines).
//
// Units are converted to base units while parsing (bits per second, packets per second,
// microseconds as printed: perftest has no finer unit).
//   - "BW ...[MB/sec]" (perftest before 24.04) and "[MiB/sec]" (from 24.04, commit 1d202bb
//     "Display proper unit for MiB/sec results") are both 2^20 bytes per second:
//     print_report_bw() in src/perftest_parameters.c divides by
//     `format_factor = (report_fmt == MBS) ? 0x100000 : 125000000`, and the --report_gbits help
//     text says "MiB=2^20 byte, while Gb=10^9 bits".
//   - "[Gb/sec]" (--report_gbits) is 10^9 bits per second (the 125000000 bytes above).
//   - "MsgRate[Mpps]" is 10^6 messages per second (msgRate_avg divides by 1000000).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::lint::verify {

enum class PerftestKind { kBandwidth, kLatency };

// Which part of a bidirectional `--report-both` run a row belongs to ("Local results:",
// "Remote results:"); kTotal everywhere else (the sum of both directions under -b).
enum class PerftestRowScope { kTotal, kLocal, kRemote };

// The unit the bandwidth table's header named.
enum class PerftestBandwidthUnit { kUnknown, kMebibytesPerSecond, kGigabitsPerSecond };

struct PerftestBandwidthRow {
  std::uint64_t bytes = 0;       // message size
  std::uint64_t iterations = 0;  // messages (-D, --run_infinitely: in that period)
  double peak_bits_per_second = 0, average_bits_per_second = 0;  // peak 0 when not measured
  double message_rate_pps = 0;
  std::optional<std::uint32_t> service_level;  // the "#sl" column (--report_qos... raw_qos)
  std::optional<double> cpu_util_percent;      // "CPU_Util[%]" (--cpu_util)
  PerftestRowScope scope = PerftestRowScope::kTotal;
  std::size_t line = 0;  // 1-based line of the row in the text
};

struct PerftestLatencyRow {
  std::uint64_t bytes = 0;
  std::uint64_t iterations = 0;
  double min_us = 0, max_us = 0, typical_us = 0, average_us = 0, stdev_us = 0;
  std::optional<double> p99_us, p99_9_us;
  // false for the duration (-D) format "#bytes #iterations t_avg[usec] tps average", which
  // prints the average and the transactions per second only: min, max, typical and stdev are
  // then 0 and mean nothing.
  bool has_distribution = true;
  std::optional<double> transactions_per_second;  // the duration format's "tps average"
  std::optional<double> cpu_util_percent;
  std::size_t line = 0;
};

// One " local address: ..." / " remote address: ..." line and the " GID: ..." line after it
// (one pair per queue pair).
struct PerftestEndpoint {
  std::optional<std::uint32_t> lid, qpn, psn;
  std::string gid;                                 // as printed ("00:...:255:255:10:0:0:5")
  std::optional<std::array<std::uint8_t, 16>> gid_bytes;  // perftest prints each byte in decimal
  std::string ipv4;  // "10.0.0.5" when the GID is IPv4-mapped (::ffff:a.b.c.d), else empty
};

struct PerftestOutput {
  std::string test;  // "RDMA_Write BW Test", as printed (terminal-safe)
  PerftestKind kind = PerftestKind::kBandwidth;
  std::string version;      // "5.60" from a "Version: 5.60" line; empty when not printed
  std::string device;       // "mlx5_0"
  std::string link_type;    // "Ethernet", "IB"
  std::string transport_type;   // "IB" (perftest's name for the verbs transport)
  std::string connection_type;  // "RC", "UC", "UD", "XRC", "DC"
  std::string data_exchange;    // "Data ex. method": "Ethernet" (TCP socket) or "rdma_cm"
  std::optional<std::uint32_t> mtu, gid_index, queue_pairs;
  std::optional<std::uint32_t> tx_depth, rx_depth, cq_moderation, post_list, outstanding_reads;
  std::optional<std::uint32_t> max_inline_bytes;
  std::optional<std::uint32_t> tos;  // "TOS : 106" after "Data ex. method : rdma_cm" (-R --tos)
  bool bidirectional = false;  // "Bidirectional" in the test name
  bool post_list_test = false; // "Post List" in the test name
  bool server_waited = false;  // "Waiting for client to connect..." (the server side)
  PerftestBandwidthUnit bandwidth_unit = PerftestBandwidthUnit::kUnknown;
  std::vector<PerftestEndpoint> local, remote;
  std::vector<PerftestBandwidthRow> bandwidth;
  std::vector<PerftestLatencyRow> latency;
  std::size_t rows_dropped = 0;  // rows beyond kMaxPerftestRows, counted and not kept
  // A dashed line closed the last result table after its rows: perftest finished the report
  // (false when it was killed or timed out, or under --run_infinitely, mid-table).
  bool table_closed = false;
  std::vector<std::string> errors;    // error lines perftest printed, verbatim (terminal-safe)
  std::vector<std::string> warnings;  // "WARNING: ...", "Conflicting CPU frequency values ..."
};

// Bounds on what one text can make the parser keep, whatever its size.
inline constexpr std::size_t kMaxPerftestRows = 100000;
inline constexpr std::size_t kMaxPerftestMessages = 64;     // errors, warnings, endpoints each
inline constexpr std::size_t kMaxPerftestKeptLine = 512;    // bytes of a kept line, before escaping

// Parses one side's stdout+stderr. Result error (naming the line number) only when the text is
// not perftest output at all (no header, table or perftest error line) or a table row is
// malformed (a field missing or not a number, a number out of range). A row whose values
// perftest printed as "nan"/"inf" is not kept and is named in `errors`.
Result<PerftestOutput> ParsePerftestOutput(std::string_view text);

}  // namespace rocewatch::lint::verify
