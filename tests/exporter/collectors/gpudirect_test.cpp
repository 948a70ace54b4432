// The gpudirect collector: GPU↔NIC relations, ACS, Device Control, IOMMU, peer memory, AER.
//
// On real bytes: two published GPU servers (tests/fixtures/real/gpu-topology/*/published.md:
// lspci -tv, lspci -vvv and nvidia-smi topo -m of one host each) turned into sysfs trees by
// tools/lspci_to_sysfs_tree.py; every GPU↔NIC relation nvidia-smi printed must be the one the
// collector names, and every Device Control and ACS value lspci printed the one it decodes.
// A real root port's 4096-byte config space (tests/fixtures/real/pci-config) for the
// capability walk. The switch cases (PIX, PXB, ACS redirect) are trees built here.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/fixture_pass.h"
#include "common/fixture_paths.h"
#include "common/rendered_text.h"
#include "common/test_dir.h"
#include "exporter/collectors/gpudirect/collector.h"
#include "exporter/collectors/gpudirect/pci_config.h"
#include "exporter/collectors/gpudirect/topology.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {
namespace {

namespace gd = collectors::gpudirect;
using testing::FixtureDir;
using testing::MakeFixturePass;
using testing::TestDir;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

NodeSnapshot CollectOnly(const std::string& dir) {
  PassConfig config = testing::FixtureCollectorConfig(dir, {"gpudirect"});
  auto pass = PassRunner::Create(config);
  EXPECT_TRUE(pass.ok()) << pass.error().message;
  if (!pass.ok()) return {};
  return (*pass)->Collect();
}

// What `nvidia-smi topo -m` printed: relation[gpu index][nic name].
struct TopoMatrix {
  std::map<int, std::map<std::string, std::string>> relation;
};

TopoMatrix ParseTopo(const std::string& published) {
  TopoMatrix m;
  std::istringstream in(published);
  std::string line;
  std::vector<std::string> header;
  std::map<std::string, std::string> legend;  // NIC0 → mlx5_0
  std::map<int, std::vector<std::string>> rows;
  bool in_topo = false;
  while (std::getline(in, line)) {
    if (line.find("nvidia-smi topo -m") != std::string::npos) {
      in_topo = true;
      continue;
    }
    if (!in_topo) continue;
    if (line.rfind("```", 0) == 0) break;
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty()) continue;
    if (header.empty() && w[0] == "GPU0") {
      header = w;
      continue;
    }
    std::smatch g;
    static const std::regex kRow("GPU(\\d+)"), kLegend("(NIC\\d+):");
    if (std::regex_match(w[0], g, kRow) && !header.empty()) rows[std::stoi(g[1])] = w;
    if (w.size() == 2 && std::regex_match(w[0], g, kLegend)) legend[g[1]] = w[1];
  }
  for (const auto& [gpu, w] : rows)
    for (std::size_t c = 0; c < header.size() && c + 1 < w.size(); ++c)
      if (header[c].rfind("NIC", 0) == 0) m.relation[gpu][legend.at(header[c])] = w[c + 1];
  return m;
}

// Each `lspci -vvv -s ADDR` block's DevCtl sizes, RlxdOrd and ACSCtl words, as printed.
struct PrintedFunction {
  std::string devctl_sizes;  // "MaxPayload 512 bytes, MaxReadReq 512 bytes"
  bool relaxed_ordering = false;
  std::string acsctl;  // the ACSCtl line after "ACSCtl: "
};

std::map<std::string, PrintedFunction> ParseLspci(const std::string& published) {
  std::map<std::string, PrintedFunction> out;
  std::istringstream in(published);
  std::string line, current;
  bool devctl = false;
  static const std::regex kBlock("lspci -vvv -s ([0-9a-f:.]+)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, kBlock)) {
      current = "0000:" + m[1].str();
      continue;
    }
    if (line.rfind("```", 0) == 0) current.clear();
    if (current.empty()) continue;
    const auto pos = line.find_first_not_of(' ');
    const std::string s = pos == std::string::npos ? "" : line.substr(pos);
    if (s.rfind("DevCtl:", 0) == 0) devctl = true;
    else if (devctl && s.find(':') != std::string::npos && s.find(':') < s.find(' ')) devctl = false;
    if (devctl && s.find("RlxdOrd") != std::string::npos) out[current].relaxed_ordering = s.find("RlxdOrd+") != std::string::npos;
    if (devctl && s.rfind("MaxPayload", 0) == 0) out[current].devctl_sizes = s;
    if (s.rfind("ACSCtl: ", 0) == 0) out[current].acsctl = s.substr(8);
  }
  return out;
}

