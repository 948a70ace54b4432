#include "lint/fix/drivers.h"

namespace rocewatch::lint::fix {

Driver DriverOf(std::string_view name) {
  if (name == "mlx5_core") return Driver::kMlx5;
  if (name == "bnxt_en" || name == "bnxt_re") return Driver::kBnxt;
  if (name == "ice" || name == "irdma") return Driver::kIce;
  if (name == "ionic" || name == "ionic_rdma") return Driver::kIonic;
  if (name == "rdma_rxe" || name == "rxe") return Driver::kRxe;
  return Driver::kUnknown;
}

EcnFiles EcnFilesOf(Driver driver) {
  switch (driver) {
    case Driver::kMlx5:
    case Driver::kUnknown: return EcnFiles::kMlx5Sysfs;
    case Driver::kBnxt: return EcnFiles::kBnxtCc;
    case Driver::kIce:
    case Driver::kIonic:
    case Driver::kRxe: return EcnFiles::kNone;
  }
  return EcnFiles::kNone;
}

bool TakesMlnxTools(Driver driver) { return driver == Driver::kMlx5 || driver == Driver::kUnknown; }

}  // namespace rocewatch::lint::fix
