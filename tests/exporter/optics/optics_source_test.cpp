// The optics source on kernel answers written by optics_capture (the way a real node answers),
// read back through the real replay kernel, and the families its renderer makes (as text).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/rendered_text.h"
#include "common/test_dir.h"
#include "exporter/capture/files/capture_files.h"
#include "exporter/collectors/optics/collector.h"
#include "exporter/collectors/optics/source.h"
#include "exporter/collectors/registry.h"
#include "exporter/log.h"
#include "exporter/netlink/ethtool_genl.h"
#include "exporter/netlink/kernel_skb.h"
#include "exporter/optics/images.h"
#include "exporter/optics/optics_capture.h"

namespace rocewatch {
namespace {

namespace ot = optics::testing;
using rocewatch::testing::TestDir;
using ::testing::HasSubstr;
using State = OpticsSnapshot::State;

constexpr double kUnixStart = 1767225600;  // 2026-01-01T00:00:00Z

// Counts the module EEPROM calls that reach the kernel, so tests see what the cache saves.
class CountingKernel final : public kernel::KernelAnswers {
 public:
  explicit CountingKernel(std::unique_ptr<kernel::KernelAnswers> inner)
      : inner_(std::move(inner)) {}

  int module_calls() const { return pages_ + infos_ + eeproms_; }
  int pages() const { return pages_; }
  int infos() const { return infos_; }
  int eeproms() const { return eeproms_; }

  kernel::Answer Ask(const kernel::Request& r) override {
    pages_ += std::holds_alternative<kernel::call::ModuleEepromPage>(r);
    infos_ += std::holds_alternative<kernel::call::ModuleInfo>(r);
    eeproms_ += std::holds_alternative<kernel::call::ModuleEeprom>(r);
    return inner_->Ask(r);
  }

 private:
  std::unique_ptr<kernel::KernelAnswers> inner_;
  int pages_ = 0, infos_ = 0, eeproms_ = 0;
};

// A capture directory, the replay kernel over it, a fake clock and the source.
class OpticsSourceTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(dir_.path().empty()); }

  void AddNetdev(const std::string& name) {
    NetdevRef ref;
    ref.name = name;
    ref.dir = "devices/virtual/net/" + name;
    inventory_.netdevs.push_back(ref);
  }

  void Start(const std::string& interval = "60s", const std::string& all_flags = "",
             const std::string& all_thresholds = "") {
    kernel_ = std::make_unique<CountingKernel>(kernel::MakeReplayKernel(dir_.path()));
    collectors::SourceEnv env;
    env.kernel = kernel_.get();
    env.options["interval"] = interval;
    if (!all_flags.empty()) env.options["all-flags"] = all_flags;
    if (!all_thresholds.empty()) env.options["all-thresholds"] = all_thresholds;
    collectors::SourceClock clock{[this] { return unix_; }, [this] { return mono_; }};
    auto source = collectors::MakeOpticsSource(env, clock);
    ASSERT_TRUE(source.ok()) << source.error().message;
    source_ = std::move(*source);
    source_->Prepare(inventory_);
  }

  NodeSnapshot Collect() {
    NodeSnapshot snap;
    status_ = SourceStatus{};
    status_.name = "optics";
    source_->Collect(inventory_, snap, status_);
    return snap;
  }

  void Advance(double seconds) {
    unix_ += seconds;
    mono_ += seconds;
  }

  static const OpticsSnapshot& Module(const NodeSnapshot& snap, const std::string& netdev) {
    for (const auto& m : snap.optics)
      if (m.netdev == netdev) return m;
    static OpticsSnapshot none;
    ADD_FAILURE() << "no optics for " << netdev;
    return none;
  }

  static const OpticsSnapshot::Reading* Find(const OpticsSnapshot& m, const std::string& sensor,
                                             std::uint32_t lane) {
    for (const auto& r : m.readings)
      if (r.sensor == sensor && r.lane == lane) return &r;
    return nullptr;
  }

  static const OpticsSnapshot::Thresholds* FindThresholds(const OpticsSnapshot& m,
                                                          const std::string& sensor) {
    for (const auto& t : m.thresholds)
      if (t.sensor == sensor) return &t.thresholds;
    return nullptr;
  }

  TestDir dir_;
  Inventory inventory_;
  std::unique_ptr<CountingKernel> kernel_;
  std::unique_ptr<collectors::Source> source_;
  SourceStatus status_;
  double unix_ = kUnixStart;
  double mono_ = 1000;
};

