#pragma once

// Every collector, one line each, in the order they run and render. A line
// here is the whole registration: the collector's snapshot section (in
// NodeSnapshot), its --[no-]collector.<name> flag and options, its
// success/duration series and its catalogue entries all follow from it
// (exporter/collectors/registry.h). A new collector is a folder collectors/<name>/
// (section.h, source.{h,cpp}, metrics.cpp, collector.{h,cpp}) and one line here.

#include "exporter/collectors/dcb/collector.h"
#include "exporter/collectors/ecn/collector.h"
#include "exporter/collectors/ethtool/collector.h"
#include "exporter/collectors/ethtool_netlink/collector.h"
#include "exporter/collectors/fec/collector.h"
#include "exporter/collectors/gpudirect/collector.h"
#include "exporter/collectors/lldp/collector.h"
#include "exporter/collectors/netdev/collector.h"
#include "exporter/collectors/optics/collector.h"
#include "exporter/collectors/pcie/collector.h"
#include "exporter/collectors/rdma/collector.h"
#include "exporter/collectors/rdma_cm/collector.h"
#include "exporter/collectors/verbs/collector.h"
#include "exporter/model/section.h"

namespace rocewatch::collectors {

// clang-format off
using All = CollectorList<
    Rdma,
    Netdev,
    Pcie,
    GpuDirect,
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
