// ParsePerftestOutput (lint/verify/perftest/perftest_output.h) on the formats of perftest's
// source (the RESULT_FMT*/REPORT_FMT* strings of src/perftest_parameters.h, laid out as printf
// prints them) and on hostile text. Real outputs users published are checked against their
// answer keys in perftest_real_outputs_test.cpp.

#include "lint/verify/perftest/perftest_output.h"

#include <gtest/gtest.h>

#include <string>

namespace rocewatch::lint::verify {
namespace {

constexpr double kMiB = 1048576.0 * 8.0;  // bits per second in one MB/sec of perftest

// ib_write_bw with --report_gbits, as 24.x prints it (ctx_print_test_info, RESULT_FMT_G,
// REPORT_FMT with its tabs).
constexpr std::string_view kWriteBwGbits =
    "---------------------------------------------------------------------------------------\n"
    "                    RDMA_Write BW Test\n"
    " Dual-port       : OFF\t\tDevice         : mlx5_0\n"
    " Number of qps   : 2\t\tTransport type : IB\n"
    " Connection type : RC\t\tUsing SRQ      : OFF\n"
    " PCIe relax order: ON\t\tLock-free      : OFF\n"
    " ibv_wr* API     : ON\t\tUsing Enhanced Reorder      : OFF\n"
    " TX depth        : 128\n"
    " CQ Moderation   : 100\n"
    " CQE Poll Batch  : 16\n"
    " Mtu             : 4096[B]\n"
    " Link type       : Ethernet\n"
    " GID index       : 3\n"
    " Max inline data : 0[B]\n"
    " rdma_cm QPs\t : OFF\n"
    " Data ex. method : Ethernet\n"
    "---------------------------------------------------------------------------------------\n"
    " local address: LID 0000 QPN 0x0108 PSN 0x63ad7d RKey 0x17eedf VAddr 0x007f760c947000\n"
    " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:05\n"
    " remote address: LID 0000 QPN 0x0076 PSN 0xf3810c RKey 0x201600 VAddr 0x007fbb4c981000\n"
    " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:04\n"
    "---------------------------------------------------------------------------------------\n"
    " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
    " 65536      10000            97.83              97.80  \t\t   0.186535\n"
    "---------------------------------------------------------------------------------------\n";

TEST(PerftestOutput, ReadsTheHeaderAndAGbitsRow) {
  auto out = ParsePerftestOutput(kWriteBwGbits);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->test, "RDMA_Write BW Test");
  EXPECT_EQ(out->kind, PerftestKind::kBandwidth);
  EXPECT_EQ(out->device, "mlx5_0");
  EXPECT_EQ(out->link_type, "Ethernet");
  EXPECT_EQ(out->transport_type, "IB");
  EXPECT_EQ(out->connection_type, "RC");
  EXPECT_EQ(out->data_exchange, "Ethernet");
  EXPECT_EQ(out->mtu, 4096u);
  EXPECT_EQ(out->gid_index, 3u);
  EXPECT_EQ(out->queue_pairs, 2u);
  EXPECT_EQ(out->tx_depth, 128u);
  EXPECT_EQ(out->cq_moderation, 100u);
  EXPECT_EQ(out->max_inline_bytes, 0u);
  EXPECT_FALSE(out->bidirectional);
  EXPECT_EQ(out->bandwidth_unit, PerftestBandwidthUnit::kGigabitsPerSecond);
  ASSERT_EQ(out->local.size(), 1u);
  EXPECT_EQ(out->local[0].lid, 0u);
  EXPECT_EQ(out->local[0].qpn, 0x108u);
  EXPECT_EQ(out->local[0].psn, 0x63ad7du);
  EXPECT_EQ(out->local[0].ipv4, "10.0.0.5");
  ASSERT_EQ(out->remote.size(), 1u);
  EXPECT_EQ(out->remote[0].ipv4, "10.0.0.4");
  ASSERT_EQ(out->bandwidth.size(), 1u);
  const auto& row = out->bandwidth[0];
  EXPECT_EQ(row.bytes, 65536u);
  EXPECT_EQ(row.iterations, 10000u);
  EXPECT_DOUBLE_EQ(row.peak_bits_per_second, 97.83e9);
  EXPECT_DOUBLE_EQ(row.average_bits_per_second, 97.80e9);
  EXPECT_DOUBLE_EQ(row.message_rate_pps, 186535);
  EXPECT_EQ(row.line, 24u);
  EXPECT_TRUE(out->table_closed);
  EXPECT_TRUE(out->errors.empty());
}

TEST(PerftestOutput, MegabytesAreMebibytes) {
  std::string text(kWriteBwGbits);
  auto at = text.find("BW peak[Gb/sec]    BW average[Gb/sec]");
  text.replace(at, 37, "BW peak[MB/sec]    BW average[MB/sec]");
  auto out = ParsePerftestOutput(text);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->bandwidth_unit, PerftestBandwidthUnit::kMebibytesPerSecond);
  EXPECT_DOUBLE_EQ(out->bandwidth.at(0).average_bits_per_second, 97.80 * kMiB);
  at = text.find("[MB/sec]    BW average[MB/sec]");
  text.replace(at, 30, "[MiB/sec]    BW average[MiB/sec]");
  out = ParsePerftestOutput(text);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_DOUBLE_EQ(out->bandwidth.at(0).peak_bits_per_second, 97.83 * kMiB);
}