// The families rendered from a snapshot, as served and parsed (tests/common/rendered_text.h):
// name -> samples as "label=value,..." (labels in the order of the family's spec) -> value.
// `text`, when given, receives the exposition text.
using Samples = std::map<std::string, std::map<std::string, double>>;
Samples Render(const NodeSnapshot& snap, std::string* text = nullptr) {
  const auto parsed = testing::RenderText(collectors::RenderOptics, snap, text);
  std::map<std::string_view, const metrics::MetricSpec*> specs;
  for (const auto* spec : collectors::FindCollector("optics")->specs()) specs[spec->name] = spec;
  Samples out;
  for (const auto& sample : parsed.samples()) {
    const std::string_view name = parsed.MetricName(sample);
    const auto spec = specs.find(name);
    if (spec == specs.end()) {
      ADD_FAILURE() << name << " is not in the optics spec table";
      continue;
    }
    std::string key;
    for (std::string_view label : spec->second->labels)
      key += (key.empty() ? "" : ",") + std::string(label) + "=" +
             std::string(parsed.LabelValue(sample, label).value_or(""));
    out[std::string(name)][key] = sample.value;
  }
  return out;
}

TEST_F(OpticsSourceTest, EightLaneCmisModuleOverNetlink) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::QsfpDd8Lane()));
  AddNetdev("eth0");
  Start();
  NodeSnapshot snap = Collect();
  EXPECT_TRUE(status_.success);
  EXPECT_EQ(status_.parse_errors_total, 0);
  EXPECT_TRUE(status_.errors.empty()) << status_.errors.front();
  ASSERT_EQ(snap.optics.size(), 1u);
  const OpticsSnapshot& m = snap.optics[0];
  EXPECT_EQ(m.state, State::kModule);
  EXPECT_EQ(m.present, true);
  EXPECT_TRUE(m.read_ok);
  EXPECT_EQ(m.transport, "netlink");
  EXPECT_EQ(m.last_read_timestamp_seconds, kUnixStart);
  EXPECT_EQ(m.identifier, "QSFP-DD");
  EXPECT_EQ(m.spec, "CMIS 5.2");
  EXPECT_EQ(m.vendor, "NVIDIA");
  EXPECT_EQ(m.part_number, "MMA4Z00-NS400");
  EXPECT_EQ(m.serial, "MT2305XZ00042");
  EXPECT_EQ(m.revision, "A1");
  EXPECT_EQ(m.connector, "MPO 1x12");
  EXPECT_EQ(m.media, "multimode fiber (MMF)");

  const auto* temperature = Find(m, "temperature_celsius", 0);
  ASSERT_NE(temperature, nullptr);
  EXPECT_DOUBLE_EQ(*temperature->value, 42.25);
  const auto* voltage = Find(m, "voltage_volts", 0);
  ASSERT_NE(voltage, nullptr);
  EXPECT_DOUBLE_EQ(*voltage->value, 3.3);
  // Eight lanes; RX power 8000 - 100 n x 0.1 uW, lane 6 at 30 uW under its 50 uW low warning.
  for (std::uint32_t lane = 1; lane <= 8; ++lane) {
    const auto* rx = Find(m, "rx_power_watts", lane);
    ASSERT_NE(rx, nullptr) << lane;
    const double expected = lane == 6 ? 30e-6 : (8000 - 100.0 * (lane - 1)) * 1e-7;
    EXPECT_NEAR(*rx->value, expected, 1e-12) << lane;
    EXPECT_EQ(rx->flags.low_warning, lane == 6) << lane;
    EXPECT_EQ(rx->flags.low_alarm, false) << lane;
    EXPECT_EQ(rx->flags.high_warning, false) << lane;
    const auto* tx = Find(m, "tx_power_watts", lane);
    ASSERT_NE(tx, nullptr);
    EXPECT_NEAR(*tx->value, (6000 + 100.0 * (lane - 1)) * 1e-7, 1e-12);
    const auto* bias = Find(m, "tx_bias_amperes", lane);
    ASSERT_NE(bias, nullptr);  // raw x 2 uA x multiplier 2
    EXPECT_NEAR(*bias->value, (3000 + 100.0 * (lane - 1)) * 4e-6, 1e-12);
  }
  EXPECT_EQ(Find(m, "rx_power_watts", 9), nullptr);

  const auto* rx_thresholds = FindThresholds(m, "rx_power_watts");
  ASSERT_NE(rx_thresholds, nullptr);
  EXPECT_NEAR(rx_thresholds->high_alarm, 2e-3, 1e-12);
  EXPECT_NEAR(rx_thresholds->low_alarm, 10e-6, 1e-12);
  EXPECT_NEAR(rx_thresholds->high_warning, 1.6e-3, 1e-12);
  EXPECT_NEAR(rx_thresholds->low_warning, 50e-6, 1e-12);
  const auto* temperature_thresholds = FindThresholds(m, "temperature_celsius");
  ASSERT_NE(temperature_thresholds, nullptr);
  EXPECT_DOUBLE_EQ(temperature_thresholds->high_alarm, 75);
  EXPECT_DOUBLE_EQ(temperature_thresholds->low_alarm, -5);
  EXPECT_DOUBLE_EQ(temperature_thresholds->high_warning, 70);
  EXPECT_DOUBLE_EQ(temperature_thresholds->low_warning, 0);
  const auto* bias_thresholds = FindThresholds(m, "tx_bias_amperes");
  ASSERT_NE(bias_thresholds, nullptr);
  EXPECT_NEAR(bias_thresholds->high_alarm, 40e-3, 1e-12);
  EXPECT_NE(FindThresholds(m, "voltage_volts"), nullptr);
  EXPECT_NE(FindThresholds(m, "tx_power_watts"), nullptr);
  // Lower page, pages 00h 01h 02h and page 11h of bank 0: five reads, no ioctl.
  EXPECT_EQ(kernel_->pages(), 5);
  EXPECT_EQ(kernel_->infos(), 0);
}

