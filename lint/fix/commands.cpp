#include "lint/fix/commands.h"

#include <algorithm>

#include "rocewatch/escape.h"

namespace rocewatch::lint::fix {
namespace {

// root + rel as one shell word: double-quoted as a whole when the root is a shell variable and
// rel a plain word, else the variable in double quotes followed by rel as escape::ShWord quotes
// it (a name with spaces, quotes or `$(…)` stays one literal path).
std::string Under(const std::string& root, const std::string& rel) {
  if (!root.empty() && root.front() == '$') {
    std::string word = escape::ShWord(rel);
    if (word == rel) return "\"" + root + rel + "\"";
    return "\"" + root + "\"" + word;
  }
  return escape::ShWord(root + rel);
}

// A name as a word of a command.
std::string W(const std::string& name) { return escape::ShWord(name); }

}  // namespace

std::string_view ToolsetName(Toolset tools) {
  return tools == Toolset::kMlnx ? "mlnx" : "upstream";
}

const Roots& RealRoots() {
  static const Roots kRoots;
  return kRoots;
}

const Roots& ScriptRoots() {
  static const Roots kRoots{"$SYSFS", "$CONFIGFS"};
  return kRoots;
}

std::string SetPfc(Toolset tools, const std::string& netdev,
                   const std::vector<std::int64_t>& priorities) {
  bool on[8] = {};
  for (auto p : priorities)
    if (p >= 0 && p < 8) on[p] = true;
  if (tools == Toolset::kMlnx) {
    std::string list;
    for (int p = 0; p < 8; ++p) list += std::string(p ? "," : "") + (on[p] ? "1" : "0");
    return "mlnx_qos -i " + W(netdev) + " --pfc " + list;
  }
  std::string cmd = "dcb pfc set dev " + W(netdev) + " prio-pfc";
  for (int p = 0; p < 8; ++p) cmd += " " + std::to_string(p) + (on[p] ? ":on" : ":off");
  return cmd;
}

std::string SetTrustDscp(Toolset tools, const std::string& netdev,
                         const std::map<std::int64_t, std::int64_t>& dscp_priority) {
  if (tools == Toolset::kMlnx) {
    std::string cmd = "mlnx_qos -i " + W(netdev) + " --trust dscp";
    for (const auto& [dscp, prio] : dscp_priority)
      cmd += " && mlnx_qos -i " + W(netdev) + " --dscp2prio set," + std::to_string(dscp) + "," +
             std::to_string(prio);
    return cmd;
  }
  std::string cmd = "dcb app add dev " + W(netdev) + " dscp-prio";
  for (const auto& [dscp, prio] : dscp_priority)
    cmd += " " + std::to_string(dscp) + ":" + std::to_string(prio);
  return cmd;
}

std::string SetTrustPcp(Toolset tools, const std::string& netdev) {
  if (tools == Toolset::kMlnx) return "mlnx_qos -i " + W(netdev) + " --trust pcp";
  return "dcb app flush dev " + W(netdev) + " dscp-prio";
}

std::string SetDscpPriority(Toolset tools, const std::string& netdev, std::int64_t dscp,
                            std::int64_t priority) {
  if (tools == Toolset::kMlnx)
    return "mlnx_qos -i " + W(netdev) + " --dscp2prio set," + std::to_string(dscp) + "," +
           std::to_string(priority);
  return "dcb app replace dev " + W(netdev) + " dscp-prio " + std::to_string(dscp) + ":" +
         std::to_string(priority);
}

std::string SetEcn(const std::string& netdev, const std::string& point, std::int64_t priority,
                   bool on) {
  return SetEcn(RealRoots(), netdev, point, priority, on);
}

std::string SetEcn(const Roots& roots, const std::string& netdev, const std::string& point,
                   std::int64_t priority, bool on) {
  return std::string("echo ") + (on ? "1" : "0") + " > " +
         Under(roots.sysfs, "/class/net/" + netdev + "/ecn/roce_" + point + "/enable/" +
                                std::to_string(priority));
}

std::string SetEcnPriorities(const Roots& roots, const std::string& netdev,
                             const std::string& point,
                             const std::vector<std::int64_t>& priorities) {
  std::string cmd;
  for (std::int64_t p = 0; p < 8; ++p) {
    bool on = std::find(priorities.begin(), priorities.end(), p) != priorities.end();
    cmd += (cmd.empty() ? "" : " && ") + SetEcn(roots, netdev, point, p, on);
  }
  return cmd;
}

std::string SetDcqcnParameter(const std::string& netdev, const std::string& point,
                              const std::string& name, std::int64_t value) {
  return SetDcqcnParameter(RealRoots(), netdev, point, name, value);
}

std::string SetDcqcnParameter(const Roots& roots, const std::string& netdev,
                              const std::string& point, const std::string& name,
                              std::int64_t value) {
  return "echo " + std::to_string(value) + " > " + DcqcnParameterPath(roots, netdev, point, name);
}

std::string SetMtu(const std::string& netdev, std::int64_t mtu) {
  return "ip link set dev " + W(netdev) + " mtu " + std::to_string(mtu);
}

std::string SetOptionalCounters(const std::string& device, const std::string& port,
                                const std::vector<std::string>& counters) {
  std::string list;
  for (const auto& c : counters) list += (list.empty() ? "" : ",") + c;
  return "rdma statistic set link " + W(device + "/" + port) + " optional-counters " + W(list);
}

std::string SetGlobalPauseOff(const std::string& netdev) {
  return "ethtool -A " + W(netdev) + " autoneg off rx off tx off";
}

std::string SetCmRoceModeV2(Toolset tools, const std::string& device, const std::string& port) {
  return SetCmRoceModeV2(tools, RealRoots(), device, port);
}

std::string SetCmRoceModeV2(Toolset tools, const Roots& roots, const std::string& device,
                            const std::string& port) {
  if (tools == Toolset::kMlnx) return "cma_roce_mode -d " + W(device) + " -p " + W(port) + " -m 2";
  return "mkdir -p " + CmDeviceDir(roots, device) + " && echo '" + std::string(kCmRoceModeV2) +
         "' > " +
         Under(roots.configfs, "/rdma_cm/" + device + "/ports/" + port + "/default_roce_mode");
}

std::string SetCmTos(Toolset tools, const std::string& device, const std::string& port,
                     std::int64_t tos) {
  return SetCmTos(tools, RealRoots(), device, port, tos);
}

std::string SetCmTos(Toolset tools, const Roots& roots, const std::string& device,
                     const std::string& port, std::int64_t tos) {
  if (tools == Toolset::kMlnx)
    return "cma_roce_tos -d " + W(device) + " -p " + W(port) + " -t " + std::to_string(tos);
  return "mkdir -p " + CmDeviceDir(roots, device) + " && echo " + std::to_string(tos) + " > " +
         Under(roots.configfs, "/rdma_cm/" + device + "/ports/" + port + "/default_roce_tos");
}

std::string DcqcnParameterPath(const Roots& roots, const std::string& netdev,
                               const std::string& point, const std::string& name) {
  return Under(roots.sysfs, "/class/net/" + netdev + "/ecn/roce_" + point + "/" + name);
}

std::string CmDeviceDir(const Roots& roots, const std::string& device) {
  return Under(roots.configfs, "/rdma_cm/" + device);
}

}  // namespace rocewatch::lint::fix
