// A pass over tests/fixtures/mlx5-sriov (a PF and two SR-IOV VFs, laid out as the PCI core
// links them): a VF's DCB and per-priority pause counters are its PF's, so the dcb collector
// asks nothing for a VF (it serves roce_dcb_supported 0 only) and the ethtool collector serves
// none of its per-priority series; the ecn
// collector finds no ecn/ directory on a VF and serves nothing, without an error. The PCI
// labels every device and netdev carries are checked here too (docs/metrics.md#pci-functions).

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>

#include "common/fixture_pass.h"
#include "common/fixture_paths.h"
#include "exporter/collectors/dcb/collector.h"
#include "exporter/collectors/ethtool/collector.h"
#include "exporter/collectors/netdev/collector.h"
#include "exporter/collectors/rdma/collector.h"
#include "exporter/metrics/text_renderer.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {
namespace {

using testing::FixtureCollectorConfig;
using testing::FixtureDir;
using testing::StatusOf;

constexpr const char* kPf = "enp129s0f0np0";
constexpr const char* kVfs[] = {"enp129s0f0v0", "enp129s0f0v1"};

// The replayed answers, with the netdevs each dcbnl call was asked for.
class DcbCounting final : public kernel::KernelAnswers {
 public:
  explicit DcbCounting(std::shared_ptr<kernel::KernelAnswers> inner) : inner_(std::move(inner)) {}
  std::multiset<std::string> dcb_asked;
  int calls = 0;
  kernel::Answer Ask(const kernel::Request& r) override {
    ++calls;
    if (const auto* ieee = std::get_if<kernel::call::DcbIeee>(&r)) dcb_asked.insert(ieee->netdev);
    if (const auto* dcbx = std::get_if<kernel::call::DcbDcbx>(&r)) dcb_asked.insert(dcbx->netdev);
    return inner_->Ask(r);
  }

 private:
  std::shared_ptr<kernel::KernelAnswers> inner_;
};

struct SriovPass {
  std::shared_ptr<DcbCounting> kernel;
  NodeSnapshot snap;
};

SriovPass Collect() {
  PassConfig config = FixtureCollectorConfig(FixtureDir("mlx5-sriov"));
  auto counting = std::make_shared<DcbCounting>(config.kernel);
  config.kernel = counting;
  auto pass = PassRunner::Create(config);
  EXPECT_TRUE(pass.ok()) << pass.error().message;
  return {counting, (*pass)->Collect()};
}

std::string Render(void (*render)(const NodeSnapshot&, metrics::MetricSink&), const NodeSnapshot& s) {
  metrics::TextRenderer out;
  render(s, out);
  EXPECT_EQ(out.malformed(), 0u);
  return std::move(out).Take();
}

TEST(DcbSriov, VfsAreNotAskedAndServeOnlyNoDcb) {
  SriovPass p = Collect();
  EXPECT_EQ(p.kernel->dcb_asked.count(kPf), 1u);
  for (const char* vf : kVfs) EXPECT_EQ(p.kernel->dcb_asked.count(vf), 0u) << vf;
  ASSERT_EQ(p.snap.dcb.size(), 3u);
  EXPECT_EQ(p.snap.dcb[0].netdev, kPf);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(p.snap.dcb[i].netdev, kVfs[i - 1]);
    EXPECT_FALSE(p.snap.dcb[i].supported);
    EXPECT_FALSE(p.snap.dcb[i].pfc_enabled);
  }
  ASSERT_TRUE(p.snap.dcb[0].pfc_enabled);
  EXPECT_TRUE((*p.snap.dcb[0].pfc_enabled)[3]);
  ASSERT_TRUE(p.snap.dcb[0].pfc_tx_pause_frames);
  EXPECT_EQ((*p.snap.dcb[0].pfc_tx_pause_frames)[3], 4410);
  const SourceStatus& dcb = StatusOf(p.snap, "dcb");
  EXPECT_TRUE(dcb.success);
  EXPECT_TRUE(dcb.errors.empty());
  const std::string text = Render(collectors::RenderDcb, p.snap);
  EXPECT_NE(text.find("roce_pfc_enabled{netdev=\"enp129s0f0np0\",priority=\"3\"} 1"), std::string::npos) << text;
  // A VF: "no DCB of its own", the one series qos.dcb-unsupported reads for a planned VF.
  for (const char* vf : kVfs) {
    const std::string supported = std::string("roce_dcb_supported{netdev=\"") + vf + "\"} 0\n";
    EXPECT_NE(text.find(supported), std::string::npos) << supported << text;
    std::size_t lines = 0;
    for (std::size_t at = text.find(std::string("netdev=\"") + vf + "\""); at != std::string::npos;
         at = text.find(std::string("netdev=\"") + vf + "\"", at + 1))
      ++lines;
    EXPECT_EQ(lines, 1u) << vf;
  }
}

