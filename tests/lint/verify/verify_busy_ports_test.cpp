// roce-lint verify's precheck (lint/verify/busy_ports.h): a port that jobs hold QPs on, as the
// node's exporter names them (roce_rdma_job_qps), is busy; the kernel's own QPs are no job; a
// node whose exporter serves no per-job view, or does not answer, is unknown, never busy.

#include <gtest/gtest.h>

#include "lint/observe/exposition.h"
#include "lint/plan/load.h"
#include "lint/verify/busy_ports.h"

namespace rocewatch::lint::verify {
namespace {

const char* kPlan = R"({"cluster": "t", "profiles": {"p": {"link_speed_gbps": 400, "pfc_priorities": [3],
  "roce_dscp": 26, "roce_mtu": 4096}},
  "nodes": [
   {"name": "n1", "management_ip": "127.0.0.1", "nics": [
     {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.1/24", "rail": 0},
     {"ib_dev": "mlx5_1", "netdev": "e1", "profile": "p", "roce_ip": "10.11.0.1/24", "rail": 1}]},
   {"name": "n2", "management_ip": "127.0.0.2", "nics": [
     {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.2/24", "rail": 0},
     {"ib_dev": "mlx5_1", "netdev": "e1", "profile": "p", "roce_ip": "10.11.0.2/24", "rail": 1}]},
   {"name": "n3", "management_ip": "127.0.0.3", "nics": [
     {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.3/24", "rail": 0}]}]})";

observe::NodeView View(const std::string& node, const std::string& text) {
  observe::NodeView v(node, "test");
  auto e = observe::Exposition::Parse(text);
  EXPECT_TRUE(e.ok());
  if (e.ok()) v.SetMetrics(std::move(*e));
  return v;
}

TEST(VerifyBusyPorts, JobsOnAPortMakeItBusy) {
  auto loaded = plan::LoadPlanText(kPlan, "plan.json");
  ASSERT_TRUE(loaded.ok());
  const plan::Plan& plan = loaded->plan;
  const auto rounds = ScheduleRounds(PairsFromPlan(plan, PairMode::kRail));
  const auto nodes = NodesOf(rounds);
  ASSERT_EQ(nodes.size(), 3u);
  std::vector<observe::NodeView> views;
  for (std::size_t n : nodes) {
    const std::string& name = plan.nodes[n].name;
    if (name == "n1") {
      // mlx5_0 carries a Slurm job; mlx5_1 only the kernel's GSI QP.
      views.push_back(View(name,
                           "roce_rdma_jobs{device=\"mlx5_0\"} 2\n"
                           "roce_rdma_job_qps{device=\"mlx5_0\",kind=\"slurm\",workload=\"4711\",qos=\"\"} 8\n"
                           "roce_rdma_job_qps{device=\"mlx5_0\",kind=\"kernel\",workload=\"ib_core\",qos=\"\"} 1\n"
                           "roce_rdma_jobs{device=\"mlx5_1\"} 1\n"
                           "roce_rdma_job_qps{device=\"mlx5_1\",kind=\"kernel\",workload=\"ib_core\",qos=\"\"} 1\n"));
    } else if (name == "n2") {
      views.push_back(View(name, "roce_device_info{device=\"mlx5_0\"} 1\n"));  // no per-job view
    } else {
      observe::NodeView v(name, "test");
      v.SetError("connection refused");
      views.push_back(std::move(v));
    }
  }
  const BusyPorts ports = FindBusyPorts(plan, rounds, nodes, views);
  ASSERT_EQ(ports.busy.size(), 1u);
  EXPECT_EQ(ports.busy[0], "n1/mlx5_0: slurm \"4711\" (8 QPs)");
  // n2's two NICs and n3's: nothing known, each said once.
  ASSERT_EQ(ports.unknown.size(), 3u);
  std::size_t no_view = 0, refused = 0;
  for (const auto& line : ports.unknown) {
    no_view += line.find("serves no per-job view") != std::string::npos;
    refused += line.rfind("n3/mlx5_0: exporter unreachable: connection refused", 0) == 0;
  }
  EXPECT_EQ(no_view, 2u);
  EXPECT_EQ(refused, 1u);
}

}  // namespace
}  // namespace rocewatch::lint::verify