TEST_F(OpticsSourceTest, SixteenLaneModuleReadsBothBanks) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::Osfp16Lane()));
  AddNetdev("eth0");
  Start();
  const NodeSnapshot snap = Collect();
  const OpticsSnapshot& m = Module(snap, "eth0");
  ASSERT_EQ(m.state, State::kModule) << m.error;
  const auto* lane16 = Find(m, "rx_power_watts", 16);
  ASSERT_NE(lane16, nullptr);
  EXPECT_NEAR(*lane16->value, 16000 * 1e-7, 1e-12);
  EXPECT_EQ(Find(m, "tx_bias_amperes", 1), nullptr);  // the module has no bias monitor
  EXPECT_EQ(kernel_->pages(), 6);                     // + page 11h of bank 1
}

TEST_F(OpticsSourceTest, SfpReadsA2hAtAddress0x51) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::SfpInternalCalibration()));
  AddNetdev("eth0");
  Start();
  const NodeSnapshot snap = Collect();
  const OpticsSnapshot& m = Module(snap, "eth0");
  ASSERT_EQ(m.state, State::kModule) << m.error;
  EXPECT_EQ(m.identifier, "SFP");
  EXPECT_EQ(m.vendor, "FINISAR CORP.");
  EXPECT_EQ(m.media, "10GBASE-SR");
  EXPECT_DOUBLE_EQ(*Find(m, "temperature_celsius", 0)->value, 37.5);
  EXPECT_NEAR(*Find(m, "rx_power_watts", 1)->value, 18e-6, 1e-12);
  EXPECT_EQ(Find(m, "rx_power_watts", 1)->flags.low_warning, true);
  EXPECT_EQ(kernel_->pages(), 2);
}

TEST_F(OpticsSourceTest, FallsBackToTheIoctlsWhenNetlinkAnswersEopnotsupp) {
  // A kernel before 5.13: the ethtool family has no MODULE_EEPROM_GET (NLMSG_ERROR
  // -EOPNOTSUPP), only the ioctl answers exist.
  ASSERT_TRUE(ot::WriteIoctl(dir_.path(), "eth0", ot::Qsfp28()));
  ASSERT_TRUE(ot::WriteNetlinkError(dir_.path(), "eth0", ot::LowerPage(), EOPNOTSUPP));
  // A kernel before 5.6 has no ethtool family at all: the live kernel answers EOPNOTSUPP
  // without a reply message.
  ASSERT_TRUE(ot::WriteIoctl(dir_.path(), "eth1", ot::Qsfp28()));
  ASSERT_TRUE(kernel::WriteAnswer(dir_.path(),
                                  kernel::call::ModuleEepromPage{"eth1", ot::LowerPage()}.Key(),
                                  kernel::Answer{{}, EOPNOTSUPP}));
  AddNetdev("eth0");
  AddNetdev("eth1");
  Start();
  NodeSnapshot snap = Collect();
  EXPECT_TRUE(status_.success);
  for (const char* netdev : {"eth0", "eth1"}) {
    const OpticsSnapshot& m = Module(snap, netdev);
    ASSERT_EQ(m.state, State::kModule) << netdev << ": " << m.error;
    EXPECT_EQ(m.transport, "ioctl");
    EXPECT_EQ(m.identifier, "QSFP28");
    EXPECT_EQ(m.vendor, "MELLANOX");
    EXPECT_EQ(m.part_number, "MMA1B00-C100D");
    EXPECT_EQ(m.connector, "MPO 1x12");
    EXPECT_EQ(m.media, "100GBASE-SR4 or 25GBASE-SR");
    EXPECT_DOUBLE_EQ(*Find(m, "temperature_celsius", 0)->value, 37.5);
    EXPECT_NEAR(*Find(m, "voltage_volts", 0)->value, 3.292, 1e-12);
    const auto* rx3 = Find(m, "rx_power_watts", 3);
    ASSERT_NE(rx3, nullptr);
    EXPECT_NEAR(*rx3->value, 40e-6, 1e-12);
    EXPECT_EQ(rx3->flags.low_warning, true);
    EXPECT_EQ(Find(m, "rx_power_watts", 1)->flags.low_warning, false);
    EXPECT_NEAR(FindThresholds(m, "rx_power_watts")->low_warning, 50e-6, 1e-12);
    EXPECT_NEAR(FindThresholds(m, "tx_bias_amperes")->high_alarm, 40e-3, 1e-12);
  }
  // One netlink read each (the lower page), then GMODULEINFO and one GMODULEEEPROM each.
  EXPECT_EQ(kernel_->pages(), 2);
  EXPECT_EQ(kernel_->infos(), 2);
  EXPECT_EQ(kernel_->eeproms(), 2);
}

