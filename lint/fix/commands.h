#pragma once

// The commands that change a RoCE setting on a node, in one place: findings
// quote them as their fix, and `roce-lint fix` renders them into scripts.
// Upstream tools by default (iproute2 `dcb`, `ip`, `ethtool`, sysfs and
// configfs writes); the MLNX_OFED tools (`mlnx_qos`, `cma_roce_mode`,
// `cma_roce_tos`) where a site uses those.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch::lint::fix {

enum class Toolset { kUpstream, kMlnx };

// "upstream" or "mlnx" (the --tool values of `roce-lint fix`).
std::string_view ToolsetName(Toolset tools);

// Where the sysfs and configfs writes go. Findings quote the real roots; a script
// rendered by `roce-lint fix` uses shell variables ("$SYSFS", "$CONFIGFS") so that
// ROCEWATCH_SYSFS / ROCEWATCH_CONFIGFS can point it at a fixture tree. A root that
// starts with '$' makes the command quote the whole path ("$SYSFS/class/net/…").
struct Roots {
  std::string sysfs = "/sys";
  std::string configfs = "/sys/kernel/config";
};
const Roots& RealRoots();
const Roots& ScriptRoots();

// The value configfs default_roce_mode holds for RoCE v2.
inline constexpr std::string_view kCmRoceModeV2 = "RoCE v2";

// PFC on exactly `priorities`, off on the others.
std::string SetPfc(Toolset tools, const std::string& netdev,
                   const std::vector<std::int64_t>& priorities);
// Trust DSCP with the given DSCP → priority entries (upstream: adding DSCP APP
// entries makes the device trust DSCP).
std::string SetTrustDscp(Toolset tools, const std::string& netdev,
                         const std::map<std::int64_t, std::int64_t>& dscp_priority);
std::string SetTrustPcp(Toolset tools, const std::string& netdev);
// One DSCP → priority entry.
std::string SetDscpPriority(Toolset tools, const std::string& netdev, std::int64_t dscp,
                            std::int64_t priority);
// ECN at the notification (np) or reaction (rp) point for one priority.
std::string SetEcn(const std::string& netdev, const std::string& point, std::int64_t priority,
                   bool on);
std::string SetEcn(const Roots& roots, const std::string& netdev, const std::string& point,
                   std::int64_t priority, bool on);
// ECN at `point` on exactly `priorities`: the eight enable files, on for the planned
// priorities and off for the others, joined with " && ".
std::string SetEcnPriorities(const Roots& roots, const std::string& netdev,
                             const std::string& point, const std::vector<std::int64_t>& priorities);
std::string SetDcqcnParameter(const std::string& netdev, const std::string& point,
                              const std::string& name, std::int64_t value);
std::string SetDcqcnParameter(const Roots& roots, const std::string& netdev,
                              const std::string& point, const std::string& name,
                              std::int64_t value);
std::string SetMtu(const std::string& netdev, std::int64_t mtu);
std::string SetGlobalPauseOff(const std::string& netdev);
// iproute2's `rdma statistic set link DEV/PORT optional-counters A,B`: enables exactly `counters`
// (the optional counters not named are disabled). Lost at reboot.
std::string SetOptionalCounters(const std::string& device, const std::string& port,
                                const std::vector<std::string>& counters);
std::string SetCmRoceModeV2(Toolset tools, const std::string& device, const std::string& port);
std::string SetCmRoceModeV2(Toolset tools, const Roots& roots, const std::string& device,
                            const std::string& port);
std::string SetCmTos(Toolset tools, const std::string& device, const std::string& port,
                     std::int64_t tos);
std::string SetCmTos(Toolset tools, const Roots& roots, const std::string& device,
                     const std::string& port, std::int64_t tos);

// The files those commands write, under `roots` (quoted as above).
std::string DcqcnParameterPath(const Roots& roots, const std::string& netdev,
                               const std::string& point, const std::string& name);
std::string CmDeviceDir(const Roots& roots, const std::string& device);

}  // namespace rocewatch::lint::fix