TEST(PerftestOutput, ReadsTheLatencyTableAndItsDurationForm) {
  constexpr std::string_view kLat =
      "                    RDMA_Write Latency Test\n"
      " Dual-port       : OFF\t\tDevice         : mlx5_1\n"
      " Mtu             : 1024[B]\n"
      " Link type       : IB\n"
      "---------------------------------------------------------------------------------------\n"
      " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
      "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"
      " 2       1000          1.02           4.31         1.06     \t       1.08        \t0.10"
      "\t\t1.40 \t\t4.31   \n"
      "---------------------------------------------------------------------------------------\n";
  auto out = ParsePerftestOutput(kLat);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->kind, PerftestKind::kLatency);
  EXPECT_EQ(out->device, "mlx5_1");
  EXPECT_EQ(out->link_type, "IB");
  EXPECT_FALSE(out->gid_index.has_value());
  ASSERT_EQ(out->latency.size(), 1u);
  const auto& row = out->latency[0];
  EXPECT_EQ(row.bytes, 2u);
  EXPECT_EQ(row.iterations, 1000u);
  EXPECT_DOUBLE_EQ(row.min_us, 1.02);
  EXPECT_DOUBLE_EQ(row.max_us, 4.31);
  EXPECT_DOUBLE_EQ(row.typical_us, 1.06);
  EXPECT_DOUBLE_EQ(row.average_us, 1.08);
  EXPECT_DOUBLE_EQ(row.stdev_us, 0.10);
  EXPECT_EQ(row.p99_us, 1.40);
  EXPECT_EQ(row.p99_9_us, 4.31);
  EXPECT_TRUE(row.has_distribution);

  constexpr std::string_view kDuration =
      "                    Send Latency Test\n"
      " #bytes        #iterations       t_avg[usec]    tps average\n"
      " 2             3861295            1.55           645372.07\n";
  out = ParsePerftestOutput(kDuration);
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_EQ(out->latency.size(), 1u);
  EXPECT_FALSE(out->latency[0].has_distribution);
  EXPECT_DOUBLE_EQ(out->latency[0].average_us, 1.55);
  EXPECT_EQ(out->latency[0].transactions_per_second, 645372.07);
  EXPECT_FALSE(out->table_closed);
}