TEST_F(OpticsSourceTest, EmptyCageAsMlx5AnswersIt) {
  // Before Linux 6.18 a reply without data bytes, after it EIO; GMODULEINFO answers EIO.
  ASSERT_TRUE(ot::WriteEmptyCage(dir_.path(), "eth0", ot::EmptyCageAnswer::kNoData));
  ASSERT_TRUE(ot::WriteEmptyCage(dir_.path(), "eth1", ot::EmptyCageAnswer::kEio));
  // A kernel without paged reads: only the ioctl, which answers EIO.
  ASSERT_TRUE(ot::WriteNetlinkError(dir_.path(), "eth2", ot::LowerPage(), EOPNOTSUPP));
  ASSERT_TRUE(ot::WriteIoctlError(dir_.path(), "eth2", EIO));
  for (const char* n : {"eth0", "eth1", "eth2"}) AddNetdev(n);
  Start();
  NodeSnapshot snap = Collect();
  EXPECT_TRUE(status_.success);
  EXPECT_EQ(status_.parse_errors_total, 0);
  for (const char* netdev : {"eth0", "eth1", "eth2"}) {
    const OpticsSnapshot& m = Module(snap, netdev);
    EXPECT_EQ(m.state, State::kEmptyCage) << netdev << ": " << m.error;
    EXPECT_EQ(m.present, false) << netdev;
    EXPECT_TRUE(m.read_ok) << netdev;
  }
  EXPECT_EQ(Module(snap, "eth2").transport, "ioctl");
  Samples s = Render(snap);
  EXPECT_EQ(s["roce_module_present"]["netdev=eth0"], 0);
  EXPECT_EQ(s["roce_module_present"]["netdev=eth1"], 0);
  EXPECT_EQ(s["roce_module_read_success"]["netdev=eth0"], 1);
  EXPECT_EQ(s.count("roce_module_info"), 0u);
  EXPECT_EQ(s.count("roce_module_temperature_celsius"), 0u);
}

TEST_F(OpticsSourceTest, EmptyCageAsBnxtAnswersIt) {
  // bnxt_en: EINVAL with the extack "Transceiver module not inserted" (the exporter's socket
  // would need NETLINK_EXT_ACK for the text; with it, the source can tell).
  ethtool_nl::ModuleEepromRequest r;
  auto request = ethtool_nl::BuildModuleEepromRequest(ot::kEthtoolFamilyId, "eth0", r, 1);
  ASSERT_TRUE(request);
  rocewatch::testing::KernelSkb skb;
  skb.Ack(*request, EINVAL, false, "bnxt_en: Transceiver module not inserted", 0);
  ASSERT_TRUE(kernel::WriteAnswer(dir_.path(),
                                  kernel::call::ModuleEepromPage{"eth0", ot::LowerPage()}.Key(),
                                  kernel::Answer{skb.bytes(), 0}));
  AddNetdev("eth0");
  Start();
  NodeSnapshot snap = Collect();
  EXPECT_TRUE(status_.success);
  EXPECT_EQ(Module(snap, "eth0").state, State::kEmptyCage);
  EXPECT_EQ(Module(snap, "eth0").present, false);
}

TEST_F(OpticsSourceTest, PageTheDriverCannotAddressIsLeftOut) {
  // The kernel's flat fallback (a driver without get_module_eeprom_by_page) answers EINVAL
  // for pages past eeprom_len, such as CMIS page 11h: the rest still decodes.
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::QsfpDd8Lane()));
  ASSERT_TRUE(ot::WriteNetlinkError(dir_.path(), "eth0", {0x50, 0, 0x11, 128, 128}, EINVAL));
  AddNetdev("eth0");
  Start();
  NodeSnapshot snap = Collect();
  EXPECT_TRUE(status_.success);
  const OpticsSnapshot& m = Module(snap, "eth0");
  ASSERT_EQ(m.state, State::kModule) << m.error;
  EXPECT_TRUE(m.read_ok);
  EXPECT_DOUBLE_EQ(*Find(m, "temperature_celsius", 0)->value, 42.25);
  EXPECT_EQ(Find(m, "rx_power_watts", 1), nullptr);
  EXPECT_NE(FindThresholds(m, "rx_power_watts"), nullptr);
}

TEST_F(OpticsSourceTest, NoModuleInterfaceIsNotAnError) {
  ASSERT_TRUE(ot::WriteNoModuleInterface(dir_.path(), "veth0"));
  AddNetdev("veth0");
  Start();
  NodeSnapshot snap = Collect();
  EXPECT_TRUE(status_.success);
  EXPECT_EQ(status_.unavailable_values, 0);
  EXPECT_EQ(status_.parse_errors_total, 0);
  const OpticsSnapshot& m = Module(snap, "veth0");
  EXPECT_EQ(m.state, State::kNoInterface);
  EXPECT_FALSE(m.present.has_value());
  Samples s = Render(snap);
  // Only the status series: no module series at all.
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s["roce_module_read_success"]["netdev=veth0"], 1);
  EXPECT_EQ(s["roce_module_last_read_timestamp_seconds"]["netdev=veth0"], kUnixStart);
}