TEST(DcbSriov, VfsServeNoPerPrioritySeries) {
  SriovPass p = Collect();
  ASSERT_EQ(p.snap.ethtool.size(), 3u);
  EXPECT_FALSE(p.snap.ethtool[0].per_priority.empty());
  EXPECT_TRUE(p.snap.ethtool[1].per_priority.empty());
  EXPECT_TRUE(p.snap.ethtool[2].per_priority.empty());
  const std::string text = Render(collectors::RenderEthtool, p.snap);
  // The PF's: what its string set and values say (tests/fixtures/generate.py sriov_answers).
  EXPECT_NE(text.find(R"(roce_pfc_pause_frames_total{netdev="enp129s0f0np0",priority="3",direction="rx"} 9120)"),
            std::string::npos) << text;
  EXPECT_NE(text.find(R"(roce_pfc_pause_duration_seconds_total{netdev="enp129s0f0np0",priority="3",direction="tx"} 0.318772)"),
            std::string::npos);
  for (const char* vf : kVfs) {
    for (const char* family : {"roce_pfc_pause_frames_total{netdev=\"", "roce_pfc_pause_duration_seconds_total{netdev=\"",
                               "roce_pfc_pause_transitions_total{netdev=\"", "roce_priority_bytes_total{netdev=\"",
                               "roce_priority_packets_total{netdev=\""}) {
      EXPECT_EQ(text.find(std::string(family) + vf + "\""), std::string::npos) << family << vf;
    }
    // The rest of a VF's statistics are still served.
    EXPECT_NE(text.find(std::string("roce_ethtool_driver_info{netdev=\"") + vf), std::string::npos) << vf;
  }
  EXPECT_TRUE(StatusOf(p.snap, "ethtool").success);
}

TEST(DcbSriov, EcnServesThePfAndNothingForVfsWithoutAnError) {
  SriovPass p = Collect();
  ASSERT_EQ(p.snap.ecn.size(), 1u);
  EXPECT_EQ(p.snap.ecn[0].netdev, kPf);
  EXPECT_EQ(p.snap.ecn[0].np_enabled[3], true);
  const SourceStatus& ecn = StatusOf(p.snap, "ecn");
  EXPECT_TRUE(ecn.success);
  EXPECT_TRUE(ecn.errors.empty());
  EXPECT_EQ(ecn.unavailable_values, 0);
}

TEST(DcbSriov, DevicesAndNetdevsNameTheirPciFunctionAndPf) {
  SriovPass p = Collect();
  const std::string rdma = Render(collectors::RenderRdma, p.snap);
  for (const char* want :
       {R"(device="mlx5_0",fw_version="14.32.1010",board_id="MT_2420110034",hca_type="MT4117",)",
        R"(pci_address="0000:81:00.0",pci_function="pf",pf_pci_address="0000:81:00.0"} 1)",
        R"(device="mlx5_1",fw_version="14.32.1010",board_id="MT_2420110034",hca_type="MT4118",)",
        R"(pci_address="0000:81:00.2",pci_function="vf",pf_pci_address="0000:81:00.0"} 1)",
        R"(pci_address="0000:81:00.3",pci_function="vf",pf_pci_address="0000:81:00.0"} 1)"})
    EXPECT_NE(rdma.find(want), std::string::npos) << want << "\n" << rdma.substr(0, 2000);
  const std::string netdev = Render(collectors::RenderNetdev, p.snap);
  for (const char* want :
       {R"(roce_netdev_info{netdev="enp129s0f0np0",device="mlx5_0",port="1",address="b8:59:9f:3e:41:a0",)"
        R"(pci_address="0000:81:00.0",pci_function="pf",pf_pci_address="0000:81:00.0"} 1)",
        R"(roce_netdev_info{netdev="enp129s0f0v1",device="mlx5_2",port="1",address="16:8a:2b:4c:00:02",)"
        R"(pci_address="0000:81:00.3",pci_function="vf",pf_pci_address="0000:81:00.0"} 1)"})
    EXPECT_NE(netdev.find(want), std::string::npos) << want << "\n" << netdev;
}

}  // namespace
}  // namespace rocewatch