TEST(PerftestOutput, ReportBothScopesAndBidirectional) {
  constexpr std::string_view kBoth =
      "                    Send Bidirectional BW Test\n"
      " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
      " 8388608    1000             190.00             189.00  \t\t   0.002816\n"
      "---------------------------------------------------------------------------------------\n"
      "\n Local results: \n"
      "---------------------------------------------------------------------------------------\n"
      " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
      " 8388608    1000             95.00              94.50  \t\t   0.001408\n"
      "---------------------------------------------------------------------------------------\n"
      "\n Remote results: \n"
      "---------------------------------------------------------------------------------------\n"
      " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
      " 8388608    1000             95.00              94.50  \t\t   0.001408\n";
  auto out = ParsePerftestOutput(kBoth);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->bidirectional);
  ASSERT_EQ(out->bandwidth.size(), 3u);
  EXPECT_EQ(out->bandwidth[0].scope, PerftestRowScope::kTotal);
  EXPECT_EQ(out->bandwidth[1].scope, PerftestRowScope::kLocal);
  EXPECT_EQ(out->bandwidth[2].scope, PerftestRowScope::kRemote);
  EXPECT_DOUBLE_EQ(out->bandwidth[0].average_bits_per_second, 189e9);
}

TEST(PerftestOutput, QosPerPortAndCpuUtilColumns) {
  constexpr std::string_view kQos =
      " #bytes    #sl      #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
      " 65536    3           5000           11000.00            10990.00                  "
      "0.175840\n";
  auto out = ParsePerftestOutput(kQos);
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_EQ(out->bandwidth.size(), 1u);
  EXPECT_EQ(out->bandwidth[0].service_level, 3u);
  EXPECT_EQ(out->bandwidth[0].iterations, 5000u);

  constexpr std::string_view kCpu =
      " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]    "
      "CPU_Util[%]\n"
      " 65536      5000             90.00              89.00  \t\t   0.169754\t    12.50\n";
  out = ParsePerftestOutput(kCpu);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->bandwidth.at(0).cpu_util_percent, 12.5);

  constexpr std::string_view kPerPort =
      " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]   BW "
      "Port1[Gb/sec]   MsgRate Port1[Mpps]   BW Port2[Gb/sec]   MsgRate Port2[Mpps]\n"
      " 65536      5000           180.00            179.00\t\t   0.341431        89.50          "
      "  0.170715              89.50            0.170715\n";
  out = ParsePerftestOutput(kPerPort);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_DOUBLE_EQ(out->bandwidth.at(0).average_bits_per_second, 179e9);
}

TEST(PerftestOutput, ErrorLinesAreKeptAndMadeInert) {
  auto out = ParsePerftestOutput(
      " Did not detect devices \n If device exists, check if driver is up\n"
      "Couldn't connect to 10.0.0.4:18515\n\x1b]0;owned\x07 Unable to open file descriptor for "
      "socket connection\x1b[2J\n");
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_EQ(out->errors.size(), 4u);
  EXPECT_EQ(out->errors[0], "Did not detect devices");
  EXPECT_EQ(out->errors[1], "If device exists, check if driver is up");
  EXPECT_EQ(out->errors[2], "Couldn't connect to 10.0.0.4:18515");
  EXPECT_EQ(out->errors[3].find('\x1b'), std::string::npos) << out->errors[3];
  EXPECT_NE(out->errors[3].find("Unable to open file descriptor"), std::string::npos);
  EXPECT_TRUE(out->bandwidth.empty());
}

TEST(PerftestOutput, WarningsAreNotErrors) {
  auto out = ParsePerftestOutput(
      " WARNING: BW peak won't be measured in this run.\n"
      "Conflicting CPU frequency values detected: 1200.000000 != 3400.000000. CPU Frequency is "
      "not max.\n"
      "libibverbs: Warning: couldn't load driver 'libmana-rdmav34.so': libmana-rdmav34.so: "
      "cannot open shared object file: No such file or directory\n"
      "                    RDMA_Read BW Test\n");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->warnings.size(), 3u);
  EXPECT_TRUE(out->errors.empty());
  EXPECT_EQ(out->test, "RDMA_Read BW Test");
}

TEST(PerftestOutput, RdmaCmTosAndServerWait) {
  // ctx_print_test_info with -R --tos: " \tTOS    : %d" on the "Data ex. method" line, and the
  // server's "Waiting for client rdma_cm QP to connect".
  auto out = ParsePerftestOutput(
      " rdma_cm QPs\t : ON\n"
      " Data ex. method : rdma_cm \tTOS    : 106\n"
      "---------------------------------------------------------------------------------------\n"
      " Waiting for client rdma_cm QP to connect\n"
      " Please run the same command with the IB/RoCE interface IP\n");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->data_exchange, "rdma_cm");
  EXPECT_EQ(out->tos, 106u);
  EXPECT_TRUE(out->server_waited);
  EXPECT_TRUE(out->errors.empty());
}

