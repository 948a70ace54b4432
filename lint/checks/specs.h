#pragma once

// The registry of node checks: one registration line per check, carrying the function that runs
// it (lint/checks/<group>/<check>.cpp; its type gives the check's kind, lint/core/check_spec.h),
// its ID (its group is the part before the dot), severity, titles (English and Chinese) and why
// `roce-lint fix` cannot repair it (which checks `roce-lint fix --only-findings` repairs, and
// how, is lint/fix/repairs.h's table). Registration order is the order in which the checks run, of
// docs/checks.md and of the SARIF rules; docs/checks.md documents each check at the anchor
// CheckSpec::DocsUrl names (tests/lint/check_docs_test.cpp keeps them in step). Reports, fixes
// and the daemon name a check through these constants, never by its ID's text.

#include "lint/checks/cabling/group.h"
#include "lint/checks/check.h"
#include "lint/checks/counters/group.h"
#include "lint/checks/drift/group.h"
#include "lint/checks/ecn/group.h"
#include "lint/checks/gpudirect/group.h"
#include "lint/checks/inventory/group.h"
#include "lint/checks/link/group.h"
#include "lint/checks/optics/group.h"
#include "lint/checks/peer/group.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/versions/group.h"
#include "lint/core/setting_table.h"

namespace rocewatch::lint::checks {

using S = Severity;

// Why `roce-lint fix` leaves a finding to the operator, shared by a group's checks.
inline constexpr std::string_view kWhyInventory = "the device, its netdev or the exporter must be fixed first";
inline constexpr std::string_view kWhyVersions = "install the firmware or driver the profile accepts";
inline constexpr std::string_view kWhyOptics = "a transceiver or cable problem, not a setting";
inline constexpr std::string_view kWhyCounters = "a traffic symptom, not a setting";
inline constexpr std::string_view kWhyLink = "a link problem (cable, switch port, speed), not a setting";
inline constexpr std::string_view kWhyPcie = "a PCIe slot or riser problem, not a setting";
inline constexpr std::string_view kWhyNoDcb = "the netdev has no DCB support";
inline constexpr std::string_view kWhySwitch = "the other end is a switch port: roce-lint sets nothing on switches";

inline const CheckSpec& kExporterUnreachable = RegisterCheck(inventory::ExporterUnreachable, {"inventory.exporter-unreachable", S::kCritical,
    "exporter not reachable", "无法获取节点指标（导出器不可达）", kWhyInventory});
inline const CheckSpec& kCollectorFailing = RegisterCheck(inventory::CollectorFailing, {"inventory.collector-failing", S::kWarning,
    "an exporter collector is failing", "导出器的采集器失败", kWhyInventory});
inline const CheckSpec& kDeviceMissing = RegisterCheck(inventory::DeviceMissing, {"inventory.device-missing", S::kCritical,
    "planned RDMA device missing", "规划的 RDMA 设备不存在", kWhyInventory});
inline const CheckSpec& kNetdevMismatch = RegisterCheck(inventory::NetdevMismatch, {"inventory.netdev-mismatch", S::kError,
    "RDMA device maps to another netdev than planned", "RDMA 设备对应的网口与规划不符", kWhyInventory});
inline const CheckSpec& kRoceIpMissing = RegisterCheck(inventory::RoceIpMissing, {"inventory.roce-ip-missing", S::kError,
    "planned RoCE IP not configured", "规划的 RoCE IP 未配置", kWhyInventory});
inline const CheckSpec& kUnplannedDevice = RegisterCheck(inventory::UnplannedDevice, {"inventory.unplanned-device", S::kWarning,
    "RDMA device present but not in the plan", "存在规划外的 RDMA 设备", kWhyInventory});

inline const CheckSpec& kPortDown = RegisterCheck(link::PortDown, {"link.port-down", S::kCritical,
    "port not ACTIVE / LinkUp", "端口未处于 ACTIVE / LinkUp", kWhyLink});
inline const CheckSpec& kLinkRate = RegisterCheck(link::Rate, {"link.rate", S::kError,
    "port rate differs from the profile", "端口速率与规划不符", kWhyLink});
inline const CheckSpec& kNetdevMtu = RegisterCheck(link::NetdevMtu, {"link.netdev-mtu", S::kError,
    "netdev MTU differs from the profile", "网口 MTU 与规划不符", kWhyNoStep, "netdev_mtu"});
inline const CheckSpec& kRoceMtu = RegisterCheck(link::RoceMtu, {"link.roce-mtu", S::kError,
    "active RoCE MTU differs from the profile", "RoCE 活动 MTU 与规划不符", 
    "the profile states no netdev_mtu to set", "netdev_mtu"});
inline const CheckSpec& kPcieDegraded = RegisterCheck(link::PcieDegraded, {"link.pcie-degraded", S::kError,
    "PCIe link below its maximum speed or width", "PCIe 链路降速或降宽", kWhyPcie});
inline const CheckSpec& kPcieProfile = RegisterCheck(link::PcieProfile, {"link.pcie-profile", S::kError,
    "PCIe link differs from the profile", "PCIe 链路与规划不符", kWhyPcie});
inline const CheckSpec& kFecMode = RegisterCheck(link::FecMode, {"link.fec-mode", S::kError,
    "active FEC differs from the profile", "当前 FEC 模式与规划不符", kWhyLink});

inline const CheckSpec& kDcbUnsupported = RegisterCheck(qos::DcbUnsupported, {"qos.dcb-unsupported", S::kCritical,
    "netdev has no DCB support but the profile needs PFC", "网口不支持 DCB，无法启用 PFC", kWhyNoDcb});
inline const CheckSpec& kTrust = RegisterCheck(qos::Trust, {"qos.trust", S::kCritical,
    "trust mode differs from the profile", "信任模式与规划不符", kWhyNoStep, "trust"});
inline const CheckSpec& kPfcPriorities = RegisterCheck(qos::PfcPriorities, {"qos.pfc-priorities", S::kCritical,
    "PFC enabled on other priorities than planned", "PFC 使能的优先级与规划不符", kWhyNoStep, "pfc"});
inline const CheckSpec& kDscpPriority = RegisterCheck(qos::DscpPriority, {"qos.dscp-priority", S::kError,
    "DSCP mapped to another priority than planned", "DSCP 到优先级的映射与规划不符", kWhyNoStep, "dscp"});
inline const CheckSpec& kGlobalPause = RegisterCheck(qos::GlobalPause, {"qos.global-pause", S::kWarning,
    "802.3x global pause enabled on a PFC netdev", "启用 PFC 的网口上开启了全局流控（802.3x）", kWhyNoStep, "global_pause"});
inline const CheckSpec& kCmRoceMode = RegisterCheck(qos::CmRoceMode, {"qos.cm-roce-mode", S::kError,
    "rdma_cm default RoCE mode is not RoCE v2", "rdma_cm 默认 RoCE 模式不是 v2", kWhyNoStep, "cm.roce_mode"});
inline const CheckSpec& kCmTos = RegisterCheck(qos::CmTos, {"qos.cm-tos", S::kWarning,
    "rdma_cm default ToS does not carry the RoCE DSCP", "rdma_cm 默认 ToS 未携带规划的 RoCE DSCP", kWhyNoStep, "cm.tos"});

inline const CheckSpec& kEcnNp = RegisterCheck(ecn::NpPriorities, {"ecn.np-priorities", S::kError,
    "ECN notification point enabled on other priorities than planned",
    "ECN 通知点（NP）使能的优先级与规划不符", kWhyNoStep, "ecn.np"});
inline const CheckSpec& kEcnRp = RegisterCheck(ecn::RpPriorities, {"ecn.rp-priorities", S::kError,
    "ECN reaction point enabled on other priorities than planned",
    "ECN 反应点（RP）使能的优先级与规划不符", kWhyNoStep, "ecn.rp"});
inline const CheckSpec& kDcqcnParameter = RegisterCheck(ecn::Dcqcn, {"ecn.dcqcn-parameter", S::kWarning,
    "DCQCN parameter differs from the profile", "DCQCN 参数与规划不符", kWhyNoStep, "dcqcn"});

inline const CheckSpec& kFirmware = RegisterCheck(versions::Firmware, {"versions.firmware", S::kWarning,
    "firmware version not one the profile accepts", "固件版本与规划不符", kWhyVersions});
inline const CheckSpec& kDriver = RegisterCheck(versions::Driver, {"versions.driver", S::kWarning,
    "driver differs from the profile", "驱动与规划不符", kWhyVersions});
inline const CheckSpec& kDriverVersion = RegisterCheck(versions::DriverVersion, {"versions.driver-version", S::kWarning,
    "driver version not one the profile accepts", "驱动版本与规划不符", kWhyVersions});

inline const CheckSpec& kModuleMissing = RegisterCheck(optics::ModuleMissing, {"optics.module-missing", S::kError,
    "no transceiver module in the cage", "光模块不在位", kWhyOptics});
inline const CheckSpec& kOpticsReadFailed = RegisterCheck(optics::ReadFailed, {"optics.read-failed", S::kWarning,
    "transceiver EEPROM could not be read", "无法读取光模块 EEPROM", kWhyOptics});
inline const CheckSpec& kOpticsAlarm = RegisterCheck(optics::Alarm, {"optics.alarm", S::kCritical,
    "transceiver reading beyond its alarm threshold", "光模块读数超出告警阈值", kWhyOptics});
inline const CheckSpec& kOpticsWarning = RegisterCheck(optics::Warning, {"optics.warning", S::kWarning,
    "transceiver reading beyond its warning threshold", "光模块读数超出预警阈值", kWhyOptics});
inline const CheckSpec& kOpticsProfileLimit = RegisterCheck(optics::ProfileLimit, {"optics.profile-limit", S::kWarning,
    "transceiver reading beyond the profile's limit", "光模块读数超出规划限值", kWhyOptics});

inline const CheckSpec& kPauseNonPfc = RegisterCheck(counters::PauseOnNonPfcPriority, {"counters.pause-on-non-pfc-priority", S::kError,
    "pause frames on a priority without PFC", "未启用 PFC 的优先级上出现 pause 帧", kWhyCounters});
inline const CheckSpec& kPauseStorm = RegisterCheck(counters::PauseStorm, {"counters.pause-storm", S::kCritical,
    "PFC pause storm", "PFC pause 风暴", kWhyCounters});
inline const CheckSpec& kCnpStorm = RegisterCheck(counters::CnpStorm, {"counters.cnp-storm", S::kWarning,
    "congestion notifications (CNPs) for over 1% of the port's packets", "拥塞通知（CNP）超过端口报文的 1%",
    kWhyCounters});
inline const CheckSpec& kDiscards = RegisterCheck(counters::Discards, {"counters.discards", S::kWarning,
    "packets discarded", "出现丢包", kWhyCounters});
inline const CheckSpec& kTransportErrors = RegisterCheck(counters::TransportErrors, {"counters.transport-errors", S::kWarning,
    "RoCE retransmissions or sequence errors", "RoCE 重传或乱序", kWhyCounters});
inline const CheckSpec& kLinkFlaps = RegisterCheck(counters::LinkFlaps, {"counters.link-flaps", S::kWarning,
    "link went down or carrier changed", "链路闪断", kWhyCounters});
inline const CheckSpec& kFecUncorrectable = RegisterCheck(counters::FecUncorrectable, {"counters.fec-uncorrectable", S::kError,
    "uncorrectable FEC blocks rising", "出现 FEC 不可纠正块", kWhyCounters});
inline const CheckSpec& kFecBer = RegisterCheck(counters::FecBer, {"counters.fec-ber", S::kWarning,
    "pre-FEC bit error ratio above the profile", "FEC 前误码率超过规划上限", kWhyCounters});
inline const CheckSpec& kOptionalCountersDisabled = RegisterCheck(counters::OptionalDisabled, {"counters.optional-disabled", S::kWarning,
    "planned optional RDMA counters not enabled", "规划的 RDMA 可选计数器未启用",
    "the driver has no such optional counter: upgrade the driver or firmware, or drop it from the profile",
    "optional_counters"});

inline const CheckSpec& kDrift = RegisterCheck(drift::Setting, {"drift.setting", S::kWarning,
    "setting differs from the NIC's profile peers", "配置与同规划的其他网卡不一致", 
    "the script sets no such setting; align it by hand or state it in the profile", kSettingOfFinding});

inline const CheckSpec& kCablingSwitchPort = RegisterCheck(cabling::SwitchPort, {"cabling.switch-port", S::kError,
    "NIC cabled to another switch port than planned", "网卡连接的交换机端口与规划不符", kWhyNoStep});
inline const CheckSpec& kCablingRailSwitch = RegisterCheck(cabling::RailSwitch, {"cabling.rail-switch", S::kError,
    "NIC lands on a switch of another rail", "网卡连接到了其他轨道（rail）的交换机", kWhyNoStep});
inline const CheckSpec& kCablingRailDuplicate = RegisterCheck(cabling::RailDuplicate, {"cabling.rail-duplicate", S::kError,
    "two NICs of one node land on the same rail", "同一节点的两块网卡连接到同一轨道（rail）", kWhyNoStep});
inline const CheckSpec& kCablingNoNeighbor = RegisterCheck(cabling::NoNeighbor, {"cabling.no-neighbor", S::kWarning,
    "link up but no LLDP neighbour", "链路已连通但没有 LLDP 邻居", kWhyNoStep});
inline const CheckSpec& kCablingDuplicatePort = RegisterCheck(cabling::DuplicatePort, {"cabling.duplicate-port", S::kError,
    "two NICs report the same switch port", "两块网卡报告同一个交换机端口", kWhyNoStep});


inline const CheckSpec& kPeerRocePriorityPfc = RegisterCheck(peer::RocePriorityPfc, {"peer.roce-priority-pfc", S::kError,
    "switch port has no PFC on the RoCE priority", "交换机端口未在 RoCE 优先级上启用 PFC", kWhySwitch});
inline const CheckSpec& kPeerPfcPriorities = RegisterCheck(peer::PfcPriorities, {"peer.pfc-priorities", S::kWarning,
    "switch port enables PFC on other priorities than the NIC", "交换机端口与网卡启用 PFC 的优先级不一致", kWhySwitch});
inline const CheckSpec& kPeerAppPriority = RegisterCheck(peer::AppPriority, {"peer.app-priority", S::kWarning,
    "switch port maps RoCE traffic to another priority than the NIC", "交换机端口与网卡对 RoCE 流量的优先级映射不一致", kWhySwitch});
inline const CheckSpec& kPeerEcn = RegisterCheck(peer::Ecn, {"peer.ecn", S::kWarning,
    "switch queue of the RoCE priority does not mark ECN", "交换机 RoCE 优先级队列未启用 ECN 标记", kWhySwitch});
inline const CheckSpec& kPeerSwitchPauseNonPfc = RegisterCheck(peer::SwitchPauseNonPfc, {"peer.switch-pause-non-pfc", S::kError,
    "switch port sends pause frames on a priority the NIC has no PFC on", "交换机端口在网卡未启用 PFC 的优先级上发送 pause 帧", kWhySwitch});
inline const CheckSpec& kPeerPauseMismatch = RegisterCheck(peer::PauseMismatch, {"peer.pause-mismatch", S::kWarning,
    "the NIC's and the switch port's pause counts disagree", "网卡与交换机端口的 pause 帧计数不一致", kWhyCounters});

// gpudirect.*: the PCIe path between a NIC and its GPU (lint/checks/gpudirect).
inline constexpr std::string_view kWhyGpuDirect = "PCIe, kernel or module settings of the node, applied with its reboot plan";
inline constexpr std::string_view kWhyAer = "a PCIe hardware problem, not a setting";
inline const CheckSpec& kGpuDirectGpuDistance = RegisterCheck(gpudirect::GpuDistance, {"gpudirect.gpu-distance", S::kError,
    "NIC farther from its GPU than the profile allows", "网卡与其服务的 GPU 的距离超出规划", "move the NIC or the GPU, or plan the nearer GPU"});
inline const CheckSpec& kGpuDirectAcsRedirect = RegisterCheck(gpudirect::AcsRedirect, {"gpudirect.acs-redirect", S::kError,
    "ACS redirect on a bridge between a NIC and its GPU", "网卡与 GPU 之间的 PCIe 桥启用了 ACS 重定向", kWhyGpuDirect,
    setting::kAcsRedirect.name()});
inline const CheckSpec& kGpuDirectIommuTranslation = RegisterCheck(gpudirect::IommuTranslation, {"gpudirect.iommu-translation", S::kWarning,
    "IOMMU translates the NIC's DMA where the profile wants passthrough", "IOMMU 对网卡 DMA 做地址转换（规划要求直通）", kWhyGpuDirect});
inline const CheckSpec& kGpuDirectPeerMemory = RegisterCheck(gpudirect::PeerMemory, {"gpudirect.peer-memory", S::kError,
    "no GPU peer-memory module loaded", "未加载 GPU peer-memory 模块", kWhyGpuDirect});
inline const CheckSpec& kGpuDirectMaxReadRequest = RegisterCheck(gpudirect::MaxReadRequest, {"gpudirect.max-read-request", S::kWarning,
    "NIC's PCIe MaxReadReq below the profile", "网卡 PCIe MaxReadReq 低于规划", kWhyGpuDirect});
inline const CheckSpec& kGpuDirectAerErrors = RegisterCheck(gpudirect::AerErrors, {"gpudirect.aer-errors", S::kWarning,
    "PCIe AER errors rising on the NIC or its bridges", "网卡或其上游 PCIe 桥的 AER 错误在增加", kWhyAer});

}  // namespace rocewatch::lint::checks
