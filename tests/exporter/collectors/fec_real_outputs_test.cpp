// Real `ethtool -I --show-fec` outputs people published (tests/fixtures/real/ethtool-show-fec,
// provenance in its README), translated into the FEC_GET answer the kernel sent for each
// (ethtool netlink/fec.c prints that answer; tests/exporter/netlink/fec_reply.h lays it out), kept as a
// capture and replayed: the exporter serves every encoding and number the text printed.

#include <gtest/gtest.h>
#include <linux/ethtool.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/test_dir.h"
#include "exporter/capture/files/capture_files.h"
#include "exporter/kernel/answers.h"
#include "common/kernel_answer_harness.h"
#include "exporter/netlink/fec_reply.h"

namespace rocewatch {
namespace {

using testing::FecReplySpec;

// What the text printed, read back the way ethtool wrote it.
struct Printed {
  std::string ifname;
  std::vector<std::string> configured;  // "Auto", "Off", "RS", "BaseR", "LLRS", or "None"
  std::string active;
  std::map<std::string, std::vector<std::uint64_t>> stats;  // name -> total, lanes
};

Printed ReadPrinted(const std::string& path) {
  std::ifstream in(path);
  Printed p;
  std::string line, current;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    if (line.rfind("FEC parameters for ", 0) == 0) {
      p.ifname = line.substr(19, line.size() - 20);
    } else if (line.rfind("Supported/Configured FEC encodings:", 0) == 0 ||
               line.rfind("Configured FEC encodings:", 0) == 0) {
      std::string w;
      words >> w >> w >> w;
      if (line[0] == 'S') words >> w;  // the longer heading has one word more
      while (words >> w) p.configured.push_back(w);
    } else if (line.rfind("Active FEC encoding:", 0) == 0) {
      std::string w;
      words >> w >> w >> w >> p.active;
    } else if (line.rfind("    Lane ", 0) == 0) {
      p.stats[current].push_back(std::stoull(line.substr(line.find(':') + 1)));
    } else if (line.rfind("  ", 0) == 0 && line.find(':') != std::string::npos) {
      current = line.substr(2, line.find(':') - 2);
      p.stats[current].push_back(std::stoull(line.substr(line.find(':') + 1)));
    }
  }
  return p;
}

std::uint32_t Bit(const std::string& printed) {
  if (printed == "Off") return ETHTOOL_LINK_MODE_FEC_NONE_BIT;
  if (printed == "RS") return ETHTOOL_LINK_MODE_FEC_RS_BIT;
  if (printed == "BaseR") return ETHTOOL_LINK_MODE_FEC_BASER_BIT;
  if (printed == "LLRS") return ETHTOOL_LINK_MODE_FEC_LLRS_BIT;
  ADD_FAILURE() << "not an encoding ethtool prints: " << printed;
  return 0;
}

std::string Served(const std::string& printed) {
  return printed == "Off"     ? "off"
         : printed == "RS"    ? "rs"
         : printed == "BaseR" ? "baser"
         : printed == "LLRS"  ? "llrs"
                              : "none";
}

// The answer ethtool printed `p` from.
FecReplySpec AnswerOf(const Printed& p) {
  FecReplySpec s;
  s.ifname = p.ifname;
  for (const auto& w : p.configured) {
    if (w == "Auto") {
      s.fec_auto = 1;
    } else if (w != "None") {
      s.modes.push_back(Bit(w));
    }
  }
  s.active = p.active == "None" ? 0 : Bit(p.active);
  s.stats = !p.stats.empty();
  auto take = [&](const char* name) {
    auto it = p.stats.find(name);
    return it == p.stats.end() ? std::vector<std::uint64_t>{} : it->second;
  };
  s.corrected = take("corrected_blocks");
  s.uncorrectable = take("uncorrectable_blocks");
  s.corrected_bits = take("corrected_bits");
  return s;
}

TEST(FecRealOutputs, EveryPrintedValueIsServedFromTheReplayedAnswer) {
  const std::string dir = std::string(ROCEWATCH_TEST_DATA) + "/fixtures/real/ethtool-show-fec";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    ++files;
    SCOPED_TRACE(entry.path().filename().string());
    const Printed printed = ReadPrinted(entry.path().string());
    ASSERT_FALSE(printed.ifname.empty());
    testing::TestDir capture;
    const std::string key = kernel::call::Fec{printed.ifname}.Key();
    ASSERT_TRUE(kernel::WriteAnswer(capture.path(), key,
                                    kernel::Answer{testing::BuildFecReply(AnswerOf(printed)), 0})
                    .ok());
    auto replay = kernel::MakeReplayKernel(capture.path());
    testing::kernel_sources::SourceUnderTest source("fec", *replay);
    auto pass = source.Collect(testing::kernel_sources::NetdevInventory({printed.ifname.c_str()}));
    EXPECT_TRUE(pass.status.success) << ::testing::PrintToString(pass.status.errors);
    const std::string n = "netdev=\"" + printed.ifname + "\"";
    const std::string t = source.Page(pass.snap);
    EXPECT_TRUE(testing::kernel_sources::HasLine(
        t, "roce_fec_active_info{" + n + ",mode=\"" + Served(printed.active) + "\"} 1"))
        << t;
    for (const auto& w : printed.configured) {
      if (w == "None") continue;
      const std::string mode = w == "Auto" ? "auto" : Served(w);
      EXPECT_TRUE(
          testing::kernel_sources::HasLine(t, "roce_fec_configured_info{" + n + ",mode=\"" + mode + "\"} 1"))
          << w;
    }
    for (const auto& [name, values] : printed.stats) {
      ASSERT_FALSE(values.empty());
      EXPECT_TRUE(testing::kernel_sources::HasLine(
          t, "roce_fec_" + name + "_total{" + n + "} " + std::to_string(values[0])))
          << name << "\n"
          << t;
      for (std::size_t lane = 1; lane < values.size(); ++lane) {
        EXPECT_TRUE(testing::kernel_sources::HasLine(t, "roce_fec_lane_" + name + "_total{" + n + ",lane=\"" +
                                            std::to_string(lane - 1) + "\"} " +
                                            std::to_string(values[lane])))
            << name << " lane " << lane - 1;
      }
    }
  }
  EXPECT_GE(files, 1);
}

}  // namespace
}  // namespace rocewatch
