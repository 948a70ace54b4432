// The verbs collector on replayed libibverbs answers: RoCE and InfiniBand ports, no verbs device,
// extended speeds and short answers.

#include "common/kernel_answer_harness.h"

namespace rocewatch {
namespace {

using namespace rocewatch::testing::kernel_sources;  // NOLINT(google-build-using-namespace)

TEST(VerbsSource, RocePortsActiveMtuSpeedAndGidTable) {
  const std::string dir = FixtureDir("mlx5-roce");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("verbs", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.verbs.size(), 4u);
  for (const auto& v : r.snap.verbs) {
    EXPECT_EQ(v.port, 1u);
    EXPECT_EQ(v.active_mtu_bytes, 4096) << v.device;
    EXPECT_EQ(v.max_mtu_bytes, 4096) << v.device;
    EXPECT_EQ(v.gid_table_length, 255) << v.device;
    // 4X NDR = 400 Gb/s; the down mlx5_2 reports mlx5's fallback 4X QDR = 40 Gb/s, as
    // its sysfs rate does.
    EXPECT_EQ(v.active_speed_bytes_per_second, v.device == "mlx5_2" ? 5e9 : 50e9) << v.device;
  }
}

TEST(VerbsSource, InfinibandPorts) {
  const std::string dir = FixtureDir("mlx5-ib");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("verbs", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success);
  ASSERT_EQ(r.snap.verbs.size(), 2u);
  for (const auto& v : r.snap.verbs) {
    EXPECT_EQ(v.active_mtu_bytes, 4096);
    EXPECT_EQ(v.gid_table_length, 8);
    EXPECT_EQ(v.active_speed_bytes_per_second, 50e9);
  }
}

TEST(VerbsSource, NoVerbsDeviceIsNoSeriesAndNoError) {
  TestDir dir;
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) {
    WriteErrno(dir, kernel::call::VerbsPortAttr{d, 1}.Key(), ENODEV);
  }
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("verbs", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_TRUE(r.status.success);
  EXPECT_TRUE(r.status.errors.empty());
  EXPECT_FALSE(r.status.rediscover);
  EXPECT_TRUE(r.snap.verbs.empty());
}

// A device libibverbs does not list is not asked again until the inventory changes.
TEST(VerbsSource, ADeviceWithoutVerbsIsNotAskedAgainUntilTheInventoryChanges) {
  class Counting final : public kernel::KernelAnswers {
   public:
    int asks = 0;
    kernel::Answer Ask(const kernel::Request& r) override {
      if (std::holds_alternative<kernel::call::VerbsPortAttr>(r)) ++asks;
      return {{}, ENODEV};
    }
  } kernel;
  SourceUnderTest source("verbs", kernel);
  Inventory inventory = FixtureInventory(FixtureDir("mlx5-roce"));
  source.Collect(inventory);
  EXPECT_EQ(kernel.asks, 4);  // one port of each of the four devices
  Collected again = source.Collect(inventory);
  EXPECT_EQ(kernel.asks, 4);
  EXPECT_TRUE(again.status.success);
  inventory.generation += 1;  // a device or port appeared, a driver reloaded
  source.Collect(inventory);
  EXPECT_EQ(kernel.asks, 8);
}

TEST(VerbsSource, ExtendedSpeedAndShortAnswers) {
  TestDir dir;
  // rdma-core 47+: 56 bytes, active_speed 0 and active_speed_ex 256 (XDR, 200 Gb/s a lane).
  std::vector<std::uint8_t> xdr(56, 0);
  const std::int32_t head[4] = {4, 5, 5, 255};  // ACTIVE, max 4096, active 4096, 255 GIDs
  std::memcpy(xdr.data(), head, sizeof head);
  xdr[43] = 2;  // active_width 4X
  xdr[44] = 0;  // active_speed
  const std::uint32_t speed_ex = 256;
  std::memcpy(xdr.data() + 52, &speed_ex, sizeof speed_ex);
  WriteBytes(dir, kernel::call::VerbsPortAttr{"mlx5_0", 1}.Key(), xdr);
  WriteBytes(dir, kernel::call::VerbsPortAttr{"mlx5_1", 1}.Key(), std::vector<std::uint8_t>(40, 0));
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("verbs", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_FALSE(r.status.success);
  EXPECT_TRUE(AnyErrorHas(r.status, "device mlx5_1", "too short for struct ibv_port_attr"))
      << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.verbs.size(), 1u);
  EXPECT_EQ(r.snap.verbs[0].device, "mlx5_0");
  EXPECT_EQ(r.snap.verbs[0].active_speed_bytes_per_second, 4 * 200e9 / 8);
}

}  // namespace
}  // namespace rocewatch