std::string AcsWords(std::uint16_t ctl) {
  std::string out;
  for (const auto& bit : gd::kAcsBits) {
    if (!out.empty()) out += ' ';
    out += std::string(bit.lspci) + ((ctl & bit.bit) != 0 ? "+" : "-");
  }
  return out;
}

class RealHost : public ::testing::TestWithParam<const char*> {};

TEST_P(RealHost, EveryGpuNicRelationIsTheOneNvidiaSmiPrinted) {
  const std::string dir = FixtureDir(std::string("real/gpu-topology/") + GetParam());
  const std::string published = ReadFile(dir + "/published.md");
  const TopoMatrix topo = ParseTopo(published);
  ASSERT_FALSE(topo.relation.empty());
  NodeSnapshot s = CollectOnly(dir);
  ASSERT_TRUE(s.gpudirect.has_value());
  const auto& n = *s.gpudirect;
  // nvidia-smi numbers the GPUs in PCI bus order.
  std::vector<std::string> gpus;
  for (const auto& g : n.gpus) gpus.push_back(g.pci_address);
  std::sort(gpus.begin(), gpus.end());
  ASSERT_EQ(gpus.size(), topo.relation.size());
  std::size_t compared = 0;
  for (const auto& [index, row] : topo.relation) {
    for (const auto& [nic, printed] : row) {
      // References by name: clang before 16 cannot capture a structured binding.
      const std::string& want_nic = nic;
      const std::string& want_gpu = gpus[static_cast<std::size_t>(index)];
      auto it = std::find_if(n.paths.begin(), n.paths.end(), [&](const GpuNicPath& p) {
        return p.device == want_nic && p.gpu == want_gpu;
      });
      ASSERT_NE(it, n.paths.end()) << "GPU" << index << " " << nic;
      EXPECT_EQ(it->relation, printed) << "GPU" << index << " (" << it->gpu << ") " << nic;
      ++compared;
    }
  }
  EXPECT_EQ(compared, n.paths.size());
  EXPECT_TRUE(testing::StatusOf(s, "gpudirect").success);
}

TEST_P(RealHost, DeviceControlAndAcsAreWhatLspciPrinted) {
  const std::string dir = FixtureDir(std::string("real/gpu-topology/") + GetParam());
  const auto printed = ParseLspci(ReadFile(dir + "/published.md"));
  NodeSnapshot s = CollectOnly(dir);
  ASSERT_TRUE(s.gpudirect.has_value());
  std::size_t nics = 0;
  for (const auto& nic : s.gpudirect->nics) {
    auto it = printed.find(nic.pci_address);
    if (it == printed.end()) continue;  // a function lspci -vvv was not run on
    ++nics;
    ASSERT_TRUE(nic.max_payload_bytes && nic.max_read_request_bytes) << nic.device;
    EXPECT_EQ("MaxPayload " + std::to_string(*nic.max_payload_bytes) + " bytes, MaxReadReq " +
                  std::to_string(*nic.max_read_request_bytes) + " bytes",
              it->second.devctl_sizes);
    EXPECT_EQ(nic.relaxed_ordering, it->second.relaxed_ordering);
  }
  EXPECT_GT(nics, 0u);
  // Every function whose block printed ACSCtl: the control register decoded from its config.
  std::size_t acs = 0;
  for (const auto& [addr, p] : printed) {
    if (p.acsctl.empty()) continue;
    std::string rel;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir + "/sys/devices"))
      if (e.path().filename() == addr) rel = e.path().string();
    ASSERT_FALSE(rel.empty()) << addr;
    const auto config = gd::DecodePciConfig(ReadFile(rel + "/config"));
    ASSERT_TRUE(config.acs_control) << addr;
    EXPECT_EQ(AcsWords(*config.acs_control), p.acsctl) << addr;
    ++acs;
  }
  EXPECT_GT(acs, 0u);
}