TEST_F(OpticsSourceTest, NetdevMissingFromTheCaptureHasNoSeries) {
  AddNetdev("eth9");
  Start();
  NodeSnapshot snap = Collect();
  EXPECT_TRUE(status_.success);
  EXPECT_TRUE(snap.optics.empty());
}

TEST_F(OpticsSourceTest, PermissionDeniedIsUnavailableAndLoggedOnce) {
  ASSERT_TRUE(ot::WritePermissionDenied(dir_.path(), "eth0"));
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth1", ot::Qsfp28()));
  AddNetdev("eth0");
  AddNetdev("eth1");
  Start("0s");  // read on every collection
  ::testing::internal::CaptureStderr();
  NodeSnapshot first = Collect();
  const SourceStatus first_status = status_;
  NodeSnapshot second = Collect();
  const std::string log = ::testing::internal::GetCapturedStderr();
  for (const SourceStatus* st : {&first_status, static_cast<const SourceStatus*>(&status_)}) {
    EXPECT_TRUE(st->success);
    EXPECT_EQ(st->unavailable_values, 1);
    EXPECT_EQ(st->parse_errors_total, 0);
  }
  const OpticsSnapshot& m = Module(second, "eth0");
  EXPECT_EQ(m.state, State::kUnavailable);
  EXPECT_FALSE(m.read_ok);
  EXPECT_FALSE(m.present.has_value());
  EXPECT_THAT(m.error, HasSubstr("eth0"));
  EXPECT_THAT(m.error, HasSubstr("EPERM"));
  EXPECT_EQ(Module(second, "eth1").state, State::kModule);
  // One log line for eth0 over both reads, naming the netdev and the capability.
  std::size_t lines = 0;
  for (std::size_t at = log.find("CAP_NET_ADMIN"); at != std::string::npos;
       at = log.find("CAP_NET_ADMIN", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 1u) << log;
  EXPECT_THAT(log, HasSubstr("netdev=eth0"));
  Samples s = Render(second);
  EXPECT_EQ(s["roce_module_read_success"]["netdev=eth0"], 0);
  EXPECT_EQ(s["roce_module_read_success"]["netdev=eth1"], 1);
  EXPECT_EQ(s["roce_module_present"].count("netdev=eth0"), 0u);
  EXPECT_EQ(s["roce_module_present"]["netdev=eth1"], 1);
}

TEST_F(OpticsSourceTest, PermissionDeniedOnTheIoctlAfterAnOldKernelsNetlink) {
  // Kernel before 5.13, no CAP_NET_ADMIN: netlink has no command, the ioctl says EPERM.
  ASSERT_TRUE(ot::WriteNetlinkError(dir_.path(), "eth0", ot::LowerPage(), EOPNOTSUPP));
  ASSERT_TRUE(ot::WriteIoctlError(dir_.path(), "eth0", EPERM));
  AddNetdev("eth0");
  Start();
  const NodeSnapshot snap = Collect();
  const OpticsSnapshot& m = Module(snap, "eth0");
  EXPECT_EQ(m.state, State::kUnavailable);
  EXPECT_TRUE(status_.success);
  EXPECT_EQ(status_.unavailable_values, 1);
}

TEST_F(OpticsSourceTest, CorruptedPageIsAParseErrorOfThatNetdevOnly) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::QsfpDd8Lane()));
  // Page 02h's reply is cut short in the capture: not a netlink message any more.
  const kernel::ModulePage page02{0x50, 0, 0x02, 128, 128};
  ASSERT_TRUE(kernel::WriteAnswer(dir_.path(), kernel::call::ModuleEepromPage{"eth0", page02}.Key(),
                                  kernel::Answer{{0x2c, 0x00, 0x00, 0x00, 0x15, 0x00}, 0}));
  // eth2: a module whose identifier no decoder knows.
  optics::EepromImage unknown;
  std::vector<std::uint8_t> lower(128, 0);
  lower[0] = 0x42;
  unknown.SetLower(0x50, lower);
  ASSERT_TRUE(ot::WriteNetlinkPages(dir_.path(), "eth2", unknown));
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth1", ot::Qsfp28()));
  for (const char* n : {"eth0", "eth1", "eth2"}) AddNetdev(n);
  Start();
  ::testing::internal::CaptureStderr();
  NodeSnapshot snap = Collect();
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(status_.success);  // parse errors do not fail the source
  EXPECT_EQ(status_.parse_errors_total, 2);
  const OpticsSnapshot& bad = Module(snap, "eth0");
  EXPECT_EQ(bad.state, State::kFailed);
  EXPECT_FALSE(bad.read_ok);
  EXPECT_EQ(bad.present, true);
  EXPECT_THAT(bad.error, HasSubstr("netdev eth0"));
  EXPECT_THAT(bad.error, HasSubstr("page 02h"));
  const OpticsSnapshot& unknown_module = Module(snap, "eth2");
  EXPECT_EQ(unknown_module.state, State::kFailed);
  EXPECT_THAT(unknown_module.error, HasSubstr("netdev eth2"));
  EXPECT_THAT(unknown_module.error, HasSubstr("does not decode"));
  EXPECT_THAT(log, HasSubstr("netdev=eth0"));
  EXPECT_THAT(log, HasSubstr("netdev=eth2"));
  const OpticsSnapshot& good = Module(snap, "eth1");
  ASSERT_EQ(good.state, State::kModule);
  EXPECT_DOUBLE_EQ(*Find(good, "temperature_celsius", 0)->value, 37.5);
  Samples s = Render(snap);
  EXPECT_EQ(s["roce_module_read_success"]["netdev=eth0"], 0);
  EXPECT_EQ(s["roce_module_read_success"]["netdev=eth1"], 1);
  EXPECT_EQ(s["roce_module_temperature_celsius"].size(), 1u);
  // The parse error is counted once per read, not once per scrape of the cached result.
  Collect();
  EXPECT_EQ(status_.parse_errors_total, 2);
}

