#pragma once

// The plan as Prometheus scrape targets: file_sd JSON (one group per node, its exporter
// address the target) whose labels are the plan's names (cluster, node, every key of the
// node's `labels`: rack, pod, …, and `rails`: its NICs' rails, "0,1"), so Prometheus, the dashboards and the alerts all see the
// plan's names. JSON is written by nlohmann-json, which escapes every value; a plan label
// whose name Prometheus would refuse, or one that would overwrite cluster, node, instance or
// job, is an Error naming the node and label.

#include <string>

#include <nlohmann/json.hpp>

#include "lint/plan/model.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::targets {

// [{"targets": ["10.0.0.1:9879"], "labels": {"cluster": "c1", "node": "gpu-01", "rack": "r1"}}, …]
Result<nlohmann::json> FileSdTargets(const plan::Plan& plan);

// A scrape_configs entry that reads `file_sd_path` (YAML; every string JSON-quoted).
std::string ScrapeConfigSnippet(const std::string& job_name, const std::string& file_sd_path);

}  // namespace rocewatch::lint::targets
