#pragma once

// The driver units, one line each (exporter/drivers/<name>/, docs/architecture.md
// "A new driver"). A driver not listed here is served raw.

#include "exporter/drivers/driver.h"

namespace rocewatch::drivers {

const Driver& Mlx5Driver();   // mlx5/tables.cpp: mlx5_core, mlx5_ib
const Driver& IceDriver();    // ice/tables.cpp: ice, irdma
const Driver& BnxtDriver();   // bnxt/tables.cpp: bnxt_en, bnxt_re
const Driver& IonicDriver();  // ionic/tables.cpp: ionic (and its RDMA driver)
const Driver& RxeDriver();    // rxe/tables.cpp: Soft-RoCE (rdma_rxe)

inline constexpr const Driver& (*kDriverUnits[])() = {
    &Mlx5Driver,
    &IceDriver,
    &BnxtDriver,
    &IonicDriver,
    &RxeDriver,
};

}  // namespace rocewatch::drivers
