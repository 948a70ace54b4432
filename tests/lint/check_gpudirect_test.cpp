// GPUDirect checks (lint/checks/gpudirect): each fires on the series the exporter's gpudirect
// collector serves for a bad path, names the bridges and the commands, and stays quiet on a good
// path, without the profile's `gpudirect`, and without the series.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "check_test_util.h"
#include "lint/plan/gpudirect_load.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using namespace checks;

constexpr std::string_view kGpu = R"("gpudirect": {"max_relation": "PXB", "iommu_passthrough": true, "peer_memory": true, "min_max_read_request_bytes": 4096, "max_aer_correctable": 10},)";

// Node 1 with two GPUs: mlx5_0 sits below the same switch as GPU 0000:18:00.0 (PIX, through
// ports 0000:17:01.0 and 0000:17:02.0 and upstream port 0000:16:00.0), GPU 0000:9a:00.0 is
// across the sockets (SYS). A healthy path: no redirect, identity, nvidia_peermem, MRRS 4096.
Cluster GpuCluster() {
  Cluster c(1, 1);
  c.EditPlan("\"link_speed_gbps\": 400,", "\"link_speed_gbps\": 400, " + std::string(kGpu));
  for (const char* line : {
           R"(roce_gpu_nic_relation{device="mlx5_0",gpu="0000:18:00.0",relation="PIX"} 1)",
           R"(roce_gpu_nic_relation{device="mlx5_0",gpu="0000:9a:00.0",relation="SYS"} 5)",
           R"(roce_gpu_nic_acs_redirect_bridges{device="mlx5_0",gpu="0000:18:00.0"} 0)",
           R"(roce_gpu_nic_path_bridge{device="mlx5_0",gpu="0000:18:00.0",bridge="0000:17:01.0"} 1)",
           R"(roce_gpu_nic_path_bridge{device="mlx5_0",gpu="0000:18:00.0",bridge="0000:16:00.0"} 2)",
           R"(roce_gpu_nic_path_bridge{device="mlx5_0",gpu="0000:18:00.0",bridge="0000:17:02.0"} 3)",
           R"(roce_pcie_bridge_acs_control{bridge="0000:17:01.0",bit="req_redir"} 0)",
           R"(roce_pcie_bridge_acs_control{bridge="0000:17:01.0",bit="cmplt_redir"} 0)",
           R"(roce_pcie_bridge_acs_control{bridge="0000:17:02.0",bit="req_redir"} 0)",
           R"(roce_pcie_bridge_acs_control{bridge="0000:17:02.0",bit="cmplt_redir"} 0)",
           R"(roce_pcie_upstream_bridge{device="mlx5_0",bridge="0000:17:02.0"} 1)",
           R"(roce_pcie_upstream_bridge{device="mlx5_0",bridge="0000:16:00.0"} 2)",
           R"(roce_pcie_iommu_group_info{device="mlx5_0",type="identity"} 1)",
           R"(roce_pcie_max_read_request_bytes{device="mlx5_0"} 4096)",
           R"(roce_gpu_peer_memory_module_loaded{module="nvidia_peermem"} 1)",
           R"(roce_gpu_peer_memory_module_loaded{module="nv_peer_mem"} 0)",
           R"(roce_pcie_aer_errors_total{pci_address="0000:17:00.0",aer_severity="correctable"} 0)",
           R"(roce_pcie_aer_errors_total{pci_address="0000:17:00.0",aer_severity="nonfatal"} 0)",
           R"(roce_pcie_aer_errors_total{pci_address="0000:17:02.0",aer_severity="correctable"} 0)",
       })
    c.Add(1, line);
  return c;
}

TEST(CheckGpuDirect, AHealthyPathIsQuiet) {
  Cluster c = GpuCluster();
  c.StartWindow(300);
  EXPECT_TRUE(c.Run().empty()) << Describe(c.Run());
}