TEST_F(OpticsSourceTest, KernelFailureFailsTheSourceAndKeepsTheOthers) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::Qsfp28()));
  ASSERT_TRUE(ot::WriteNetlinkError(dir_.path(), "eth0", {0x50, 0, 0x03, 128, 128}, ETIMEDOUT));
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth1", ot::Qsfp28()));
  AddNetdev("eth0");
  AddNetdev("eth1");
  Start();
  NodeSnapshot snap = Collect();
  EXPECT_FALSE(status_.success);
  ASSERT_EQ(status_.errors.size(), 1u);
  EXPECT_THAT(status_.errors[0], HasSubstr("netdev eth0"));
  EXPECT_THAT(status_.errors[0], HasSubstr("page 03h"));
  EXPECT_EQ(Module(snap, "eth0").state, State::kFailed);
  EXPECT_EQ(Module(snap, "eth1").state, State::kModule);
}

TEST_F(OpticsSourceTest, ReadsEachModuleOncePerInterval) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::QsfpDd8Lane()));
  AddNetdev("eth0");
  Start("60s");
  NodeSnapshot first = Collect();
  const int calls = kernel_->module_calls();
  EXPECT_EQ(calls, 5);
  Advance(30);
  NodeSnapshot second = Collect();
  EXPECT_EQ(kernel_->module_calls(), calls);  // served from the cache
  EXPECT_EQ(Module(second, "eth0").last_read_timestamp_seconds, kUnixStart);
  EXPECT_NEAR(*Find(Module(second, "eth0"), "rx_power_watts", 6)->value, 30e-6, 1e-12);
  EXPECT_EQ(Render(first), Render(second));
  Advance(30);  // 60 s after the read: due again
  NodeSnapshot third = Collect();
  EXPECT_EQ(kernel_->module_calls(), 2 * calls);
  EXPECT_EQ(Module(third, "eth0").last_read_timestamp_seconds, kUnixStart + 60);
}

TEST_F(OpticsSourceTest, ANewNetdevIsReadAtOnceAndAGoneOneForgotten) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::Qsfp28()));
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth1", ot::Qsfp28()));
  AddNetdev("eth0");
  Start();
  Collect();
  EXPECT_EQ(kernel_->pages(), 3);
  AddNetdev("eth1");
  source_->Prepare(inventory_);
  NodeSnapshot snap = Collect();
  EXPECT_EQ(kernel_->pages(), 6);  // eth1 read now, eth0 still cached
  EXPECT_EQ(snap.optics.size(), 2u);
  inventory_.netdevs.erase(inventory_.netdevs.begin());
  source_->Prepare(inventory_);
  snap = Collect();
  ASSERT_EQ(snap.optics.size(), 1u);
  EXPECT_EQ(snap.optics[0].netdev, "eth1");
}

TEST_F(OpticsSourceTest, RejectsABadInterval) {
  kernel_ = std::make_unique<CountingKernel>(kernel::MakeReplayKernel(dir_.path()));
  collectors::SourceEnv env;
  env.kernel = kernel_.get();
  env.options["interval"] = "often";
  auto source = collectors::MakeOpticsSource(env);
  ASSERT_FALSE(source.ok());
  EXPECT_THAT(source.error().message, HasSubstr("--collector.optics.interval"));
}

// --collector.optics.all-thresholds: all 20 thresholds, the alarms the default leaves out
// with their values.
TEST_F(OpticsSourceTest, AllThresholdsServesEveryLevel) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::Qsfp28()));
  AddNetdev("eth0");
  Start("60s", "", "true");
  Samples s = Render(Collect(), nullptr);
  ASSERT_EQ(s["roce_module_threshold"].size(), 20u);
  EXPECT_NEAR(s["roce_module_threshold"]["netdev=eth0,sensor=voltage_volts,level=low_alarm"], 3.0,
              1e-12);
  EXPECT_NEAR(s["roce_module_threshold"]["netdev=eth0,sensor=tx_bias_amperes,level=high_alarm"],
              40e-3, 1e-12);
}

