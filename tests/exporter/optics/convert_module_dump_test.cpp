// `roce_exporter convert ethtool-m`: a pasted `ethtool -m DEV [hex on]` dump becomes the
// GMODULEINFO/GMODULEEEPROM answers of a capture, and the real replay kernel and optics source
// serve it. On the real dump of the corpus (tests/fixtures/real/ethtool-m, README.md there)
// the answer's bytes are checked against the dump text byte for byte, and the identity the
// module stores is served; on the spec-built QSFP28 image the SFF-8636 TX power rule is
// checked end to end: TX power is served whether or not upper page 00h byte 220 bit 2 is set
// (as `ethtool -m` prints it), and roce_module_tx_power_advertised says which.

#include <gtest/gtest.h>
#include <linux/ethtool.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/test_dir.h"
#include "exporter/capture/convert/capture_answers.h"
#include "exporter/capture/files/capture_files.h"
#include "exporter/collectors/optics/collector.h"
#include "exporter/collectors/optics/source.h"
#include "exporter/kernel/answers.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/optics/decode.h"
#include "exporter/optics/images.h"

namespace rocewatch {
namespace {

namespace stdfs = std::filesystem;
using rocewatch::testing::TestDir;
using State = OpticsSnapshot::State;

const stdfs::path kCorpus = stdfs::path(ROCEWATCH_TEST_DATA) / "fixtures/real/ethtool-m";
constexpr const char* kNetdev = "eth2";

std::string ReadText(const stdfs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The bytes of an ethtool "0x0000:  03 04 ..." dump, read the simplest way (independent of
// the hex-dump parser under test): every line starting "0x", fields after the first.
std::vector<std::uint8_t> BytesOfDumpText(const std::string& text) {
  std::vector<std::uint8_t> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("0x", 0) != 0) continue;
    std::istringstream fields(line);
    std::string offset, byte;
    fields >> offset;
    EXPECT_EQ(std::stoul(offset.substr(0, offset.size() - 1), nullptr, 16), out.size());
    while (fields >> byte) out.push_back(static_cast<std::uint8_t>(std::stoul(byte, nullptr, 16)));
  }
  return out;
}

// Converts `dump` into a capture of kNetdev and collects it once with the optics source.
OpticsSnapshot ConvertAndCollect(const std::string& dump, const std::string& dir) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(dump.data());
  auto image = optics::ImageFromDump({bytes, dump.size()});
  EXPECT_TRUE(image.ok()) << (image.ok() ? "" : image.error().message);
  if (!image) return {};
  EXPECT_TRUE(convert::PrepareCapture(dir, kNetdev, "test").ok());
  const Status s = convert::WriteModuleEeprom(dir, kNetdev, *image);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);

  auto kernel = kernel::MakeReplayKernel(dir);
  collectors::SourceEnv env;
  env.kernel = kernel.get();
  env.options["interval"] = "60s";
  collectors::SourceClock clock{[] { return 1767225600.0; }, [] { return 1000.0; }};
  auto source = collectors::MakeOpticsSource(env, clock);
  EXPECT_TRUE(source.ok());
  if (!source) return {};
  Inventory inventory;
  inventory.generation = 1;
  NetdevRef ref;
  ref.name = kNetdev;
  ref.dir = std::string("devices/virtual/net/") + kNetdev;
  inventory.netdevs.push_back(ref);
  (*source)->Prepare(inventory);
  NodeSnapshot snap;
  SourceStatus status;
  status.name = "optics";
  (*source)->Collect(inventory, snap, status);
  EXPECT_EQ(snap.optics.size(), 1u);
  return snap.optics.empty() ? OpticsSnapshot{} : snap.optics[0];
}

class RecordingSink final : public metrics::MetricSink {
 public:
  void Add(const metrics::MetricSpec& spec, std::initializer_list<std::string_view> values,
           double value) override {
    std::string key(spec.name);
    std::size_t i = 0;
    for (std::string_view v : values) {
      if (i < spec.labels.size() && spec.labels[i] != "netdev") {
        key += "," + std::string(spec.labels[i]) + "=" + std::string(v);
      }
      ++i;
    }
    samples[key] = value;
  }
  std::map<std::string, double> samples;
};