TEST(CheckGpuDirect, AcsRedirectNamesTheBridgesTheCommandsTheBootParameterAndTheRollback) {
  Cluster c = GpuCluster();
  c.Set(1, R"(roce_gpu_nic_acs_redirect_bridges{device="mlx5_0",gpu="0000:18:00.0"})", "2");
  c.Set(1, R"(roce_pcie_bridge_acs_control{bridge="0000:17:01.0",bit="req_redir"})", "1");
  c.Set(1, R"(roce_pcie_bridge_acs_control{bridge="0000:17:02.0",bit="cmplt_redir"})", "1");
  Finding f = ExpectOnly(c.Run(), kGpuDirectAcsRedirect, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "2 bridges redirect (0000:17:01.0;0000:17:02.0)");
  EXPECT_THAT(f.fix, HasSubstr("setpci -s 0000:17:01.0 ECAP_ACS+6.w=0000:000c; setpci -s 0000:17:02.0 ECAP_ACS+6.w=0000:000c"));
  EXPECT_THAT(f.fix, HasSubstr("\"pci=disable_acs_redir=0000:17:01.0;0000:17:02.0\""));
  // The rollback sets back the bits each bridge had: request redirect on one, completion on the
  // other.
  EXPECT_THAT(f.fix, HasSubstr("setpci -s 0000:17:01.0 ECAP_ACS+6.w=0004:000c; setpci -s 0000:17:02.0 ECAP_ACS+6.w=0008:000c"));
  // What `roce-lint fix --only-findings` clears.
  EXPECT_EQ(f.setting.key, "acs_redirect");
  EXPECT_EQ(std::get<std::string>(f.setting.found), "0000:17:01.0,0000:17:02.0");
}

