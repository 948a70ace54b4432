#pragma once

// Which NICs `roce-lint verify` tests against each other, and in which rounds: no NIC is in two
// tests of one round, so every test has both NICs to itself.
//   rail  every node's NIC with a partner on the same rail: the rail's NICs in plan order, paired
//         first with second, third with fourth…; an odd one out is paired with the rail's first
//   all   every two NICs of one rail (n·(n−1)/2 tests)
//   FILE  one pair a line, "NODE[/IBDEV] NODE[/IBDEV]" (server first), '#' comments

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/plan/model.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::verify {

struct Endpoint {
  std::size_t node = 0;  // index into plan.nodes
  std::size_t nic = 0;   // index into that node's nics
  bool operator==(const Endpoint&) const = default;
};

struct Pair {
  Endpoint server, client;
  std::optional<std::int64_t> rail;  // both NICs' rail, when they share one
  std::string origin;                // "rail 0", or "pairs.txt:3"
};

enum class PairMode { kRail, kAll };

// The pairs of `mode`; NICs without a rail are left out (`unpaired` gets "node/ibdev: why").
std::vector<Pair> PairsFromPlan(const plan::Plan& plan, PairMode mode,
                                std::vector<std::string>* unpaired = nullptr);

// The pairs a --pairs file names. `name` is the file's name in errors ("pairs.txt:3: …").
Result<std::vector<Pair>> ParsePairsFile(std::string_view text, const std::string& name,
                                         const plan::Plan& plan);

// The pairs in rounds: each pair goes to the first round where neither of its NICs is busy.
std::vector<std::vector<Pair>> ScheduleRounds(const std::vector<Pair>& pairs);

// "gpu-01/mlx5_0", as the plan writes it.
std::string EndpointName(const plan::Plan& plan, const Endpoint& e);
// "gpu-01/mlx5_0 -> gpu-02/mlx5_0" (client -> server).
std::string PairName(const plan::Plan& plan, const Pair& pair);

}  // namespace rocewatch::lint::verify
