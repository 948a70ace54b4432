#pragma once

// The commands that change a RoCE setting on a node, in one place: findings
// quote them as their fix, and `roce-lint fix` renders them into scripts.
// Upstream tools by default (iproute2 `dcb`, `ip`, `ethtool`, sysfs and
// configfs writes); the MLNX_OFED tools (`mlnx_qos`, `cma_roce_mode`,
// `cma_roce_tos`) where a site uses those.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rocewatch::lint::fix {

enum class Toolset { kUpstream, kMlnx };

// PFC on exactly `priorities`, off on the others.
std::string SetPfc(Toolset tools, const std::string& netdev, const std::vector<std::int64_t>& priorities);
// Trust DSCP with the given DSCP → priority entries (upstream: adding DSCP APP
// entries makes the device trust DSCP).
std::string SetTrustDscp(Toolset tools, const std::string& netdev,
                         const std::map<std::int64_t, std::int64_t>& dscp_priority);
std::string SetTrustPcp(Toolset tools, const std::string& netdev);
// One DSCP → priority entry.
std::string SetDscpPriority(Toolset tools, const std::string& netdev, std::int64_t dscp,
                            std::int64_t priority);
// ECN at the notification (np) or reaction (rp) point for one priority.
std::string SetEcn(const std::string& netdev, const std::string& point, std::int64_t priority, bool on);
std::string SetDcqcnParameter(const std::string& netdev, const std::string& point,
                              const std::string& name, std::int64_t value);
std::string SetMtu(const std::string& netdev, std::int64_t mtu);
std::string SetGlobalPauseOff(const std::string& netdev);
std::string SetCmRoceModeV2(Toolset tools, const std::string& device, const std::string& port);
std::string SetCmTos(Toolset tools, const std::string& device, const std::string& port, std::int64_t tos);

// The ToS byte that carries `dscp` with ECN-capable transport (DSCP << 2 | ECT(0)).
std::int64_t TosForDscp(std::int64_t dscp);

}  // namespace rocewatch::lint::fix
