// Other drivers' real layouts (issue 12 item 3), from what real machines published
// (tests/fixtures/real/*/PROVENANCE) laid out as drivers/infiniband/core/sysfs.c
// creates it: every counter a paste shows is served with the pasted value, odd
// names become label values, hw_counters only per device or only per port work,
// a port without gid_attrs/ (kernels before GID types) costs only the GID type and
// netdev, and nothing vanishes. docs/metrics.md "Where these families have been
// seen" says which driver each case stands for.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/fixture_paths.h"
#include "common/test_dir.h"
#include "scrape_series.h"

namespace rocewatch {
namespace {

namespace fsys = std::filesystem;
using rocewatch::testing::FixtureDir;
using rocewatch::testing::Scrape;
using rocewatch::testing::TestDir;
using Series = std::map<std::string, std::string>;

constexpr auto kCopy = fsys::copy_options::recursive | fsys::copy_options::copy_symlinks |
                       fsys::copy_options::overwrite_existing;

std::string Slurp(const fsys::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

void Write(const fsys::path& p, const std::string& content) {
  fsys::create_directories(p.parent_path());
  std::ofstream(p) << content << "\n";
}

// `NAME VALUE` lines of a printf-table paste; lines without a value are skipped.
std::vector<std::pair<std::string, std::string>> Columns(const fsys::path& paste) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(Slurp(paste));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name, value;
    if (fields >> name >> value) out.emplace_back(name, value);
  }
  return out;
}

std::string HwStat(const std::string& dev, const std::string& port, const std::string& counter) {
  return "roce_hw_stat_total{device=\"" + dev + "\",port=\"" + port + "\",counter=\"" + counter + "\"}";
}

std::string DeviceHwStat(const std::string& dev, const std::string& counter) {
  return "roce_device_hw_stat_total{device=\"" + dev + "\",counter=\"" + counter + "\"}";
}

int CountPrefix(const Series& s, const std::string& prefix) {
  int n = 0;
  for (const auto& [k, v] : s) n += k.rfind(prefix, 0) == 0;
  return n;
}

// prometheus/procfs's tree (hfi1_0, mlx4_0, mlx5_0) as sys/ of `dir`.
void ProcfsTree(TestDir& dir) { fsys::copy(FixtureDir("real/procfs-sysfs"), dir / "sys", kCopy); }

}  // namespace

// i40iw (node_exporter#966): every PMA counter reads "N/A (no PMA)" (the pre-5.x
// show_pma_counter answer of a driver without process_mad). Each is one value
// absent; the port and the device are served. The paste has only counters/: the
// port files sysfs.c always creates are written here (values ours).
TEST(DriverLayouts, I40iwNoPmaCountersAreAbsentThePortIsServed) {
  TestDir dir;
  fsys::copy(FixtureDir("real/i40iw-no-pma"), dir.path(), kCopy);
  const fsys::path port = dir / "sys/class/infiniband/i40iw0/ports/1";
  Write(port / "state", "4: ACTIVE");
  Write(port / "phys_state", "5: LinkUp");
  Write(port / "link_layer", "Ethernet");
  Write(port / "rate", "10 Gb/sec (4X)");
  auto s = Scrape(dir.path(), true);
  const std::string p = "{device=\"i40iw0\",port=\"1\"}";
  EXPECT_EQ(s["roce_port_state" + p], "4");
  EXPECT_EQ(s["roce_port_physical_state" + p], "5");
  EXPECT_EQ(CountPrefix(s, "roce_device_info{device=\"i40iw0\""), 1);
  EXPECT_EQ(CountPrefix(s, "roce_port_info{device=\"i40iw0\",port=\"1\""), 1);
  EXPECT_EQ(CountPrefix(s, "roce_port_stat_total{device=\"i40iw0\""), 0);
  EXPECT_EQ(s.count("roce_port_received_bytes_total" + p), 0u);
  EXPECT_EQ(s.count("roce_port_received_packets_total" + p), 0u);
  EXPECT_EQ(s["roce_exporter_vanished_total{collector=\"rdma\"}"], "0");
  EXPECT_EQ(s["roce_exporter_unavailable_values{collector=\"rdma\"}"], "8");  // the eight N/A files
}