TEST_F(OpticsSourceTest, RendersTheFamiliesOfOneModule) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::Qsfp28()));
  AddNetdev("eth0");
  Start();
  const NodeSnapshot snap = Collect();
  std::string text;
  Samples s = Render(snap, &text);
  const auto families = testing::RenderText(collectors::RenderOptics, snap);
  std::vector<std::string> names;
  for (const auto& f : families.families()) names.emplace_back(f.name);
  EXPECT_THAT(names,
              ::testing::UnorderedElementsAre(
                  "roce_module_present", "roce_module_info", "roce_module_temperature_celsius",
                  "roce_module_voltage_volts", "roce_module_lane_tx_bias_amperes",
                  "roce_module_lane_tx_power_watts", "roce_module_tx_power_advertised",
                  "roce_module_lane_rx_power_watts", "roce_module_threshold", "roce_module_flag",
                  "roce_module_flags_raised", "roce_module_last_read_timestamp_seconds",
                  "roce_module_read_success"));
  for (const auto& f : families.families())
    EXPECT_EQ(f.type, lint::observe::MetricType::kGauge) << f.name;
  EXPECT_EQ(s["roce_module_tx_power_advertised"]["netdev=eth0"], 1);  // byte 220 bit 2 set

  EXPECT_EQ(s["roce_module_present"]["netdev=eth0"], 1);
  EXPECT_EQ(s["roce_module_info"],
            (std::map<std::string, double>{
                {"netdev=eth0,identifier=QSFP28,spec=SFF-8636 rev 2.8-2.10,vendor=MELLANOX,"
                 "part_number=MMA1B00-C100D,serial=MT2142FT01234,revision=B2,connector=MPO 1x12,"
                 "media=100GBASE-SR4 or 25GBASE-SR",
                 1}}));
  EXPECT_DOUBLE_EQ(s["roce_module_temperature_celsius"]["netdev=eth0"], 37.5);
  EXPECT_NEAR(s["roce_module_voltage_volts"]["netdev=eth0"], 3.292, 1e-12);
  ASSERT_EQ(s["roce_module_lane_rx_power_watts"].size(), 4u);
  EXPECT_NEAR(s["roce_module_lane_rx_power_watts"]["netdev=eth0,lane=1"], 0.8e-3, 1e-12);
  EXPECT_NEAR(s["roce_module_lane_rx_power_watts"]["netdev=eth0,lane=3"], 40e-6, 1e-12);
  EXPECT_NEAR(s["roce_module_lane_tx_bias_amperes"]["netdev=eth0,lane=2"], 14.4e-3, 1e-12);
  EXPECT_NEAR(s["roce_module_lane_tx_power_watts"]["netdev=eth0,lane=4"], 0.5e-3, 1e-12);
  // Five sensors, four levels each; by default the 13 rules and panels read: not the
  // temperature lows, the voltage and bias alarms, the TX power high alarm.
  ASSERT_EQ(s["roce_module_threshold"].size(), 13u);
  for (const char* absent : {"sensor=temperature_celsius,level=low_alarm",
                             "sensor=temperature_celsius,level=low_warning",
                             "sensor=voltage_volts,level=high_alarm", "sensor=voltage_volts,level=low_alarm",
                             "sensor=tx_bias_amperes,level=high_alarm",
                             "sensor=tx_bias_amperes,level=low_alarm",
                             "sensor=tx_power_watts,level=high_alarm"})
    EXPECT_EQ(s["roce_module_threshold"].count(std::string("netdev=eth0,") + absent), 0u) << absent;
  EXPECT_NEAR(s["roce_module_threshold"]["netdev=eth0,sensor=rx_power_watts,level=low_warning"],
              50e-6, 1e-12);
  EXPECT_DOUBLE_EQ(
      s["roce_module_threshold"]["netdev=eth0,sensor=temperature_celsius,level=high_alarm"], 75);
  EXPECT_NEAR(s["roce_module_threshold"]["netdev=eth0,sensor=tx_bias_amperes,level=high_warning"],
              36e-3, 1e-12);
  EXPECT_NEAR(s["roce_module_threshold"]["netdev=eth0,sensor=tx_power_watts,level=low_alarm"],
              50e-6, 1e-12);
  // By default only the raised flag is a series, beside the counts of raised flags.
  EXPECT_EQ(s["roce_module_flag"],
            (std::map<std::string, double>{
                {"netdev=eth0,sensor=rx_power_watts,lane=3,level=low_warning", 1}}));
  EXPECT_EQ(s["roce_module_flags_raised"],
            (std::map<std::string, double>{{"netdev=eth0,kind=alarm", 0},
                                           {"netdev=eth0,kind=warning", 1}}));
  EXPECT_EQ(s["roce_module_last_read_timestamp_seconds"]["netdev=eth0"], kUnixStart);
  EXPECT_EQ(s["roce_module_read_success"]["netdev=eth0"], 1);

  // The exposition text, as /metrics serves it, passes promtool where it is installed.
  if (std::system("command -v promtool >/dev/null 2>&1") != 0) return;
  TestDir out;
  out.Write("metrics.prom", text);
  const std::string cmd = "promtool check metrics < " + (out / "metrics.prom") + " > " +
                          (out / "promtool.out") + " 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream result(out / "promtool.out");
  std::stringstream said;
  said << result.rdbuf();
  EXPECT_EQ(rc, 0) << said.str();
  EXPECT_EQ(said.str(), "");
}