TEST(PerftestOutput, NotPerftestOutputIsAnError) {
  for (std::string_view text : {std::string_view(""), std::string_view("hello\nworld\n"),
                                std::string_view("<html><body>502</body></html>")}) {
    auto out = ParsePerftestOutput(text);
    ASSERT_FALSE(out.ok()) << text;
    EXPECT_NE(out.error().message.find("not perftest output"), std::string::npos);
  }
}

TEST(PerftestOutput, MalformedRowsNameTheirLine) {
  std::string text =
      " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
      " 65536      5000             90.00              x89.00  \t\t   0.169754\n";
  auto out = ParsePerftestOutput(text);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message.rfind("line 2: malformed perftest result row", 0), 0u)
      << out.error().message;
  // A row without its last column, a byte count beyond 64 bits, a value beyond a double.
  for (std::string row : {" 65536 5000 90.00 89.00\n", " 99999999999999999999 5000 1 1 1\n",
                          " 65536 5000 1e999 1 1\n", " 65536 -5 1 1 1\n"}) {
    out = ParsePerftestOutput(
        " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n" +
        row);
    EXPECT_FALSE(out.ok()) << row;
  }
}

TEST(PerftestOutput, NonFiniteValuesAreNamedNotKept) {
  auto out = ParsePerftestOutput(
      " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
      " 65536      5000             -nan              inf  \t\t   0.169754\n");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->bandwidth.empty());
  ASSERT_EQ(out->errors.size(), 1u);
  EXPECT_EQ(out->errors[0].rfind("line 2: perftest printed a value that is not a finite", 0), 0u);
}

TEST(PerftestOutput, HostileTextStaysBounded) {
  // More rows than the bound (--run_infinitely for weeks): kept up to the bound, the rest
  // counted. (Half again the bound, not 10^6 rows: the same path, at a sixth of the test time.)
  std::string text =
      " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n";
  const std::string row = " 65536      5000             90.00              89.00   0.169754\n";
  const std::size_t rows = kMaxPerftestRows + kMaxPerftestRows / 2;
  text.reserve(text.size() + row.size() * rows);
  for (std::size_t i = 0; i < rows; ++i) text += row;
  auto out = ParsePerftestOutput(text);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->bandwidth.size(), kMaxPerftestRows);
  EXPECT_EQ(out->rows_dropped, rows - kMaxPerftestRows);

  // A huge error line with NUL bytes and escapes is cut and escaped; errors are bounded.
  std::string hostile = "Couldn't connect " + std::string(1 << 16, 'A') + '\0' + "\x1b[31m\n";
  std::string many;
  for (int i = 0; i < 200; ++i) many += hostile;
  out = ParsePerftestOutput(many);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->errors.size(), kMaxPerftestMessages);
  for (const auto& e : out->errors) {
    EXPECT_LT(e.size(), 4 * kMaxPerftestKeptLine);
    EXPECT_EQ(e.find('\0'), std::string::npos);
  }

  // A header value full of control bytes.
  out = ParsePerftestOutput(" Dual-port       : OFF\t\tDevice         : ml\x1b[2Jx5\x07\n");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->device.find('\x1b'), std::string::npos);
  EXPECT_EQ(out->device.find('\x07'), std::string::npos);

  // A GID byte above 255 and a QPN beyond 32 bits are not taken.
  out = ParsePerftestOutput(
      " local address: LID 0000 QPN 0x1ffffffff PSN 0x1\n"
      " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:256\n");
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->local.size(), 1u);
  EXPECT_FALSE(out->local[0].qpn.has_value());
  EXPECT_FALSE(out->local[0].gid_bytes.has_value());
  EXPECT_EQ(out->local[0].ipv4, "");
}

}  // namespace
}  // namespace rocewatch::lint::verify