// hfi1 (netdata#9091): the port's hw_counters with their pasted values, laid over
// the procfs tree's hfi1_0 (another real hfi1 host). Every pasted counter is served
// with its value; lifespan (ms) is the lifespan gauge; counters/ stays served.
TEST(DriverLayouts, Hfi1PortHwCountersServeThePastedValues) {
  TestDir dir;
  ProcfsTree(dir);
  fsys::copy(FixtureDir("real/hfi1-hw-counters/sys"), dir / "sys", kCopy);
  auto pasted = Columns(FixtureDir("real/hfi1-hw-counters/paste.txt"));
  ASSERT_EQ(pasted.size(), 37u);
  auto s = Scrape(dir.path());
  int served = 0;
  for (const auto& [name, value] : pasted) {
    if (name == "lifespan") {
      EXPECT_EQ(s["roce_hw_counters_lifespan_seconds{device=\"hfi1_0\",port=\"1\"}"], "0.01");
      continue;
    }
    EXPECT_EQ(s[HwStat("hfi1_0", "1", name)], value) << name;
    ++served;
  }
  EXPECT_EQ(CountPrefix(s, "roce_hw_stat_total{device=\"hfi1_0\""), served);
  EXPECT_EQ(s.count("roce_port_received_bytes_total{device=\"hfi1_0\",port=\"1\"}"), 1u);
}

// hfi1 (node_exporter#2023): a device-wide hw_counters/ beside ports/, and port
// counter names with a comma (`SwLinkUp,32`). The names are the listing's; it has
// no values, so each file gets a distinct value of ours. First only the device-wide
// directory (a driver that counts per device only), then the port's as well.
TEST(DriverLayouts, Hfi1DeviceWideHwCountersAndOddNames) {
  TestDir dir;
  ProcfsTree(dir);
  std::vector<std::string> device_names, port_names;
  std::istringstream listing(Slurp(FixtureDir("real/hfi1-hw-counters/listing.txt")));
  const std::string dev_prefix = "/sys/class/infiniband/hfi1_0/hw_counters/";
  const std::string port_prefix = "/sys/class/infiniband/hfi1_0/ports/1/hw_counters/";
  for (std::string line; std::getline(listing, line);) {
    if (line.rfind(dev_prefix, 0) == 0) device_names.push_back(line.substr(dev_prefix.size()));
    if (line.rfind(port_prefix, 0) == 0) port_names.push_back(line.substr(port_prefix.size()));
  }
  ASSERT_EQ(device_names.size(), 4u);
  ASSERT_GE(port_names.size(), 6u);
  ASSERT_EQ(port_names.front(), "SwLinkUp,32");
  const fsys::path ib = dir / "sys/class/infiniband/hfi1_0";
  for (std::size_t i = 0; i < device_names.size(); ++i)
    Write(ib / "hw_counters" / device_names[i], std::to_string(1000 + i));
  Write(ib / "hw_counters/lifespan", "10");

  auto s = Scrape(dir.path(), true);
  for (std::size_t i = 0; i < device_names.size(); ++i)
    EXPECT_EQ(s[DeviceHwStat("hfi1_0", device_names[i])], std::to_string(1000 + i)) << device_names[i];
  EXPECT_EQ(CountPrefix(s, "roce_device_hw_stat_total{device=\"hfi1_0\""), 4);  // lifespan is no counter
  EXPECT_EQ(s.count(DeviceHwStat("hfi1_0", "lifespan")), 0u);
  EXPECT_EQ(CountPrefix(s, "roce_hw_stat_total{device=\"hfi1_0\""), 0);
  EXPECT_EQ(s["roce_port_state{device=\"hfi1_0\",port=\"1\"}"], "4");

  for (std::size_t i = 0; i < port_names.size(); ++i)
    Write(ib / "ports/1/hw_counters" / port_names[i], std::to_string(2000 + i));
  s = Scrape(dir.path(), true);
  for (std::size_t i = 0; i < port_names.size(); ++i)
    EXPECT_EQ(s[HwStat("hfi1_0", "1", port_names[i])], std::to_string(2000 + i)) << port_names[i];
  EXPECT_EQ(CountPrefix(s, "roce_device_hw_stat_total{device=\"hfi1_0\""), 4);
  EXPECT_EQ(s["roce_exporter_vanished_total{collector=\"rdma\"}"], "0");
  EXPECT_EQ(s["roce_exporter_parse_errors_total{collector=\"rdma\"}"], "0");
}

// mlx5 (procfs tree): every real hw counter of mlx5_0 port 1 is served with its value.
TEST(DriverLayouts, Mlx5ProcfsHwCountersServeTheirValues) {
  TestDir dir;
  ProcfsTree(dir);
  auto s = Scrape(dir.path());
  int files = 0;
  for (const auto& e : fsys::directory_iterator(dir / "sys/class/infiniband/mlx5_0/ports/1/hw_counters")) {
    std::string name = e.path().filename().string();
    if (name == "lifespan") continue;
    ++files;
    EXPECT_EQ(s[HwStat("mlx5_0", "1", name)], Trimmed(Slurp(e.path()))) << name;
  }
  EXPECT_GT(files, 5);
  EXPECT_EQ(CountPrefix(s, "roce_hw_stat_total{device=\"mlx5_0\""), files);
}