INSTANTIATE_TEST_SUITE_P(Published, RealHost, ::testing::Values("asus-esc8000a-e12", "puget-wrx90"),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(PciConfig, ARealRootPortsCapabilitiesAreFoundWhereLspciListedThem) {
  // 8086:2030 (Sky Lake-E root port), 4096 bytes; lspci listed its extended capabilities as
  // [100] vendor specific, [110] ACS, [148] AER, [1d0], [250] Secondary PCIe, [280], [298], [300].
  const std::string bytes = ReadFile(FixtureDir("real/pci-config/8086_2030.config"));
  ASSERT_EQ(bytes.size(), 4096u);
  const auto c = gd::DecodePciConfig(bytes);
  EXPECT_TRUE(c.extended_readable);
  EXPECT_EQ(c.acs_control_offset, 0x110u + 6);
  EXPECT_TRUE(c.acs_control.has_value());
  EXPECT_EQ(c.ats_control_offset, 0u);  // no ATS on a root port
  EXPECT_TRUE(c.device_control.has_value());
  // What an unprivileged reader gets: the 64-byte header, nothing decoded from past it.
  const auto header = gd::DecodePciConfig(bytes.substr(0, 64));
  EXPECT_FALSE(header.extended_readable);
  EXPECT_FALSE(header.acs_control || header.device_control || header.ats_enabled);
}

TEST(PciConfig, ALoopingCapabilityListEnds) {
  std::string b(4096, '\0');
  b[6] = 0x10;
  b[0x34] = 0x40;
  b[0x40] = 0x01;
  b[0x41] = 0x40;  // points at itself
  b[0x100] = 0x0d;
  b[0x103] = 0x10;  // next = 0x100: itself
  const auto c = gd::DecodePciConfig(b);
  EXPECT_FALSE(c.device_control.has_value());
  EXPECT_EQ(c.acs_control_offset, 0x106u);
}

gd::PciChain Chain(const std::string& dir) { return gd::ParsePciChain(dir); }

TEST(Topology, RelationsInNcclsWords) {
  // A switch (upstream 0000:01:00.0, downstream ports 02:00.0 and 02:01.0) below root port
  // 00:01.0; a second switch below downstream port 02:02.0.
  const std::string rp = "devices/pci0000:00/0000:00:01.0/0000:01:00.0";
  const auto gpu = Chain(rp + "/0000:02:00.0/0000:03:00.0");
  const auto nic = Chain(rp + "/0000:02:01.0/0000:04:00.0");
  const auto nic_far = Chain(rp + "/0000:02:02.0/0000:05:00.0/0000:06:00.0/0000:07:00.0");
  const auto nic_rp = Chain("devices/pci0000:00/0000:00:02.0/0000:08:00.0");
  const auto nic_hb = Chain("devices/pci0000:20/0000:20:01.0/0000:21:00.0");
  auto pix = gd::Between(gpu, 0, nic, 0);
  EXPECT_EQ(pix.relation, gd::Relation::kPix);
  EXPECT_EQ(pix.bridges, (std::vector<std::string>{"0000:02:00.0", "0000:01:00.0", "0000:02:01.0"}));
  EXPECT_EQ(gd::Between(gpu, 0, nic_far, 0).relation, gd::Relation::kPxb);
  EXPECT_EQ(gd::Between(gpu, 0, nic_rp, 0).relation, gd::Relation::kPhb);
  EXPECT_TRUE(gd::Between(gpu, 0, nic_rp, 0).bridges.empty());
  EXPECT_EQ(gd::Between(gpu, 0, nic_hb, 0).relation, gd::Relation::kNode);
  EXPECT_EQ(gd::Between(gpu, 0, nic_hb, 1).relation, gd::Relation::kSys);
  EXPECT_EQ(gd::Between(gpu, -1, nic_hb, 1).relation, gd::Relation::kNode);  // unknown: not SYS
  // A VMD domain inside the chain is crossed.
  const auto vmd = Chain("devices/pci0000:00/0000:00:0e.0/pci10000:e0/10000:e0:1d.0/10000:e1:00.0/infiniband/mlx5_0");
  EXPECT_EQ(vmd.chain, (std::vector<std::string>{"0000:00:0e.0", "10000:e0:1d.0", "10000:e1:00.0"}));
  EXPECT_EQ(vmd.dirs.back(), "devices/pci0000:00/0000:00:0e.0/pci10000:e0/10000:e0:1d.0/10000:e1:00.0");
  EXPECT_EQ(vmd.host, "devices/pci0000:00");
}

// A switch tree: GPU and NIC below two downstream ports whose ACS Control is `acs`.
void WriteSwitchTree(const TestDir& d, std::uint16_t acs, std::size_t config_size = 4096) {
  const std::string rp = "sys/devices/pci0000:00/0000:00:01.0";
  const std::string up = rp + "/0000:01:00.0";
  const std::string gpu = up + "/0000:02:00.0/0000:03:00.0";
  const std::string nic = up + "/0000:02:01.0/0000:04:00.0";
  // kind: 'p' a downstream port with ACS, 'u' a port without extended capabilities, 'e' the
  // NIC with ATS enabled.
  auto config = [&](char kind, std::uint16_t acs_ctl) {
    std::string b(4096, '\0');
    b[6] = 0x10;
    b[0x34] = 0x40;
    b[0x40] = 0x10;  // PCI Express, DevCtl at 0x48: MPS 256, MRRS 4096, RlxdOrd
    const std::uint16_t devctl = (1u << 4) | (1u << 5) | (5u << 12);
    b[0x48] = static_cast<char>(devctl & 0xff);
    b[0x49] = static_cast<char>(devctl >> 8);
    if (kind == 'p') {
      b[0x100] = 0x0d;
      b[0x106] = static_cast<char>(acs_ctl & 0xff);
      b[0x107] = static_cast<char>(acs_ctl >> 8);
    } else if (kind == 'e') {
      b[0x100] = 0x0f;
      b[0x107] = static_cast<char>(0x80);
    }
    return b.substr(0, config_size);
  };
  for (const std::string& port : {up + "/0000:02:00.0", up + "/0000:02:01.0"}) {
    d.Write(port + "/config", config('p', acs));
    d.Write(port + "/class", "0x060400\n");
    d.Write(port + "/aer_dev_correctable", "RxErr 0\nBadTLP 3\nBadDLLP 0\nRollover 0\nTimeout 0\nNonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 3\n");
  }
  d.Write(up + "/config", config('u', 0));
  d.Write(rp + "/config", config('u', 0));
  d.Write(up + "/class", "0x060400\n");
  d.Write(rp + "/class", "0x060400\n");
  d.Write(gpu + "/class", "0x030200\n");
  d.Write(gpu + "/vendor", "0x10de\n");
  d.Write(gpu + "/device", "0x2330\n");
  d.Write(gpu + "/numa_node", "0\n");
  d.Write(nic + "/class", "0x020000\n");
  d.Write(nic + "/vendor", "0x15b3\n");
  d.Write(nic + "/numa_node", "0\n");
  d.Write(nic + "/config", config('e', 0));
  d.Write(nic + "/aer_dev_correctable", "RxErr 1\nTOTAL_ERR_COR 1\n");
  d.Write(nic + "/aer_dev_nonfatal", "Undefined 0\nDLP 0\nTOTAL_ERR_NONFATAL 0\n");
  d.Write(nic + "/aer_dev_fatal", "Undefined 0\nTOTAL_ERR_FATAL 0\n");
  d.Write(nic + "/infiniband/mlx5_0/ports/1/link_layer", "Ethernet\n");
  d.Symlink("../../../0000:04:00.0", nic + "/infiniband/mlx5_0/device");
  d.Symlink("../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0/infiniband/mlx5_0",
            "sys/class/infiniband/mlx5_0");
  d.Symlink("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0",
            "sys/bus/pci/devices/0000:03:00.0");
  d.Symlink("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0",
            "sys/bus/pci/devices/0000:04:00.0");
  d.Write("sys/module/nvidia_peermem/initstate", "live\n");
  std::filesystem::create_directories(d / "sys/class/net");
}

double Value(const lint::observe::Exposition& e, std::string_view metric, std::string_view label,
             std::string_view value) {
  auto found = e.Find(metric, label, value);
  return found.empty() ? -1 : e.samples()[found[0]].value;
}

TEST(GpuDirectSource, AcsRedirectOnASwitchPathIsCountedAndServed) {
  TestDir d;
  WriteSwitchTree(d, gd::kAcsSrcValid | gd::kAcsReqRedir | gd::kAcsCmpltRedir | gd::kAcsUpstreamFwd);
  NodeSnapshot s = CollectOnly(d.path());
  ASSERT_TRUE(s.gpudirect.has_value());
  ASSERT_EQ(s.gpudirect->paths.size(), 1u);
  EXPECT_EQ(s.gpudirect->paths[0].relation, "PIX");
  const auto e = testing::RenderText(collectors::RenderGpuDirect, s);
  EXPECT_EQ(Value(e, "roce_gpu_nic_relation", "relation", "PIX"), 1);
  EXPECT_EQ(Value(e, "roce_gpu_nic_acs_redirect_bridges", "gpu", "0000:03:00.0"), 2);
  EXPECT_EQ(e.Find("roce_pcie_bridge_acs_control", "bit", "req_redir").size(), 2u);
  EXPECT_EQ(Value(e, "roce_gpu_nic_path_bridge", "bridge", "0000:02:00.0"), 1);
  EXPECT_EQ(Value(e, "roce_gpu_nic_path_bridge", "bridge", "0000:02:01.0"), 3);
  EXPECT_EQ(Value(e, "roce_pcie_bridge_acs_control", "bit", "egress_ctrl"), 0);
  EXPECT_EQ(Value(e, "roce_pcie_max_read_request_bytes", "device", "mlx5_0"), 4096);
  EXPECT_EQ(Value(e, "roce_pcie_max_payload_bytes", "device", "mlx5_0"), 256);
  EXPECT_EQ(Value(e, "roce_pcie_relaxed_ordering_enabled", "device", "mlx5_0"), 1);
  EXPECT_EQ(Value(e, "roce_pcie_ats_enabled", "device", "mlx5_0"), 1);
  EXPECT_EQ(Value(e, "roce_pcie_iommu_group_info", "type", "none"), 1);
  EXPECT_EQ(Value(e, "roce_gpu_peer_memory_module_loaded", "module", "nvidia_peermem"), 1);
  EXPECT_EQ(Value(e, "roce_gpu_peer_memory_module_loaded", "module", "nv_peer_mem"), 0);
  EXPECT_EQ(Value(e, "roce_pcie_aer_errors_total", "pci_address", "0000:04:00.0"), 1);
  EXPECT_EQ(e.Find("roce_pcie_aer_errors_total", "pci_address", "0000:02:01.0").size(), 1u);
  EXPECT_EQ(Value(e, "roce_pcie_upstream_bridge", "bridge", "0000:00:01.0"), 3);
}

TEST(GpuDirectSource, SetpciTurningRedirectOffIsSeenNextPass) {
  TestDir d;
  WriteSwitchTree(d, gd::kAcsReqRedir | gd::kAcsCmpltRedir);
  PassConfig config = testing::FixtureCollectorConfig(d.path(), {"gpudirect"});
  auto pass = PassRunner::Create(config);
  ASSERT_TRUE(pass.ok());
  auto e = testing::RenderText(collectors::RenderGpuDirect, (*pass)->Collect());
  EXPECT_EQ(Value(e, "roce_gpu_nic_acs_redirect_bridges", "gpu", "0000:03:00.0"), 2);
  // What `setpci -s 02:00.0 ECAP_ACS+6.w=0` writes, on one port: the register alone is re-read.
  const std::string port = d / "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/config";
  std::string bytes = ReadFile(port);
  bytes[0x106] = 0;
  bytes[0x107] = 0;
  std::ofstream(port, std::ios::binary | std::ios::trunc) << bytes;
  e = testing::RenderText(collectors::RenderGpuDirect, (*pass)->Collect());
  EXPECT_EQ(Value(e, "roce_gpu_nic_acs_redirect_bridges", "gpu", "0000:03:00.0"), 1);
}

// Soft-RoCE has no PCI parent: its packets leave through the netdev it runs over, so that
// netdev's PCI function is the NIC on its path (the guest check gpudirect_acs.sh runs this on a
// real kernel). A software device over a virtual netdev has no path at all.
TEST(GpuDirectSource, ASoftRoceDeviceIsOnThePathOfItsNetdevsPciFunction) {
  TestDir d;
  WriteSwitchTree(d, gd::kAcsReqRedir);
  const std::string nic = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0";
  d.Write(nic + "/net/eth9/mtu", "1500\n");
  d.Symlink("../../../0000:04:00.0", nic + "/net/eth9/device");
  d.Symlink("../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0/net/eth9",
            "sys/class/net/eth9");
  d.Write("sys/devices/virtual/net/veth9/mtu", "1500\n");
  d.Symlink("../../devices/virtual/net/veth9", "sys/class/net/veth9");
  for (const std::string rxe : {"rxe0", "rxe1"}) {
    d.Write("sys/devices/virtual/infiniband/" + rxe + "/ports/1/link_layer", "Ethernet\n");
    d.Write("sys/devices/virtual/infiniband/" + rxe + "/ports/1/gid_attrs/ndevs/0",
            rxe == "rxe0" ? "eth9\n" : "veth9\n");
    d.Symlink("../../devices/virtual/infiniband/" + rxe, "sys/class/infiniband/" + rxe);
  }
  NodeSnapshot s = CollectOnly(d.path());
  ASSERT_TRUE(s.gpudirect.has_value());
  const auto e = testing::RenderText(collectors::RenderGpuDirect, s);
  EXPECT_EQ(Value(e, "roce_gpu_nic_relation", "device", "rxe0"), 1);
  EXPECT_EQ(e.Find("roce_gpu_nic_relation", "device", "rxe0").size(), 1u);
  EXPECT_EQ(e.LabelValue(e.samples()[e.Find("roce_gpu_nic_relation", "device", "rxe0")[0]], "relation"), "PIX");
  EXPECT_EQ(Value(e, "roce_gpu_nic_acs_redirect_bridges", "device", "rxe0"), 2);
  EXPECT_EQ(Value(e, "roce_pcie_max_read_request_bytes", "device", "rxe0"), 4096);
  EXPECT_TRUE(e.Find("roce_gpu_nic_relation", "device", "rxe1").empty());  // over a veth
  EXPECT_EQ(Value(e, "roce_gpu_nic_relation", "device", "mlx5_0"), 1);    // unchanged beside it
}

TEST(GpuDirectSource, WithoutCapSysAdminTheRegistersAreAbsentAndCountedNotAFailure) {
  TestDir d;
  WriteSwitchTree(d, gd::kAcsReqRedir, 64);  // what an unprivileged read of config returns
  NodeSnapshot s = CollectOnly(d.path());
  const auto& st = testing::StatusOf(s, "gpudirect");
  EXPECT_TRUE(st.success);
  EXPECT_GE(st.unavailable_values, 5);  // the root port, three switch ports and the NIC
  const auto e = testing::RenderText(collectors::RenderGpuDirect, s);
  EXPECT_EQ(Value(e, "roce_gpu_nic_relation", "relation", "PIX"), 1);  // sysfs alone
  EXPECT_TRUE(e.SamplesOf("roce_gpu_nic_acs_redirect_bridges").empty());  // unknown, not 0
  EXPECT_TRUE(e.SamplesOf("roce_pcie_bridge_acs_control").empty());
  EXPECT_TRUE(e.SamplesOf("roce_pcie_max_read_request_bytes").empty());
  EXPECT_EQ(Value(e, "roce_pcie_aer_errors_total", "pci_address", "0000:04:00.0"), 1);
}

TEST(GpuDirectSource, AMalformedAerFileIsAParseErrorNotAFailedScrape) {
  TestDir d;
  WriteSwitchTree(d, 0);
  d.Write("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0/aer_dev_fatal",
          std::string("\xff\x00garbage", 9));
  NodeSnapshot s = CollectOnly(d.path());
  const auto& st = testing::StatusOf(s, "gpudirect");
  EXPECT_GE(st.parse_errors_total, 1);
  const auto e = testing::RenderText(collectors::RenderGpuDirect, s);
  EXPECT_EQ(Value(e, "roce_gpu_nic_acs_redirect_bridges", "gpu", "0000:03:00.0"), 0);
  EXPECT_EQ(Value(e, "roce_pcie_aer_errors_total", "pci_address", "0000:04:00.0"), 1);
}

}  // namespace
}  // namespace rocewatch