TEST(ConvertModuleDump, RealSfpDumpByteForByte) {
  const std::string dump = ReadText(kCorpus / "sfp-odi-dfp-34x-2c2-hack-gpon-326.txt");
  const std::vector<std::uint8_t> expected = BytesOfDumpText(dump);
  ASSERT_EQ(expected.size(), 256u);
  TestDir dir;
  const OpticsSnapshot m = ConvertAndCollect(dump, dir.path());

  // GMODULEINFO: SFF-8079 (A0h only, 256 bytes) for an SFP whose byte 92 says no diagnostics.
  kernel::Answer info = kernel::ReadAnswer(dir.path(), kernel::call::ModuleInfo{kNetdev}.Key());
  ASSERT_TRUE(info.ok());
  ethtool_modinfo modinfo{};
  ASSERT_GE(info.bytes.size(), sizeof modinfo);
  std::memcpy(&modinfo, info.bytes.data(), sizeof modinfo);
  EXPECT_EQ(modinfo.type, static_cast<std::uint32_t>(ETH_MODULE_SFF_8079));
  EXPECT_EQ(modinfo.eeprom_len, 256u);
  // GMODULEEEPROM: struct ethtool_eeprom, then the dump's bytes exactly.
  kernel::Answer eeprom =
      kernel::ReadAnswer(dir.path(), kernel::call::ModuleEeprom{kNetdev, 0, 256}.Key());
  ASSERT_TRUE(eeprom.ok());
  ASSERT_EQ(eeprom.bytes.size(), sizeof(ethtool_eeprom) + 256);
  EXPECT_EQ(std::vector<std::uint8_t>(eeprom.bytes.begin() + sizeof(ethtool_eeprom),
                                      eeprom.bytes.end()),
            expected);

  // What the module stores, served through the optics source.
  ASSERT_EQ(m.state, State::kModule) << m.error;
  EXPECT_EQ(m.transport, "ioctl");
  EXPECT_EQ(m.identifier, "SFP");
  EXPECT_EQ(m.vendor, "ODI");                 // bytes 20-35
  EXPECT_EQ(m.part_number, "DFP-34X-2C2");    // bytes 40-55
  EXPECT_EQ(m.serial, "XPON23040711");        // bytes 68-83
  EXPECT_TRUE(m.readings.empty());            // byte 92 = 0x00: no diagnostics
  EXPECT_FALSE(m.tx_power_advertised.has_value());  // SFF-8472: not an SFF-8636 field
}

// The spec-built QSFP28 image (tests/exporter/optics/images.h) as ethtool's paged hex dump, with upper
// page 00h byte 220 as given.
std::string Qsfp28Dump(bool tx_power_bit) {
  optics::EepromImage image = optics::testing::Qsfp28();
  std::vector<std::uint8_t> raw = optics::ToRaw(image);
  EXPECT_GT(raw.size(), 220u);
  if (tx_power_bit) {
    raw[220] |= 0x04;
  } else {
    raw[220] &= static_cast<std::uint8_t>(~0x04);
  }
  auto rebuilt = optics::EepromImage::FromRaw(raw);
  EXPECT_TRUE(rebuilt.ok());
  return optics::ToPagedHexDump(*rebuilt);
}

TEST(ConvertModuleDump, Sff8636TxPowerServedAsEthtoolShowsIt) {
  std::map<bool, std::map<std::string, double>> served;
  for (bool bit : {true, false}) {
    SCOPED_TRACE(bit ? "byte 220 bit 2 set" : "byte 220 bit 2 clear");
    TestDir dir;
    const OpticsSnapshot m = ConvertAndCollect(Qsfp28Dump(bit), dir.path());
    ASSERT_EQ(m.state, State::kModule) << m.error;
    ASSERT_TRUE(m.tx_power_advertised.has_value());
    EXPECT_EQ(*m.tx_power_advertised, bit);
    NodeSnapshot snap;
    snap.optics.push_back(m);
    RecordingSink sink;
    collectors::RenderOptics(snap, sink);
    served[bit] = sink.samples;
    EXPECT_EQ(sink.samples["roce_module_tx_power_advertised"], bit ? 1.0 : 0.0);
  }
  // images.h: TX power lanes 1-4 = 0.6, 0.55, 0.65, 0.5 mW, whatever byte 220 says.
  const double tx[] = {0.0006, 0.00055, 0.00065, 0.0005};
  for (bool bit : {true, false}) {
    for (int lane = 1; lane <= 4; ++lane) {
      const std::string key = "roce_module_lane_tx_power_watts,lane=" + std::to_string(lane);
      ASSERT_TRUE(served[bit].count(key)) << key;
      EXPECT_DOUBLE_EQ(served[bit][key], tx[lane - 1]) << key;
    }
  }
}

TEST(ConvertModuleDump, RefusesANetdevNameThatIsAPath) {
  TestDir dir;
  const std::string dump = ReadText(kCorpus / "sfp-odi-dfp-34x-2c2-hack-gpon-326.txt");
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(dump.data());
  auto image = optics::ImageFromDump({bytes, dump.size()});
  ASSERT_TRUE(image.ok());
  for (const char* bad : {"../x", "..", "a/b", "", "eth 0", "0123456789abcdef"}) {
    EXPECT_FALSE(convert::WriteModuleEeprom(dir.path(), bad, *image).ok()) << bad;
    EXPECT_FALSE(convert::PrepareCapture(dir.path(), bad, "").ok()) << bad;
  }
  EXPECT_FALSE(stdfs::exists(stdfs::path(dir.path()).parent_path() / "x"));
}

}  // namespace
}  // namespace rocewatch