// A hw counter whose read fails (show_hw_stats returns the driver's get_hw_stats
// error, EINVAL on bnxt_re and rxe for a port they do not count) is that value
// absent; the port's other hw counters and the device stay. The read is kept as a
// capture keeps it (`<name>.errno`): the replayed listing shows `<name>`, not the
// record's file name.
TEST(DriverLayouts, HwCounterReadErrorCostsOneValue) {
  TestDir dir;
  ProcfsTree(dir);
  const fsys::path f = dir / "sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence";
  fsys::remove(f);
  Write(f.string() + ".errno", "22 EINVAL");
  auto s = Scrape(dir.path(), true);
  EXPECT_EQ(s.count(HwStat("mlx5_0", "1", "out_of_sequence")), 0u);
  EXPECT_EQ(s[HwStat("mlx5_0", "1", "duplicate_request")], "41");
  EXPECT_EQ(s["roce_exporter_vanished_total{collector=\"rdma\"}"], "0");
  EXPECT_EQ(s["roce_exporter_unavailable_values{collector=\"rdma\"}"], "9");  // 8 lid/sm_lid + this
}

// Kernels before GID types have gids/ but no gid_attrs/: the GID entries keep their
// GID and IP and lose only type and netdev; every other series stays as it was (the
// port's netdev is then found through the PCI function).
TEST(DriverLayouts, NoGidAttrsCostsOnlyGidTypeAndNetdev) {
  TestDir dir;
  fsys::copy(FixtureDir("mlx5-roce"), dir.path(), kCopy);
  auto before = Scrape(dir.path());
  int removed = 0;
  for (const auto& dev : fsys::directory_iterator(dir / "sys/class/infiniband"))
    for (const auto& port : fsys::directory_iterator(fsys::canonical(dev.path()) / "ports"))
      removed += fsys::remove_all(port.path() / "gid_attrs") > 0;
  ASSERT_GT(removed, 0);
  auto after = Scrape(dir.path());
  auto strip = [](const Series& s) {
    Series out;
    for (const auto& [k, v] : s) {
      if (k.rfind("roce_gid_info{", 0) != 0) {
        out[k] = v;
        continue;
      }
      std::string key = k;
      for (const char* label : {"type", "netdev"}) {
        auto at = key.find(std::string(",") + label + "=\"");
        if (at == std::string::npos) continue;
        auto end = key.find('"', at + std::string(label).size() + 3);
        key.erase(at, end + 1 - at);
      }
      out[key] = v;
    }
    return out;
  };
  EXPECT_GT(CountPrefix(before, "roce_gid_info{"), 0);
  EXPECT_EQ(CountPrefix(after, "roce_gid_info{"), CountPrefix(before, "roce_gid_info{"));
  for (const auto& [k, v] : after)
    if (k.rfind("roce_gid_info{", 0) == 0) {
      EXPECT_NE(k.find("type=\"\""), std::string::npos) << k;
      EXPECT_NE(k.find("netdev=\"\""), std::string::npos) << k;
    }
  EXPECT_EQ(strip(after), strip(before));
}

// link_layer as sysfs.c prints it: "InfiniBand" (hfi1, mlx4, mlx5 in the procfs tree;
// mlx4_0 port 2's file has an extra blank line) and "Ethernet" (RoCE, mlx5-roce). LID
// and SM LID belong to InfiniBand ports only: a RoCE port's lid file is not served.
TEST(DriverLayouts, LinkLayerInfinibandAndEthernet) {
  TestDir procfs;
  ProcfsTree(procfs);
  auto s = Scrape(procfs.path());
  for (const char* port : {"device=\"hfi1_0\",port=\"1\"", "device=\"mlx4_0\",port=\"1\"",
                           "device=\"mlx4_0\",port=\"2\"", "device=\"mlx5_0\",port=\"1\""})
    EXPECT_EQ(s[std::string("roce_port_info{") + port + ",netdev=\"\",link_layer=\"InfiniBand\"}"], "1") << port;
  TestDir roce;
  fsys::copy(FixtureDir("mlx5-roce"), roce.path(), kCopy);
  ASSERT_TRUE(fsys::exists(roce / "sys/class/infiniband/mlx5_0/ports/1/lid"));
  auto r = Scrape(roce.path());
  EXPECT_EQ(CountPrefix(r, "roce_port_info{device=\"mlx5_0\",port=\"1\","), 1);
  int ethernet = 0;
  for (const auto& [k, v] : r) ethernet += k.rfind("roce_port_info{device=\"mlx5_0\"", 0) == 0 &&
                                           k.find("link_layer=\"Ethernet\"") != std::string::npos;
  EXPECT_EQ(ethernet, 1);
  EXPECT_EQ(CountPrefix(r, "roce_port_lid{"), 0);
  EXPECT_EQ(CountPrefix(r, "roce_port_sm_lid{"), 0);
}

}  // namespace rocewatch
