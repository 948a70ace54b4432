// optics_capture: the kernel-shaped answers it writes decode with the real decoders, are the
// bytes the kernel would send, and sit under the keys the replay kernel reads.

#include "exporter/optics/optics_capture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>

#include "common/test_dir.h"
#include "exporter/capture/files/capture_files.h"
#include "exporter/netlink/ethtool_genl.h"
#include "exporter/optics/decode.h"
#include "exporter/netlink/kernel_skb.h"
#include "exporter/optics/images.h"

namespace rocewatch {
namespace kernel {
// For the matchers (found by argument-dependent lookup).
bool operator==(const ModulePage& a, const ModulePage& b) {
  return a.i2c_address == b.i2c_address && a.bank == b.bank && a.page == b.page &&
         a.offset == b.offset && a.length == b.length;
}
void PrintTo(const ModulePage& p, std::ostream* os) {
  *os << "{a" << std::hex << int(p.i2c_address) << std::dec << " b" << int(p.bank) << " p"
      << int(p.page) << " o" << p.offset << " l" << p.length << "}";
}
}  // namespace kernel
namespace {

namespace ot = optics::testing;
using rocewatch::testing::TestDir;
using ::testing::ElementsAre;

TEST(OpticsCapture, ReplyIsWhatTheKernelBuilds) {
  const std::vector<std::uint8_t> data = {0x11, 0x08, 0x00, 0x00, 0x7f};
  const auto reply = ot::ModuleEepromReply("ens1f0np0", 7, 42, data);
  // The same message through the test mirror of the kernel's skb helpers.
  rocewatch::testing::KernelSkb skb;
  const std::size_t start = skb.GenlmsgPut(
      15338, 42, ot::kEthtoolFamilyId, ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, ETHTOOL_GENL_VERSION);
  const std::size_t nest = skb.NestStart(ETHTOOL_A_MODULE_EEPROM_HEADER);
  skb.NlaPutU32(ETHTOOL_A_HEADER_DEV_INDEX, 7);
  skb.NlaPutString(ETHTOOL_A_HEADER_DEV_NAME, "ens1f0np0");
  skb.NestEnd(nest);
  skb.NlaPut(ETHTOOL_A_MODULE_EEPROM_DATA, data.data(), data.size());
  skb.NlmsgEnd(start);
  EXPECT_EQ(reply, skb.bytes());

  auto decoded = ethtool_nl::DecodeModuleEepromReply(reply);
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->header.ifname, "ens1f0np0");
  EXPECT_EQ(decoded->header.ifindex, 7u);
  EXPECT_EQ(decoded->data, data);
}

TEST(OpticsCapture, ErrorIsAnAckEchoingTheRequest) {
  const kernel::ModulePage page{0x50, 0, 0x03, 128, 128};
  const auto reply = ot::ModuleEepromError("eth0", page, 3, EIO);
  auto decoded = ethtool_nl::DecodeModuleEepromReply(reply);
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error().code, EIO);
  ethtool_nl::ModuleEepromRequest r;
  r.page = 0x03;
  r.offset = 128;
  auto request = ethtool_nl::BuildModuleEepromRequest(ot::kEthtoolFamilyId, "eth0", r, 3);
  ASSERT_TRUE(request);
  ASSERT_EQ(reply.size(), 16 + 4 + request->size());
  EXPECT_TRUE(std::equal(request->begin(), request->end(), reply.begin() + 20));
  // The same bytes as the test mirror of the kernel's netlink_ack.
  rocewatch::testing::KernelSkb skb;
  skb.Ack(*request, EIO);
  EXPECT_EQ(reply, skb.bytes());
}

TEST(OpticsCapture, ReadsFollowPagesToReadUntilItStopsGrowing) {
  using P = kernel::ModulePage;
  EXPECT_THAT(ot::NetlinkReads(ot::Qsfp28()),
              ElementsAre(P{0x50, 0, 0, 0, 128}, P{0x50, 0, 0, 128, 128}, P{0x50, 0, 3, 128, 128}));
  EXPECT_THAT(ot::NetlinkReads(ot::SfpInternalCalibration()),
              ElementsAre(P{0x50, 0, 0, 0, 128}, P{0x51, 0, 0, 0, 128}));
  EXPECT_THAT(ot::NetlinkReads(ot::CmisFlatMemory()),
              ElementsAre(P{0x50, 0, 0, 0, 128}, P{0x50, 0, 0, 128, 128}));
  EXPECT_THAT(
      ot::NetlinkReads(ot::Osfp16Lane()),
      ElementsAre(P{0x50, 0, 0, 0, 128}, P{0x50, 0, 0, 128, 128}, P{0x50, 0, 1, 128, 128},
                  P{0x50, 0, 2, 128, 128}, P{0x50, 0, 0x11, 128, 128}, P{0x50, 1, 0x11, 128, 128}));
}

