#pragma once

// Which tool or file sets a setting on a NIC, by the NIC's driver as the kernel reports it
// (roce_device_info's driver label: the RDMA device's bound driver, what ETHTOOL_GDRVINFO names;
// or the profile's `driver`). The generic kernel interfaces serve every driver: dcbnl through
// iproute2 `dcb` (PFC, APP), `ip link` (MTU), `ethtool -A` (pause), `rdma` (optional counters),
// configfs rdma_cm. ECN and DCQCN are each driver's own: mlx5's sysfs ecn/ files, bnxt_re's
// configfs cc/ group; other drivers expose none ("not exposed by this driver"). MLNX_OFED's
// tools (mlnx_qos, cma_roce_mode, cma_roce_tos) are for mlx5 only, never another driver's NIC.

#include <string_view>

namespace rocewatch::lint::fix {

enum class Driver {
  kUnknown,  // neither the metrics nor the profile say: mlx5's files, refused by the precheck elsewhere
  kMlx5,     // mlx5_core (ConnectX)
  kBnxt,     // bnxt_en with bnxt_re (Broadcom)
  kIce,      // ice with irdma (Intel E810)
  kIonic,    // ionic (AMD Pensando)
  kRxe,      // Soft-RoCE
};

// "mlx5_core" → kMlx5, "bnxt_en" → kBnxt, "ice" → kIce, "ionic" → kIonic, "rdma_rxe" → kRxe;
// "" and any other name → kUnknown.
Driver DriverOf(std::string_view name);

// Where ECN and DCQCN are set on a driver's NIC.
enum class EcnFiles {
  kMlx5Sysfs,  // /sys/class/net/<netdev>/ecn/roce_{np,rp}/: per-priority enable, every parameter
  kBnxtCc,     // configfs bnxt_re/<device>/ports/1/cc/: ecn_enable (all priorities), cnp_dscp, cnp_prio
  kNone,       // not exposed by this driver
};
EcnFiles EcnFilesOf(Driver driver);

// Whether MLNX_OFED's tools may drive this NIC (mlx5, or a driver nobody named).
bool TakesMlnxTools(Driver driver);

}  // namespace rocewatch::lint::fix
