// The jobs on a port in counters findings (the exporter's per-job view, roce_rdma_job_qps):
// counters.pause-storm and counters.cnp-storm name the jobs that hold QPs on the NIC, the
// most QPs first, kernel users left out; without the view the findings say what they said.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"
#include "lint/observe/jobs_on_device.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace checks;

// The exporter's per-job view of mlx5_0 on gpu-01: a pod (a real kubelet's UID), a Slurm job,
// the kernel's GSI QP.
void AddJobs(Cluster& c) {
  c.Add(1, R"(roce_rdma_jobs{device="mlx5_0"} 3)");
  c.Add(1, R"(roce_rdma_job_qps{device="mlx5_0",kind="slurm",workload="1392969",qos=""} 4)");
  c.Add(1, R"(roce_rdma_job_qps{device="mlx5_0",kind="pod",workload="a5c1f8d5-1919-434d-add7-4afaafdaef89",qos="burstable"} 12)");
  c.Add(1, R"(roce_rdma_job_qps{device="mlx5_0",kind="kernel",workload="ib_core",qos=""} 1)");
}

constexpr const char* kJobs =
    "Jobs with QPs on mlx5_0: pod \"a5c1f8d5-1919-434d-add7-4afaafdaef89\" (12 QPs), slurm \"1392969\" (4 QPs).";

TEST(CheckJobs, PauseStormNamesTheJobsOnTheNic) {
  Cluster c(1, 2);
  AddJobs(c);
  c.StartWindow(30);
  c.Set(1, R"(roce_ethtool_tx_pause_storm_warning_events_total{netdev="ens1f0np0"})", "2");
  Finding f = ExpectOnly(c.Run(), kPauseStorm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_THAT(f.message, HasSubstr("ens1f0np0 is in a PFC pause storm"));
  EXPECT_THAT(f.message, HasSubstr(kJobs));
}

// With --collector.rdma.pod-names-root the exporter names the pod: the finding says its
// namespace and name instead of its UID.
TEST(CheckJobs, APodByItsNameWhereTheExporterServesIt) {
  Cluster c(1, 2);
  AddJobs(c);
  c.Add(1, R"(roce_rdma_job_pod_info{device="mlx5_0",workload="a5c1f8d5-1919-434d-add7-4afaafdaef89",pod_namespace="ml",pod_name="llama-trainer-0"} 1)");
  c.StartWindow(30);
  c.Set(1, R"(roce_ethtool_tx_pause_storm_warning_events_total{netdev="ens1f0np0"})", "2");
  Finding f = ExpectOnly(c.Run(), kPauseStorm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_THAT(f.message, HasSubstr("Jobs with QPs on mlx5_0: pod \"ml/llama-trainer-0\" (12 QPs), slurm \"1392969\" (4 QPs)."));
}

TEST(CheckJobs, WithoutThePerJobViewTheFindingIsAsBefore) {
  Cluster c(1, 2);
  c.StartWindow(30);
  c.Set(1, R"(roce_ethtool_tx_pause_storm_warning_events_total{netdev="ens1f0np0"})", "2");
  Finding f = ExpectOnly(c.Run(), kPauseStorm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_THAT(f.message, Not(HasSubstr("Jobs")));
}

TEST(CheckJobs, CnpStormAsReactionPoint) {
  Cluster c(1, 2);
  AddJobs(c);
  c.StartWindow(30);
  // 60,000 CNPs handled while the port sent 1,000,000 packets: 6%.
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="rp_cnp_handled"})", "1794562");
  c.Set(1, R"(roce_port_transmitted_packets_total{device="mlx5_0",port="1"})", "4685983537");
  Finding f = ExpectOnly(c.Run(), kCnpStorm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.found, "60000 CNPs handled (6% of the packets sent), 0 CNPs sent (0% of the packets received) in 30 s");
  EXPECT_THAT(f.message, HasSubstr("mlx5_0 port 1 is congested"));
  EXPECT_THAT(f.message, HasSubstr(kJobs));
}

TEST(CheckJobs, CnpStormAsNotificationPoint) {
  Cluster c(1, 2);
  c.StartWindow(30);
  // Incast: 30,000 CNPs sent for 200,000 packets received.
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="np_cnp_sent"})", "2946005");
  c.Set(1, R"(roce_port_received_packets_total{device="mlx5_0",port="1"})", "4666562721");
  Finding f = ExpectOnly(c.Run(), kCnpStorm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_THAT(f.found, HasSubstr("30000 CNPs sent (15% of the packets received)"));
  EXPECT_THAT(f.message, Not(HasSubstr("Jobs")));
}

TEST(CheckJobs, CnpsUnderOnePercentAreQuiet) {
  Cluster c(1, 2);
  AddJobs(c);
  c.StartWindow(30);
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="rp_cnp_handled"})", "1739562");
  c.Set(1, R"(roce_port_transmitted_packets_total{device="mlx5_0",port="1"})", "4685983537");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckJobs, JobsOnDeviceKnowsWhenTheViewIsOff) {
  Cluster c(1, 2);
  AddJobs(c);
  c.Run();
  auto jobs = observe::JobsOnDevice(c.views[0], "mlx5_0");
  ASSERT_TRUE(jobs.has_value());
  ASSERT_EQ(jobs->size(), 2u);  // the kernel's QP is no job
  EXPECT_EQ((*jobs)[0].kind, "pod");
  EXPECT_EQ(observe::JobsOnDevice(c.views[0], "mlx5_1"), std::nullopt);
  std::vector<observe::JobOnDevice> many(7, {"unit", "a.service", 1, ""});
  EXPECT_EQ(observe::JobList(many, 2), "unit \"a.service\" (1 QPs), unit \"a.service\" (1 QPs), +5 more");
}

}  // namespace
}  // namespace rocewatch::lint::testing