TEST(CheckGpuDirect, AHostileBridgeLabelNeverReachesACommand) {
  Cluster c = GpuCluster();
  c.Set(1, R"(roce_gpu_nic_acs_redirect_bridges{device="mlx5_0",gpu="0000:18:00.0"})", "1");
  c.Add(1, R"x(roce_gpu_nic_path_bridge{device="mlx5_0",gpu="0000:18:00.0",bridge="$(reboot)"} 4)x");
  c.Add(1, R"x(roce_pcie_bridge_acs_control{bridge="$(reboot)",bit="req_redir"} 1)x");
  Finding f = ExpectOnly(c.Run(), kGpuDirectAcsRedirect, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_THAT(f.fix, ::testing::Not(HasSubstr("$(reboot)")));
}

TEST(CheckGpuDirect, TheGpuFartherThanThePlanAllowsFires) {
  Cluster c = GpuCluster();
  c.EditPlan("\"switch_port\": \"leaf-0:Ethernet8\"", "\"switch_port\": \"leaf-0:Ethernet8\", \"gpu\": \"0000:9a:00.0\"");
  Finding f = ExpectOnly(c.Run(), kGpuDirectGpuDistance, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.expected, "PXB or nearer");
  EXPECT_EQ(f.found, "SYS to GPU 0000:9a:00.0");
  // The nearest GPU (the default) is PIX: quiet.
  c.EditPlan(", \"gpu\": \"0000:9a:00.0\"", ", \"gpu\": \"nearest\"");
  EXPECT_TRUE(WithId(c.Run(), kGpuDirectGpuDistance.id).empty());
  // A planned GPU the node lacks.
  c.EditPlan("\"gpu\": \"nearest\"", "\"gpu\": \"0000:01:00.0\"");
  Finding missing = ExpectOnly(c.Run(), kGpuDirectGpuDistance, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(missing.found, "no GPU 0000:01:00.0");
}

TEST(CheckGpuDirect, IommuTranslationPeerMemoryAndMaxReadRequestFire) {
  Cluster c = GpuCluster();
  // Added beside the family's series before the one it replaces goes, so the family keeps its
  // one TYPE line.
  c.Add(1, R"(roce_pcie_iommu_group_info{device="mlx5_0",type="DMA-FQ"} 1)");
  c.Remove(1, R"(roce_pcie_iommu_group_info{device="mlx5_0",type="identity"})");
  c.Set(1, R"(roce_gpu_peer_memory_module_loaded{module="nvidia_peermem"})", "0");
  c.Set(1, R"(roce_pcie_max_read_request_bytes{device="mlx5_0"})", "512");
  auto findings = c.Run();
  EXPECT_THAT(Ids(findings), ::testing::UnorderedElementsAre("gpudirect.iommu-translation", "gpudirect.peer-memory",
                                                             "gpudirect.max-read-request"))
      << Describe(findings);
  Finding iommu = WithId(findings, kGpuDirectIommuTranslation.id).at(0);
  EXPECT_EQ(iommu.found, "IOMMU group type DMA-FQ");
  EXPECT_THAT(iommu.fix, HasSubstr("iommu=pt"));
  Finding peer = WithId(findings, kGpuDirectPeerMemory.id).at(0);
  EXPECT_EQ(peer.device, "");
  EXPECT_THAT(peer.fix, HasSubstr("modprobe nvidia-peermem"));
  Finding mrrs = WithId(findings, kGpuDirectMaxReadRequest.id).at(0);
  EXPECT_EQ(mrrs.found, "MaxReadReq 512 bytes");
  EXPECT_THAT(mrrs.fix, HasSubstr("setpci -s 0000:17:00.0 CAP_EXP+8.w=5000:7000"));
}

TEST(CheckGpuDirect, AerErrorsRisingOverTheWindowFire) {
  Cluster c = GpuCluster();
  c.StartWindow(300);
  c.Set(1, R"(roce_pcie_aer_errors_total{pci_address="0000:17:02.0",aer_severity="correctable"})", "5");  // within 10
  EXPECT_TRUE(WithId(c.Run(), kGpuDirectAerErrors.id).empty());
  c.Set(1, R"(roce_pcie_aer_errors_total{pci_address="0000:17:02.0",aer_severity="correctable"})", "50");
  c.Set(1, R"(roce_pcie_aer_errors_total{pci_address="0000:17:00.0",aer_severity="nonfatal"})", "1");
  auto findings = WithId(c.Run(), kGpuDirectAerErrors.id);
  ASSERT_EQ(findings.size(), 2u) << Describe(findings);
  EXPECT_EQ(findings[0].found, "1 nonfatal in 300 s");
  EXPECT_EQ(findings[1].found, "50 correctable in 300 s");
}

TEST(CheckGpuDirect, SilentWithoutTheProfileOrTheSeries) {
  Cluster c = GpuCluster();
  c.Set(1, R"(roce_gpu_nic_acs_redirect_bridges{device="mlx5_0",gpu="0000:18:00.0"})", "2");
  c.EditPlan(std::string(kGpu), "");
  EXPECT_TRUE(c.Run().empty()) << Describe(c.Run());
  Cluster bare(1, 1);  // an exporter without the gpudirect collector
  bare.EditPlan("\"link_speed_gbps\": 400,", "\"link_speed_gbps\": 400, " + std::string(kGpu));
  EXPECT_TRUE(bare.Run().empty()) << Describe(bare.Run());
}

TEST(CheckGpuDirect, ThePlanRefusesAWrongRelationAndGpu) {
  Cluster c = GpuCluster();
  c.EditPlan("\"max_relation\": \"PXB\"", "\"max_relation\": \"NEAR\"");
  c.EditPlan("\"switch_port\": \"leaf-0:Ethernet8\"", "\"switch_port\": \"leaf-0:Ethernet8\", \"gpu\": \"$(x)\"");
  auto loaded = plan::LoadPlanText(c.plan_json, "plan.json");
  ASSERT_TRUE(loaded.ok());
  std::string all;
  for (const auto& f : loaded->findings) all += f.location + " " + f.message + "\n";
  EXPECT_THAT(all, HasSubstr("/gpudirect/max_relation"));
  EXPECT_THAT(all, HasSubstr("/gpu"));
}

TEST(CheckGpuDirect, TheSchemaHasTheKeysTheLoaderReads) {
  std::ifstream in(std::string(ROCEWATCH_SOURCE_DIR) + "/lint/plan/plan.schema.json");
  const auto s = nlohmann::json::parse(in);
  const auto& g = s.at("$defs").at("profile").at("properties").at("gpudirect").at("properties");
  std::vector<std::string> keys;
  for (const auto& [k, v] : g.items()) keys.push_back(k);
  std::vector<std::string> want = plan::GpuDirectKeys();
  std::sort(keys.begin(), keys.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(keys, want);
  EXPECT_TRUE(s.at("$defs").at("nic").at("properties").contains("gpu"));
}

}  // namespace
}  // namespace rocewatch::lint::testing