TEST(OpticsCapture, WritesUnderTheReplayKeys) {
  TestDir dir;
  ASSERT_TRUE(ot::WriteModule(dir.path(), "eth0", ot::Qsfp28()));
  namespace fs = std::filesystem;
  const fs::path kernel_dir = fs::path(dir.path()) / "kernel";
  EXPECT_TRUE(fs::exists(kernel_dir / "ethtool-netlink/eth0/module_eeprom.a50.b0.p00.o0.l128"));
  EXPECT_TRUE(fs::exists(kernel_dir / "ethtool-netlink/eth0/module_eeprom.a50.b0.p00.o128.l128"));
  EXPECT_TRUE(fs::exists(kernel_dir / "ethtool-netlink/eth0/module_eeprom.a50.b0.p03.o128.l128"));
  EXPECT_TRUE(fs::exists(kernel_dir / "ethtool/eth0/module_info"));
  EXPECT_TRUE(fs::exists(kernel_dir / "ethtool/eth0/module_eeprom.0.640"));

  // GMODULEINFO: SFF-8636, 640 bytes; GMODULEEEPROM: the header then ethtool's raw layout.
  kernel::Answer info = kernel::ReadAnswer(dir.path(), kernel::call::ModuleInfo{"eth0"}.Key());
  ASSERT_TRUE(info.ok());
  ASSERT_EQ(info.bytes.size(), sizeof(ethtool_modinfo));
  ethtool_modinfo modinfo;
  std::memcpy(&modinfo, info.bytes.data(), sizeof modinfo);
  EXPECT_EQ(modinfo.cmd, static_cast<std::uint32_t>(ETHTOOL_GMODULEINFO));
  EXPECT_EQ(modinfo.type, static_cast<std::uint32_t>(ETH_MODULE_SFF_8636));
  EXPECT_EQ(modinfo.eeprom_len, 640u);
  kernel::Answer eeprom =
      kernel::ReadAnswer(dir.path(), kernel::call::ModuleEeprom{"eth0", 0, 640}.Key());
  ASSERT_TRUE(eeprom.ok());
  ASSERT_EQ(eeprom.bytes.size(), sizeof(ethtool_eeprom) + 640);
  const auto raw = optics::ToRaw(ot::Qsfp28());
  EXPECT_TRUE(std::equal(raw.begin(), raw.end(), eeprom.bytes.begin() + sizeof(ethtool_eeprom)));

  // Errors are NLMSG_ERROR messages on netlink, errno files for the ioctl.
  ASSERT_TRUE(ot::WritePermissionDenied(dir.path(), "eth1"));
  kernel::Answer nl =
      kernel::ReadAnswer(dir.path(), kernel::call::ModuleEepromPage{"eth1", ot::LowerPage()}.Key());
  ASSERT_TRUE(nl.ok());
  EXPECT_EQ(ethtool_nl::DecodeModuleEepromReply(nl.bytes).error().code, EPERM);
  EXPECT_EQ(kernel::ReadAnswer(dir.path(), kernel::call::ModuleInfo{"eth1"}.Key()).error, EPERM);
}

TEST(OpticsCapture, IoctlLayoutsAsDriversReportThem) {
  EXPECT_EQ(ot::IoctlLayout(ot::SfpInternalCalibration()).type,
            static_cast<std::uint32_t>(ETH_MODULE_SFF_8472));
  EXPECT_EQ(ot::IoctlLayout(ot::SfpInternalCalibration()).raw.size(), 512u);
  EXPECT_EQ(ot::IoctlLayout(ot::CmisFlatMemory()).raw.size(), 256u);
  EXPECT_EQ(ot::IoctlLayout(ot::QsfpDd8Lane()).raw.size(), 512u);
  EXPECT_EQ(ot::IoctlLayout(ot::QsfpDd8Lane()).type,
            static_cast<std::uint32_t>(ETH_MODULE_SFF_8636));
}

TEST(OpticsCapture, ScaleRxPowerScalesTheRawWordsAndSetsFlags) {
  auto scaled = ot::ScaleRxPower(ot::Qsfp28(), 3.0);  // 0.8 mW -> 2.4 mW: over the 2 mW alarm
  ASSERT_TRUE(scaled) << scaled.error().message;
  auto info = optics::Decode(*scaled);
  ASSERT_TRUE(info) << info.error().message;
  ASSERT_EQ(info->lanes.size(), 4u);
  EXPECT_NEAR(*info->lanes[0].rx_power_watts.value, 2.4e-3, 1e-12);
  EXPECT_EQ(info->lanes[0].rx_power_watts.flags.high_alarm, true);
  EXPECT_EQ(info->lanes[0].rx_power_watts.flags.high_warning, true);
  EXPECT_EQ(info->lanes[0].rx_power_watts.flags.low_warning, false);
  EXPECT_NEAR(*info->lanes[2].rx_power_watts.value, 120e-6, 1e-12);   // 40 uW x 3
  EXPECT_EQ(info->lanes[2].rx_power_watts.flags.low_warning, false);  // now above 50 uW
  EXPECT_DOUBLE_EQ(*info->temperature_celsius.value, 37.5);           // the rest untouched

  auto sfp = ot::ScaleRxPower(ot::SfpInternalCalibration(), 0.5);  // 18 uW -> 9 uW
  ASSERT_TRUE(sfp);
  auto sfp_info = optics::Decode(*sfp);
  ASSERT_TRUE(sfp_info);
  EXPECT_NEAR(*sfp_info->lanes[0].rx_power_watts.value, 9e-6, 1e-12);
  EXPECT_EQ(sfp_info->lanes[0].rx_power_watts.flags.low_alarm, true);

  EXPECT_FALSE(ot::ScaleRxPower(ot::Qsfp28(), -1));
  // Scale 1 keeps the spec-built flags: they agree with the thresholds already.
  auto same = ot::ScaleRxPower(ot::QsfpDd8Lane(), 1.0);
  ASSERT_TRUE(same);
  EXPECT_EQ(optics::ToPagedHexDump(*same), optics::ToPagedHexDump(ot::QsfpDd8Lane()));
}

TEST(OpticsCapture, ImagesByName) {
  EXPECT_THAT(ot::ImageNames(), ::testing::Contains("qsfp_dd_8_lane"));
  auto image = ot::ImageByName("qsfp28");
  ASSERT_TRUE(image);
  EXPECT_EQ(optics::ToRaw(*image), optics::ToRaw(ot::Qsfp28()));
  EXPECT_FALSE(ot::ImageByName("none"));
}

}  // namespace
}  // namespace rocewatch
