#include "exporter/inventory/inventory.h"

#include <gtest/gtest.h>

#include "common/fixture_paths.h"

namespace rocewatch {
namespace {

using rocewatch::testing::FixtureDir;

TEST(Discover, RoceNodeDevicesPortsAndNetdevs) {
  fs::Tree sysfs("sysfs", FixtureDir("mlx5-roce") + "/sys");
  Inventory inv = Discover(sysfs, {}, 1);
  EXPECT_TRUE(inv.errors.empty());
  ASSERT_EQ(inv.devices.size(), 4u);
  const DeviceRef& d = inv.devices[0];
  EXPECT_EQ(d.name, "mlx5_0");
  EXPECT_EQ(d.pci_address, "0000:17:00.0");
  EXPECT_EQ(d.driver, "mlx5_core");
  EXPECT_EQ(d.dir, "devices/pci0000:16/0000:16:01.0/0000:17:00.0/infiniband/mlx5_0");
  ASSERT_EQ(d.ports.size(), 1u);
  EXPECT_EQ(d.ports[0].number, 1u);
  EXPECT_EQ(d.ports[0].link_layer, "Ethernet");
  EXPECT_EQ(d.ports[0].netdev, "ens1f0np0");
  EXPECT_EQ(inv.devices[3].ports[0].netdev, "ens4f0np0");
  ASSERT_EQ(inv.netdevs.size(), 4u);  // eno1 and lo have no RDMA device
  EXPECT_EQ(inv.netdevs[1].name, "ens2f0np0");
  EXPECT_EQ(inv.netdevs[1].device, "mlx5_1");
  EXPECT_EQ(inv.netdevs[1].port, 1u);
}

TEST(Discover, FiltersApplyBeforeReading) {
  fs::Tree sysfs("sysfs", FixtureDir("mlx5-roce") + "/sys");
  DiscoverOptions opts;
  opts.devices.include = std::regex("^mlx5_[0-2]$");
  opts.devices.exclude = std::regex("mlx5_1");
  opts.extra_netdevs = std::regex("^eno");
  Inventory inv = Discover(sysfs, opts, 1);
  ASSERT_EQ(inv.devices.size(), 2u);
  EXPECT_EQ(inv.devices[0].name, "mlx5_0");
  EXPECT_EQ(inv.devices[1].name, "mlx5_2");
  ASSERT_EQ(inv.netdevs.size(), 3u);
  EXPECT_EQ(inv.netdevs[2].name, "eno1");
  EXPECT_EQ(inv.netdevs[2].device, "");
}

TEST(Discover, InfinibandNodeMapsIpoibNetdevs) {
  fs::Tree sysfs("sysfs", FixtureDir("mlx5-ib") + "/sys");
  Inventory inv = Discover(sysfs, {}, 1);
  ASSERT_EQ(inv.devices.size(), 2u);
  EXPECT_EQ(inv.devices[0].ports[0].link_layer, "InfiniBand");
  EXPECT_EQ(inv.devices[0].ports[0].netdev, "ibp23s0");
  EXPECT_EQ(inv.devices[1].ports[0].netdev, "ibp61s0");
}

TEST(Discover, SriovVfsNameTheirPf) {
  fs::Tree sysfs("sysfs", FixtureDir("mlx5-sriov") + "/sys");
  Inventory inv = Discover(sysfs, {}, 1);
  EXPECT_TRUE(inv.errors.empty());
  ASSERT_EQ(inv.devices.size(), 3u);
  EXPECT_EQ(inv.devices[0].pci_address, "0000:81:00.0");
  EXPECT_EQ(inv.devices[0].pf_address, "0000:81:00.0");
  EXPECT_FALSE(inv.devices[0].is_vf);
  EXPECT_EQ(inv.devices[1].name, "mlx5_1");
  EXPECT_EQ(inv.devices[1].pci_address, "0000:81:00.2");
  EXPECT_EQ(inv.devices[1].pci_dir, "devices/pci0000:80/0000:80:01.0/0000:81:00.2");
  EXPECT_EQ(inv.devices[1].pf_address, "0000:81:00.0");
  EXPECT_TRUE(inv.devices[1].is_vf);
  EXPECT_EQ(inv.devices[1].driver, "mlx5_core");
  EXPECT_EQ(inv.devices[1].ports[0].netdev, "enp129s0f0v0");
  ASSERT_EQ(inv.netdevs.size(), 3u);
  EXPECT_FALSE(inv.netdevs[0].is_vf);
  EXPECT_EQ(inv.netdevs[0].pci_address, "0000:81:00.0");
  EXPECT_EQ(inv.netdevs[2].name, "enp129s0f0v1");
  EXPECT_EQ(inv.netdevs[2].pci_address, "0000:81:00.3");
  EXPECT_EQ(inv.netdevs[2].pf_address, "0000:81:00.0");
  EXPECT_TRUE(inv.netdevs[2].is_vf);
}

TEST(Discover, NetdevsOffPciHaveNoPciFunction) {
  // lo (devices/virtual) has no device link; eno1 sits on an ice PF without SR-IOV.
  fs::Tree sysfs("sysfs", FixtureDir("mlx5-roce") + "/sys");
  DiscoverOptions opts;
  opts.extra_netdevs = std::regex("^(eno1|lo)$");
  Inventory inv = Discover(sysfs, opts, 1);
  const NetdevRef* lo = inv.FindNetdev("lo");
  ASSERT_NE(lo, nullptr);
  EXPECT_EQ(lo->pci_address, "");
  EXPECT_EQ(lo->pf_address, "");
  EXPECT_EQ(PciFunctionKind(lo->pci_address, lo->is_vf), "none");
  const NetdevRef* eno1 = inv.FindNetdev("eno1");
  ASSERT_NE(eno1, nullptr);
  EXPECT_EQ(eno1->pci_address, "0000:01:00.0");
  EXPECT_EQ(PciFunctionKind(eno1->pci_address, eno1->is_vf), "pf");
}

TEST(PciFunction, OnlyPciNamesAreAddresses) {
  EXPECT_TRUE(IsPciAddress("0000:81:00.2"));
  EXPECT_TRUE(IsPciAddress("10000:e1:1f.7"));  // VMD domains are five digits
  EXPECT_FALSE(IsPciAddress("virtio0"));       // a virtio-net netdev's parent
  EXPECT_FALSE(IsPciAddress("0000:81:00"));
  EXPECT_FALSE(IsPciAddress("0000:81:00.8"));
  EXPECT_FALSE(IsPciAddress("0000:8g:00.0"));
  EXPECT_FALSE(IsPciAddress("mlx5_core.rdma.0"));
  EXPECT_EQ(PciFunctionKind("", false), "none");
  EXPECT_EQ(PciFunctionKind("0000:81:00.2", true), "vf");
}

TEST(Discover, NodeWithoutRdmaIsEmptyNotAnError) {
  fs::Tree sysfs("sysfs", FixtureDir("empty") + "/sys");
  Inventory inv = Discover(sysfs, {}, 1);
  EXPECT_TRUE(inv.devices.empty());
  EXPECT_TRUE(inv.netdevs.empty());
  EXPECT_TRUE(inv.errors.empty());
}

TEST(ListingKey, ChangesWithTheClassDirectories) {
  fs::Tree roce("sysfs", FixtureDir("mlx5-roce") + "/sys");
  fs::Tree ib("sysfs", FixtureDir("mlx5-ib") + "/sys");
  EXPECT_EQ(ListingKey(roce), ListingKey(roce));
  EXPECT_NE(ListingKey(roce), ListingKey(ib));
}

}  // namespace
}  // namespace rocewatch
