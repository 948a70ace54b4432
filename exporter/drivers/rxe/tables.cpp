// rxe (Soft-RoCE, rdma_rxe): RoCE in software over any Ethernet netdev.
//
// ethtool -S: none of its own (the netdev's driver answers).
// hw counters: drivers/infiniband/sw/rxe/rxe_hw_counters.c rxe_counter_name (kernels
// 4.16-6.x).

#include "exporter/drivers/all.h"

namespace rocewatch::drivers {
namespace {

using E = TransportEvent;

constexpr std::string_view kRdmaDrivers[] = {"rdma_rxe"};

constexpr HwCounterName kHwCounters[] = {
    {"duplicate_request", E::kDuplicateRequest},
    {"out_of_seq_request", E::kOutOfSequence},
    {"rcvd_seq_err", E::kSequenceErrorNak},
    {"completer_retry_err", E::kRetransmits},
    {"retry_exceeded_err", E::kRetryExceeded},
    {"rcvd_rnr_err", E::kRnrNakReceived},
    {"retry_rnr_exceeded_err", E::kRnrRetryExceeded},
};

constexpr std::string_view kQuirks[] = {
    "no ECN and no CNPs: congestion control is not implemented",
    "the RDMA device has no parent device, so sysfs names no driver for it: RDMA netlink's "
    "GET_CHARDEV uverbs answers its driver id (RDMA_DRIVER_RXE), as libibverbs binds it",
};

constexpr Driver kDriver{
    "rxe",
    {},
    kRdmaDrivers,
    14,  // RDMA_DRIVER_RXE
    "none (the lower netdev's driver prints ethtool -S)",
    "drivers/infiniband/sw/rxe/rxe_hw_counters.c (kernels 4.16-6.x)",
    {},
    {},
    {},
    {},
    kHwCounters,
    EcnSettings::kNotExposed,
    "not exposed by this driver: rxe implements no congestion control",
    kQuirks,
};

}  // namespace

const Driver& RxeDriver() { return kDriver; }

}  // namespace rocewatch::drivers
