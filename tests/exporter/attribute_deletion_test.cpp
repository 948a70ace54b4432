// The property behind "absent is not vanished" (issue 12), on real-layout trees:
// delete each attribute file in turn and only the series derived from that file may
// change; every other series of the object (and of every other object) stays
// byte-identical. The exporter's own self-metrics (unavailable, parse errors) are left
// out: they are where the missing value is counted. AbsentValues.*: single cases of the
// same rule (a down netdev, EINVAL counters, a driver's ENODEV, other drivers' layouts).

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "common/fixture_paths.h"
#include "common/test_dir.h"
#include "scrape_series.h"

namespace rocewatch {
namespace {

namespace fsys = std::filesystem;
using rocewatch::testing::TestDir;

using rocewatch::testing::Scrape;

// What a file feeds: families, and the labels the series must carry. Derived from the
// path: the object (port, device, netdev, PCI function) and the file within it.
struct Feeds {
  std::vector<std::string> families;
  std::vector<std::string> labels;  // `name="value"` each series must contain
  std::vector<Feeds> also = {};      // other series it feeds, with their own labels

  bool Covers(const std::string& series) const {
    for (const auto& a : also)
      if (a.Covers(series)) return true;
    std::string family = series.substr(0, series.find('{'));
    if (std::find(families.begin(), families.end(), family) == families.end()) return false;
    for (const auto& l : labels)
      if (series.find(l) == std::string::npos) return false;
    return true;
  }
};

std::string L(const std::string& name, const std::string& value) {
  return name + "=\"" + value + "\"";
}

// The table: file (within its object) -> the families it feeds. A file not named here
// (uevent, ifindex, dev_port, ...) feeds nothing: deleting it may change no series.
Feeds FeedsOf(const std::string& rel, const std::string& sysfs) {
  std::smatch m;
  static const std::regex port(R"(.*/infiniband/([^/]+)/ports/(\d+)/(.+))");
  static const std::regex device(R"(.*/infiniband/([^/]+)/([^/]+))");
  static const std::regex netdev(R"(.*/net/([^/]+)/(.+))");
  static const std::regex pci(R"((devices/.*/[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9])/([^/]+))");
  if (std::regex_match(rel, m, port)) {
    std::string dev = m[1], num = m[2], file = m[3];
    std::vector<std::string> on{L("device", dev), L("port", num)};
    static const std::map<std::string, std::string> own{
        {"state", "roce_port_state"},
        {"phys_state", "roce_port_physical_state"},
        {"rate", "roce_port_rate_bytes_per_second"},
        {"lid", "roce_port_lid"},
        {"sm_lid", "roce_port_sm_lid"},
        {"link_layer", "roce_port_info"},
        {"counters/port_xmit_data", "roce_port_transmitted_bytes_total"},
        {"counters/port_rcv_data", "roce_port_received_bytes_total"},
        {"counters/port_xmit_packets", "roce_port_transmitted_packets_total"},
        {"counters/port_rcv_packets", "roce_port_received_packets_total"},
        {"hw_counters/lifespan", "roce_hw_counters_lifespan_seconds"},
    };
    if (auto it = own.find(file); it != own.end()) return {{it->second}, on};
    if (file.rfind("counters/", 0) == 0) {
      on.push_back(L("counter", file.substr(9)));
      return {{"roce_port_stat_total"}, on};
    }
    if (file.rfind("hw_counters/", 0) == 0) {
      // A hw counter the device's driver table maps to a transport event feeds that event of
      // the same port too (roce_transport_events_total{device,port,event}).
      Feeds event{{"roce_transport_events_total"}, on, {}};
      on.push_back(L("counter", file.substr(12)));
      return {{"roce_hw_stat_total"}, on, {event}};
    }
    if (std::regex_match(file, m, std::regex(R"((gids|gid_attrs/types|gid_attrs/ndevs)/(\d+))"))) {
      on.push_back(L("index", m[2]));
      return {{"roce_gid_info"}, on};
    }
    return {};
  }
  if (std::regex_match(rel, m, device)) {
    std::string dev = m[1], file = m[2];
    for (const char* f : {"fw_ver", "board_id", "hca_type", "node_guid", "node_type"})
      if (file == f) return {{"roce_device_info"}, {L("device", dev)}};
    return {};
  }
  if (std::regex_match(rel, m, netdev)) {
    std::string nd = m[1], file = m[2];
    std::vector<std::string> on{L("netdev", nd)};
    static const std::map<std::string, std::vector<std::string>> own{
        {"mtu", {"roce_netdev_mtu_bytes"}},
        {"operstate", {"roce_netdev_operstate", "roce_netdev_up"}},
        {"carrier", {"roce_netdev_carrier", "roce_netdev_up"}},
        {"speed", {"roce_netdev_speed_bytes_per_second"}},
        {"carrier_changes", {"roce_netdev_carrier_changes_total"}},
        {"address", {"roce_netdev_info"}},
    };
    if (auto it = own.find(file); it != own.end()) return {it->second, on};
    if (std::regex_match(file, m, std::regex(R"(ecn/roce_(np|rp)/enable/(\d))"))) {
      on.push_back(L("point", m[1]));
      on.push_back(L("priority", m[2]));
      return {{"roce_ecn_enabled"}, on};
    }
    if (std::regex_match(file, m, std::regex(R"(ecn/roce_(np|rp)/([^/]+))"))) {
      on.push_back(L("point", m[1]));
      on.push_back(L("parameter", m[2]));
      return {{"roce_dcqcn_parameter"}, on};
    }
    return {};
  }
  if (std::regex_match(rel, m, pci)) {
    std::string file = m[2];
    std::vector<std::string> on;
    std::error_code ec;
    for (const auto& e : fsys::directory_iterator(sysfs + "/" + std::string(m[1]) + "/infiniband", ec))
      on.push_back(L("device", e.path().filename().string()));
    if (on.size() != 1) return {};  // a PCI function without exactly one ibdev feeds nothing here
    static const std::map<std::string, std::pair<std::string, std::string>> own{
        {"current_link_speed", {"roce_pcie_link_speed_transfers_per_second", "current"}},
        {"max_link_speed", {"roce_pcie_link_speed_transfers_per_second", "max"}},
        {"current_link_width", {"roce_pcie_link_width", "current"}},
        {"max_link_width", {"roce_pcie_link_width", "max"}},
    };
    if (auto it = own.find(file); it != own.end()) {
      on.push_back(L("kind", it->second.second));
      return {{it->second.first}, on};
    }
    for (const char* f : {"numa_node", "vendor", "device"})
      if (file == f) return {{"roce_pcie_info"}, on};
    return {};
  }
  return {};
}

// Deletes each regular file under sys/devices of a copy of `fixture` in turn (GID
// entries past the first `gids_per_port` are alike and skipped) and checks the property.
// `fixture` is a capture layout (sys/, configfs/, debugfs/, kernel/) or, with
// `sysfs_only`, a bare sysfs tree.
void CheckTree(const std::string& fixture, bool sysfs_only, int gids_per_port,
               const std::string& only_under = "") {
  TestDir dir;
  fsys::copy(fixture, sysfs_only ? dir / "sys" : dir.path(),
             fsys::copy_options::recursive | fsys::copy_options::copy_symlinks);
  const std::string sysfs = dir / "sys";
  const auto baseline = Scrape(dir.path());
  ASSERT_FALSE(baseline.empty());
  static const std::regex gid(R"(.*/(gids|gid_attrs/types|gid_attrs/ndevs)/(\d+))");
  std::vector<std::string> files;
  for (const auto& e : fsys::recursive_directory_iterator(sysfs)) {  // links not followed
    if (e.is_symlink() || !e.is_regular_file() || e.path().filename() == "PROVENANCE") continue;
    std::string rel = fsys::relative(e.path(), sysfs).string();
    std::smatch m;
    if (std::regex_match(rel, m, gid) && std::stoi(m[2]) >= gids_per_port) continue;
    if (rel.rfind(only_under, 0) != 0) continue;
    files.push_back(rel);
  }
  std::sort(files.begin(), files.end());
  int changed_somewhere = 0;
  for (const auto& rel : files) {
    std::string path = sysfs + "/" + rel, aside = dir / "aside";
    fsys::rename(path, aside);
    const auto after = Scrape(dir.path());
    fsys::rename(aside, path);
    Feeds feeds = FeedsOf(rel, sysfs);
    std::vector<std::string> changed;
    for (const auto& [series, value] : baseline) {
      auto it = after.find(series);
      if (it == after.end() || it->second != value) changed.push_back(series);
    }
    for (const auto& [series, value] : after)
      if (!baseline.count(series)) changed.push_back(series);
    if (!changed.empty()) ++changed_somewhere;
    for (const auto& s : changed)
      if (!feeds.Covers(s)) ADD_FAILURE() << "deleting " << rel << " changed " << s << ", which it does not feed";
  }
  // The test would pass vacuously if no deletion mattered: most files feed a series.
  EXPECT_GT(changed_somewhere, static_cast<int>(files.size()) / 3) << files.size() << " files";
}

// A copy of mlx5-roce where each sysfs file `rel` (under class/, links followed) holds
// `content`, or answers an errno when `content` is "<number> <NAME>".
std::map<std::string, std::string> ScrapeWith(TestDir& dir,
                                              const std::vector<std::pair<std::string, std::string>>& files) {
  rocewatch::testing::CopyFixture("mlx5-roce", dir.path());
  for (const auto& [rel, content] : files) {
    std::string path = fsys::canonical(dir / ("sys/" + rel)).string();
    if (std::regex_match(content, std::regex(R"(\d+ [A-Z]+)"))) {
      fsys::remove(path);
      std::ofstream(path + ".errno") << content << "\n";
    } else {
      std::ofstream(path) << content << "\n";
    }
  }
  return Scrape(dir.path());
}

}  // namespace

// A netdev that is down: `speed` answers EINVAL, `carrier` 0. It keeps its MTU, operstate
// and roce_netdev_up 0; only the speed is absent.
TEST(AbsentValues, DownNetdevKeepsMtuOperstateAndUp0) {
  TestDir dir;
  auto s = ScrapeWith(dir, {{"class/net/ens1f0np0/speed", "22 EINVAL"},
                            {"class/net/ens1f0np0/carrier", "0"},
                            {"class/net/ens1f0np0/operstate", "down"}});
  EXPECT_EQ(s["roce_netdev_mtu_bytes{netdev=\"ens1f0np0\"}"], "9000");
  EXPECT_EQ(s["roce_netdev_up{netdev=\"ens1f0np0\"}"], "0");
  EXPECT_EQ(s["roce_netdev_carrier{netdev=\"ens1f0np0\"}"], "0");
  EXPECT_EQ(s.count("roce_netdev_speed_bytes_per_second{netdev=\"ens1f0np0\"}"), 0u);
  EXPECT_EQ(s.count("roce_netdev_speed_bytes_per_second{netdev=\"ens2f0np0\"}"), 1u);
}

// bnxt_re answers EINVAL for port_rcv_data: that value is absent, the port's other
// counters and the device are served.
TEST(AbsentValues, EinvalCounterCostsOneValue) {
  TestDir dir;
  auto s = ScrapeWith(dir, {{"class/infiniband/mlx5_0/ports/1/counters/port_rcv_data", "22 EINVAL"}});
  EXPECT_EQ(s.count("roce_port_received_bytes_total{device=\"mlx5_0\",port=\"1\"}"), 0u);
  EXPECT_EQ(s.count("roce_port_transmitted_bytes_total{device=\"mlx5_0\",port=\"1\"}"), 1u);
  EXPECT_EQ(s["roce_port_state{device=\"mlx5_0\",port=\"1\"}"], "4");
}

// prometheus/procfs's public tree: hfi1 (OPA), mlx4 (two IB ports), mlx5.
// A driver answering ENODEV for a netdev that is still in sysfs (mlx5 with an empty
// cage, a PHY it cannot reach) costs those values, not the netdev: nothing vanishes.
TEST(AbsentValues, DriverEnodevOnAPresentNetdevIsNotVanished) {
  TestDir dir;
  rocewatch::testing::CopyFixture("mlx5-roce", dir.path());
  for (const char* call : {"ethtool/ens1f0np0/link_settings",
                           "ethtool-netlink/ens1f0np0/module_eeprom.a50.b0.p00.o0.l128"}) {
    std::string path = dir / (std::string("kernel/") + call);
    fsys::remove(path);
    std::ofstream(path + ".errno") << "19 ENODEV\n";
  }
  auto s = Scrape(dir.path(), true);
  for (const char* c : {"ethtool", "optics", "netdev"})
    EXPECT_EQ(s["roce_exporter_vanished_total{collector=\"" + std::string(c) + "\"}"], "0") << c;
  EXPECT_EQ(s["roce_netdev_mtu_bytes{netdev=\"ens1f0np0\"}"], "9000");
  EXPECT_EQ(s["roce_module_read_success{netdev=\"ens1f0np0\"}"], "0");
  EXPECT_NE(s["roce_exporter_unavailable_values{collector=\"ethtool\"}"], "0");
  EXPECT_NE(s["roce_exporter_unavailable_values{collector=\"optics\"}"], "0");
}

// Layouts of other drivers, made from the public procfs tree: irdma has no `counters/`,
// and a pre-6.x kernel prints "N/A (no PMA)" for a counter the device cannot give. Each
// costs only its own values.
TEST(AbsentValues, PortWithoutCountersDirAndNoPmaCounter) {
  TestDir dir;
  rocewatch::testing::CopyFixture("real/procfs-sysfs", dir / "sys");
  fsys::remove_all(dir / "sys/class/infiniband/mlx4_0/ports/1/counters");
  std::ofstream(dir / "sys/class/infiniband/mlx4_0/ports/2/counters/symbol_error") << "N/A (no PMA)\n";
  auto s = Scrape(dir.path(), true);
  const std::string p1 = "{device=\"mlx4_0\",port=\"1\"}", p2 = "{device=\"mlx4_0\",port=\"2\"}";
  EXPECT_EQ(s["roce_port_state" + p1], "4");
  EXPECT_EQ(s["roce_port_rate_bytes_per_second" + p1], "5000000000");
  EXPECT_EQ(s.count("roce_port_received_bytes_total" + p1), 0u);
  EXPECT_EQ(s.count("roce_port_stat_total{device=\"mlx4_0\",port=\"2\",counter=\"symbol_error\"}"), 0u);
  EXPECT_EQ(s.count("roce_port_stat_total{device=\"mlx4_0\",port=\"2\",counter=\"link_downed\"}"), 1u);
  EXPECT_EQ(s["roce_port_received_bytes_total" + p2], "9841747136");
  EXPECT_EQ(s["roce_exporter_vanished_total{collector=\"rdma\"}"], "0");
  // lid and sm_lid of the four ports (no such files in this tree: 8) and the N/A counter;
  // a missing counters/ directory lists no files, so it adds none.
  EXPECT_EQ(s["roce_exporter_unavailable_values{collector=\"rdma\"}"], "9");
}

TEST(AttributeDeletion, ProcfsPublicTree) {
  CheckTree(rocewatch::testing::FixtureDir("real/procfs-sysfs"), true, 4);
}

// A ConnectX-7 RoCE node laid out as real sysfs is (links into devices/pci..., ecn,
// rdma_cm configfs, replayed ethtool/dcbnl answers). Every file of the first PCI function
// (device, port, netdev, PCI, ecn); the other three functions have the same layout.
TEST(AttributeDeletion, Mlx5RoceTree) {
  CheckTree(rocewatch::testing::FixtureDir("mlx5-roce"), false, 4,
            "devices/pci0000:16/0000:16:01.0/0000:17:00.0/");
}

}  // namespace rocewatch