TEST_F(OpticsSourceTest, AllFlagsServesTheClearFlagsToo) {
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::Qsfp28()));
  AddNetdev("eth0");
  Start("60s", "true");
  Samples s = Render(Collect(), nullptr);
  const auto& flags = s["roce_module_flag"];
  EXPECT_EQ(flags.at("netdev=eth0,sensor=rx_power_watts,lane=3,level=low_warning"), 1);
  EXPECT_EQ(flags.at("netdev=eth0,sensor=rx_power_watts,lane=1,level=low_warning"), 0);
  EXPECT_EQ(flags.at("netdev=eth0,sensor=temperature_celsius,lane=0,level=high_alarm"), 0);
  EXPECT_EQ(flags.at("netdev=eth0,sensor=voltage_volts,lane=0,level=low_warning"), 0);
  double raised = 0;
  for (const auto& [labels, value] : flags) raised += value;
  EXPECT_EQ(raised, 1);
  EXPECT_EQ(s["roce_module_flags_raised"]["netdev=eth0,kind=warning"], 1);
}

TEST_F(OpticsSourceTest, RejectsABadAllFlags) {
  kernel_ = std::make_unique<CountingKernel>(kernel::MakeReplayKernel(dir_.path()));
  collectors::SourceEnv env;
  env.kernel = kernel_.get();
  env.options["all-flags"] = "yes";
  auto source = collectors::MakeOpticsSource(env);
  ASSERT_FALSE(source.ok());
  EXPECT_THAT(source.error().message, HasSubstr("--collector.optics.all-flags"));
}

TEST_F(OpticsSourceTest, ScaledRxPowerRaisesTheModulesOwnFlags) {
  ot::CaptureOptions options;
  options.rx_power_scale = 0.01;  // 0.8 mW -> 8 uW, under the 10 uW low alarm
  ASSERT_TRUE(ot::WriteModule(dir_.path(), "eth0", ot::QsfpDd8Lane(), options));
  AddNetdev("eth0");
  Start();
  const NodeSnapshot snap = Collect();
  const OpticsSnapshot& m = Module(snap, "eth0");
  ASSERT_EQ(m.state, State::kModule) << m.error;
  const auto* rx1 = Find(m, "rx_power_watts", 1);
  EXPECT_NEAR(*rx1->value, 8e-6, 1e-12);
  EXPECT_EQ(rx1->flags.low_alarm, true);
  EXPECT_EQ(rx1->flags.low_warning, true);
  EXPECT_EQ(rx1->flags.high_warning, false);
  EXPECT_NEAR(*Find(m, "tx_power_watts", 1)->value, 0.6e-3, 1e-12);  // TX untouched
}

TEST_F(OpticsSourceTest, WriterToolWritesWhatTheSourceReads) {
  const std::string tool =
      std::string(ROCEWATCH_BINARY_DIR) + "/tests/exporter/optics/optics_capture_writer";
  const std::string run = tool + " " + dir_.path() +
                          " eth0 qsfp_dd_8_lane --rx-power-scale=0.5 > " + (dir_ / "out.txt") +
                          " 2>&1";
  ASSERT_EQ(std::system(run.c_str()), 0);
  const std::string empty = tool + " " + dir_.path() + " eth1 none --empty-cage=eio > /dev/null";
  ASSERT_EQ(std::system(empty.c_str()), 0);
  EXPECT_NE(std::system((tool + " " + dir_.path() + " eth2 nosuch 2>/dev/null").c_str()), 0);
  EXPECT_NE(std::system(
                (tool + " " + dir_.path() + " eth2 qsfp28 --rx-power-scale=x 2>/dev/null").c_str()),
            0);
  AddNetdev("eth0");
  AddNetdev("eth1");
  Start();
  NodeSnapshot snap = Collect();
  const OpticsSnapshot& m = Module(snap, "eth0");
  ASSERT_EQ(m.state, State::kModule) << m.error;
  EXPECT_NEAR(*Find(m, "rx_power_watts", 1)->value, 0.4e-3, 1e-12);
  EXPECT_EQ(Module(snap, "eth1").state, State::kEmptyCage);
  // --list names every image and none.
  const std::string list = tool + " --list > " + (dir_ / "list.txt");
  ASSERT_EQ(std::system(list.c_str()), 0);
  std::ifstream in(dir_ / "list.txt");
  std::string line;
  std::vector<std::string> names;
  while (std::getline(in, line)) names.push_back(line);
  std::vector<std::string> expected = ot::ImageNames();
  expected.push_back("none");
  EXPECT_EQ(names, expected);
}

}  // namespace
}  // namespace rocewatch
