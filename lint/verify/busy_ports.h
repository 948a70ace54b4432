#pragma once

// `roce-lint verify`'s precheck: a bandwidth test on a port that a job is using would compete
// with the job (its traffic slowed, the verdict wrong), so verify refuses such ports unless
// told to (--allow-busy-ports, docs/verify.md). What a port carries is read from its node's
// exporter, once before the first round: the per-job view (roce_rdma_job_qps,
// --collector.rdma.per-job) names the jobs; kernel users (the GSI QP every port has) are none.

#include <string>
#include <vector>

#include "lint/observe/node_view.h"
#include "lint/plan/model.h"
#include "lint/verify/pairs.h"

namespace rocewatch::lint::verify {

struct BusyPorts {
  std::vector<std::string> busy;     // "gpu-01/mlx5_0: pod \"…\" (12 QPs)", one an endpoint
  std::vector<std::string> unknown;  // "gpu-02/mlx5_1: …why nothing is known"
};

// The endpoints of `rounds` (each once), judged from `views`, one a node of `nodes` (plan
// indices, in that order: ScrapeSome's).
BusyPorts FindBusyPorts(const plan::Plan& plan, const std::vector<std::vector<Pair>>& rounds,
                        const std::vector<std::size_t>& nodes, const std::vector<observe::NodeView>& views);

// The plan indices of the nodes `rounds` uses, each once, in order.
std::vector<std::size_t> NodesOf(const std::vector<std::vector<Pair>>& rounds);

}  // namespace rocewatch::lint::verify
