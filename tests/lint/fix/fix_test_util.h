#pragma once

// Helpers for the tests of `roce-lint fix` and `roce-lint apply`: running commands, a writable
// copy of the mlx5-roce fixture tree (sysfs + configfs) with a netdev renamed, and the stand-in
// tools (tests/lint/fix/fake-tools) whose state lives in a directory.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/fixture_paths.h"

namespace rocewatch::fix_testing {

namespace fs = std::filesystem;

struct RunResult {
  int code = -1;
  std::string out;  // standard output
  std::string err;  // standard error
};

inline std::string Slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline void WriteText(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// 'text' for sh.
inline std::string Q(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` with sh in `dir`, with `env` added to the environment.
inline RunResult Sh(const std::string& command, const fs::path& dir,
                    const std::map<std::string, std::string>& env = {}) {
  // The captured output goes to the temporary directory, never into `dir` (which may be the
  // source tree), named by process and call so that parallel tests do not collide.
  static int counter = 0;
  const std::string stem =
      "rocewatch-fix-sh-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
  const fs::path out = fs::temp_directory_path() / (stem + ".out"),
                 err = fs::temp_directory_path() / (stem + ".err");
  std::string prefix;
  for (const auto& [k, v] : env) prefix += k + "=" + Q(v) + " ";
  std::string cmd = "cd " + Q(dir.string()) + " && " + (prefix.empty() ? "" : "env " + prefix) +
                    "sh -c " + Q(command) + " >" + Q(out.string()) + " 2>" + Q(err.string()) +
                    " </dev/null";
  int status = std::system(cmd.c_str());
  RunResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(out);
  r.err = Slurp(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

inline std::string RoceLint() { return ROCE_LINT_BIN; }
inline std::string FakeTools() { return std::string(ROCEWATCH_TEST_DATA) + "/lint/fix/fake-tools"; }
inline std::string FixData(const std::string& name) {
  return std::string(ROCEWATCH_TEST_DATA) + "/lint/fix/data/" + name;
}
inline std::string ExamplePlan() {
  return std::string(ROCEWATCH_SOURCE_DIR) + "/lint/plan/example-plan.json";
}

// A writable copy of tests/fixtures/mlx5-roce: <root>/sys and <root>/configfs, symlinks kept.
inline void CopyFixtureTree(const fs::path& root) {
  const fs::path src = rocewatch::testing::FixtureDir("mlx5-roce");
  fs::create_directories(root);
  for (const char* part : {"sys", "configfs"})
    fs::copy(src / part, root / part,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

// Renames netdev `from` to `to` in the copied tree: its directory under the PCI device, the
// class/net link and the RDMA ports' gid_attrs/ndevs entries that name it.
inline void RenameNetdev(const fs::path& root, const std::string& from, const std::string& to) {
  const fs::path sys = root / "sys";
  const fs::path link = sys / "class/net" / from;
  const fs::path target = fs::read_symlink(link);  // ../../devices/.../net/<from>
  const fs::path dir = fs::canonical(link);
  fs::rename(dir, dir.parent_path() / to);
  fs::remove(link);
  fs::create_directory_symlink(target.parent_path() / to, sys / "class/net" / to);
  for (const auto& dev : fs::directory_iterator(sys / "class/infiniband")) {
    const fs::path ports = fs::canonical(dev.path()) / "ports";
    if (!fs::exists(ports)) continue;
    for (const auto& port : fs::directory_iterator(ports)) {
      const fs::path ndevs = port.path() / "gid_attrs/ndevs";
      if (!fs::exists(ndevs)) continue;
      for (const auto& e : fs::directory_iterator(ndevs))
        if (Slurp(e.path()) == from + "\n") WriteText(e.path(), to + "\n");
    }
  }
}

// The state of the stand-in tools for one netdev.
struct FakeNetdev {
  std::string pfc = "0 0 0 0 0 0 0 0";
  std::string app;  // DSCP APP lines "26 3\n"
  std::string mtu = "1500";
  std::string pause = "on on on";
  bool dcb = true;  // false: answers EOPNOTSUPP like a veth
};

inline void WriteFakeNetdev(const fs::path& state, const std::string& netdev, const FakeNetdev& n) {
  fs::create_directories(state);
  WriteText(state / (netdev + ".pfc"), n.pfc + "\n");
  WriteText(state / (netdev + ".app"), n.app);
  WriteText(state / (netdev + ".mtu"), n.mtu + "\n");
  WriteText(state / (netdev + ".pause"), n.pause + "\n");
  if (!n.dcb) WriteText(state / (netdev + ".nodcb"), "");
}

// The state of the stand-in rdma for port `port` of RDMA device `dev`: its optional counters in
// the driver's order, those named in `enabled` on, and mandatory counters for `rdma statistic
// show` ("name value" lines).
inline void WriteFakeRdmaPort(const fs::path& state, const std::string& dev, const std::string& port,
                              const std::vector<std::string>& optional,
                              const std::vector<std::string>& enabled,
                              const std::string& counters = "") {
  std::string lines;
  for (const auto& name : optional)
    lines += name + (std::find(enabled.begin(), enabled.end(), name) != enabled.end() ? " 1\n"
                                                                                      : " 0\n");
  WriteText(state / (dev + "." + port + ".optional"), lines);
  if (!counters.empty()) WriteText(state / (dev + "." + port + ".counters"), counters);
}

// mlx5's optional congestion-control counters, as the patch series that added optional counters
// names them (tests/fixtures/real/rdma-statistic/PROVENANCE.md), in the driver's order.
inline const std::vector<std::string>& Mlx5OptionalCounters() {
  static const std::vector<std::string> names = {"cc_rx_ce_pkts", "cc_rx_cnp_pkts",
                                                 "cc_tx_cnp_pkts"};
  return names;
}

// Where a script run on the tree at `root` keeps its backup (ROCEWATCH_STATE): beside the tree,
// never the host's /var/lib/rocewatch.
inline fs::path BackupDir(const fs::path& root) { return root / "rocewatch-state"; }

// The environment that points a script at a tree and at the stand-in tools.
inline std::map<std::string, std::string> FakeEnv(const fs::path& root, const fs::path& state) {
  return {{"ROCEWATCH_SYSFS", (root / "sys").string()},
          {"ROCEWATCH_CONFIGFS", (root / "configfs").string()},
          {"ROCEWATCH_STATE", BackupDir(root).string()},
          {"FAKE_STATE", state.string()},
          {"PATH", FakeTools() + ":" +
                       std::string(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin")}};
}

// Seeds faults in a copied tree (CopyFixtureTree) and in the tools' state: what a freshly
// reloaded driver and a hand-edited node would show on the example plan's gpu-01.
inline void SeedFaults(const fs::path& root, const fs::path& state) {
  WriteFakeNetdev(state, "ens1f0np0",
                  {});  // PFC off, no DSCP entries (trust pcp), MTU 1500, pause on
  FakeNetdev healthy;
  healthy.pfc = "0 0 0 1 0 0 0 0";
  healthy.app = "26 3\n48 6\n";
  healthy.mtu = "9000";
  healthy.pause = "off off off";
  WriteFakeNetdev(state, "ens2f0np0", healthy);
  WriteText(root / "sys/class/net/ens1f0np0/ecn/roce_np/enable/3", "0\n");
  WriteText(root / "sys/class/net/ens1f0np0/ecn/roce_rp/enable/5", "1\n");
  WriteText(root / "sys/class/net/ens2f0np0/ecn/roce_rp/rpg_gd", "12\n");
  WriteText(root / "sys/class/net/ens2f0np0/ecn/roce_np/cnp_dscp", "46\n");
  WriteText(root / "configfs/rdma_cm/mlx5_1/ports/1/default_roce_mode", "IB/RoCE v1\n");
  WriteText(root / "configfs/rdma_cm/mlx5_1/ports/1/default_roce_tos", "0\n");
}

inline int CountLines(const std::string& text, const std::string& needle) {
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.find(needle) != std::string::npos;
  return n;
}

inline bool IsRoot() { return ::geteuid() == 0; }

}  // namespace rocewatch::fix_testing
