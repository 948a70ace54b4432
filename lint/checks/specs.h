#pragma once

// The node checks' IDs, severities and titles (English and Chinese). One line
// per check; docs/checks.md documents each (a test keeps them in step).

#include "lint/checks/check.h"

namespace rocewatch::lint::checks {

using S = Severity;

inline const CheckSpec kExporterUnreachable{"inventory.exporter-unreachable", S::kCritical,
    "exporter not reachable", "无法获取节点指标（导出器不可达）"};
inline const CheckSpec kCollectorFailing{"inventory.collector-failing", S::kWarning,
    "an exporter collector is failing", "导出器的采集器失败"};
inline const CheckSpec kDeviceMissing{"inventory.device-missing", S::kCritical,
    "planned RDMA device missing", "规划的 RDMA 设备不存在"};
inline const CheckSpec kNetdevMismatch{"inventory.netdev-mismatch", S::kError,
    "RDMA device maps to another netdev than planned", "RDMA 设备对应的网口与规划不符"};
inline const CheckSpec kRoceIpMissing{"inventory.roce-ip-missing", S::kError,
    "planned RoCE IP not configured", "规划的 RoCE IP 未配置"};
inline const CheckSpec kUnplannedDevice{"inventory.unplanned-device", S::kWarning,
    "RDMA device present but not in the plan", "存在规划外的 RDMA 设备"};

inline const CheckSpec kPortDown{"link.port-down", S::kCritical,
    "port not ACTIVE / LinkUp", "端口未处于 ACTIVE / LinkUp"};
inline const CheckSpec kLinkRate{"link.rate", S::kError,
    "port rate differs from the profile", "端口速率与规划不符"};
inline const CheckSpec kNetdevMtu{"link.netdev-mtu", S::kError,
    "netdev MTU differs from the profile", "网口 MTU 与规划不符"};
inline const CheckSpec kRoceMtu{"link.roce-mtu", S::kError,
    "active RoCE MTU differs from the profile", "RoCE 活动 MTU 与规划不符"};
inline const CheckSpec kPcieDegraded{"link.pcie-degraded", S::kError,
    "PCIe link below its maximum speed or width", "PCIe 链路降速或降宽"};
inline const CheckSpec kPcieProfile{"link.pcie-profile", S::kError,
    "PCIe link differs from the profile", "PCIe 链路与规划不符"};

inline const CheckSpec kDcbUnsupported{"qos.dcb-unsupported", S::kCritical,
    "netdev has no DCB support but the profile needs PFC", "网口不支持 DCB，无法启用 PFC"};
inline const CheckSpec kTrust{"qos.trust", S::kCritical,
    "trust mode differs from the profile", "信任模式与规划不符"};
inline const CheckSpec kPfcPriorities{"qos.pfc-priorities", S::kCritical,
    "PFC enabled on other priorities than planned", "PFC 使能的优先级与规划不符"};
inline const CheckSpec kDscpPriority{"qos.dscp-priority", S::kError,
    "DSCP mapped to another priority than planned", "DSCP 到优先级的映射与规划不符"};
inline const CheckSpec kGlobalPause{"qos.global-pause", S::kWarning,
    "802.3x global pause enabled on a PFC netdev", "启用 PFC 的网口上开启了全局流控（802.3x）"};
inline const CheckSpec kCmRoceMode{"qos.cm-roce-mode", S::kError,
    "rdma_cm default RoCE mode is not RoCE v2", "rdma_cm 默认 RoCE 模式不是 v2"};
inline const CheckSpec kCmTos{"qos.cm-tos", S::kWarning,
    "rdma_cm default ToS does not carry the RoCE DSCP", "rdma_cm 默认 ToS 未携带规划的 RoCE DSCP"};

inline const CheckSpec kEcnNp{"ecn.np-priorities", S::kError,
    "ECN notification point enabled on other priorities than planned",
    "ECN 通知点（NP）使能的优先级与规划不符"};
inline const CheckSpec kEcnRp{"ecn.rp-priorities", S::kError,
    "ECN reaction point enabled on other priorities than planned",
    "ECN 反应点（RP）使能的优先级与规划不符"};
inline const CheckSpec kDcqcnParameter{"ecn.dcqcn-parameter", S::kWarning,
    "DCQCN parameter differs from the profile", "DCQCN 参数与规划不符"};

inline const CheckSpec kFirmware{"versions.firmware", S::kWarning,
    "firmware version not one the profile accepts", "固件版本与规划不符"};
inline const CheckSpec kDriver{"versions.driver", S::kWarning,
    "driver differs from the profile", "驱动与规划不符"};
inline const CheckSpec kDriverVersion{"versions.driver-version", S::kWarning,
    "driver version not one the profile accepts", "驱动版本与规划不符"};

inline const CheckSpec kModuleMissing{"optics.module-missing", S::kError,
    "no transceiver module in the cage", "光模块不在位"};
inline const CheckSpec kOpticsReadFailed{"optics.read-failed", S::kWarning,
    "transceiver EEPROM could not be read", "无法读取光模块 EEPROM"};
inline const CheckSpec kOpticsAlarm{"optics.alarm", S::kCritical,
    "transceiver reading beyond its alarm threshold", "光模块读数超出告警阈值"};
inline const CheckSpec kOpticsWarning{"optics.warning", S::kWarning,
    "transceiver reading beyond its warning threshold", "光模块读数超出预警阈值"};
inline const CheckSpec kOpticsProfileLimit{"optics.profile-limit", S::kWarning,
    "transceiver reading beyond the profile's limit", "光模块读数超出规划限值"};

inline const CheckSpec kPauseNonPfc{"counters.pause-on-non-pfc-priority", S::kError,
    "pause frames on a priority without PFC", "未启用 PFC 的优先级上出现 pause 帧"};
inline const CheckSpec kPauseStorm{"counters.pause-storm", S::kCritical,
    "PFC pause storm", "PFC pause 风暴"};
inline const CheckSpec kDiscards{"counters.discards", S::kWarning,
    "packets discarded", "出现丢包"};
inline const CheckSpec kTransportErrors{"counters.transport-errors", S::kWarning,
    "RoCE retransmissions or sequence errors", "RoCE 重传或乱序"};
inline const CheckSpec kLinkFlaps{"counters.link-flaps", S::kWarning,
    "link went down or carrier changed", "链路闪断"};

inline const CheckSpec kCablingSwitchPort{"cabling.switch-port", S::kError,
    "NIC cabled to another switch port than planned", "网卡连接的交换机端口与规划不符"};
inline const CheckSpec kCablingRailSwitch{"cabling.rail-switch", S::kError,
    "NIC lands on a switch of another rail", "网卡连接到了其他轨道（rail）的交换机"};
inline const CheckSpec kCablingRailDuplicate{"cabling.rail-duplicate", S::kError,
    "two NICs of one node land on the same rail", "同一节点的两块网卡连接到同一轨道（rail）"};
inline const CheckSpec kCablingNoNeighbor{"cabling.no-neighbor", S::kWarning,
    "link up but no LLDP neighbour", "链路已连通但没有 LLDP 邻居"};
inline const CheckSpec kCablingDuplicatePort{"cabling.duplicate-port", S::kError,
    "two NICs report the same switch port", "两块网卡报告同一个交换机端口"};

inline const CheckSpec kDrift{"drift.setting", S::kWarning,
    "setting differs from the NIC's profile peers", "配置与同规划的其他网卡不一致"};

}  // namespace rocewatch::lint::checks
