#pragma once

// Every collector, one line each, in the order they run and render. A line
// here is the whole registration: the collector's snapshot section (in
// NodeSnapshot), its --[no-]collector.<name> flag and options, its
// success/duration series and its catalogue entries all follow from it
// (sources/registry.h). A new collector is a folder collectors/<name>/
// (section.h, source.{h,cpp}, metrics.cpp, collector.{h,cpp}) and one line here.

#include "collectors/dcb/collector.h"
#include "collectors/ecn/collector.h"
#include "collectors/ethtool/collector.h"
#include "collectors/ethtool_netlink/collector.h"
#include "collectors/fec/collector.h"
#include "collectors/lldp/collector.h"
#include "collectors/netdev/collector.h"
#include "collectors/optics/collector.h"
#include "collectors/pcie/collector.h"
#include "collectors/rdma/collector.h"
#include "collectors/rdma_cm/collector.h"
#include "collectors/verbs/collector.h"
#include "model/section.h"

namespace rocewatch::collectors {

// clang-format off
using All = CollectorList<
    Rdma,
    Netdev,
    Pcie,
    Ecn,
    RdmaCm,
    Ethtool,
    Dcb,
    EthtoolNetlink,
    Fec,
    Verbs,
    Optics,
    Lldp>;
// clang-format on

}  // namespace rocewatch::collectors
