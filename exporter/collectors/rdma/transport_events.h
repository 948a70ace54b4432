#pragma once

// roce_transport_events_total{device,port,event}: a port's RDMA transport and congestion hw
// counters by meaning (drivers/meaning.h TransportEvent), from the table of the driver the
// kernel reports for the device (exporter/drivers/). A counter served here is left out of the
// raw roce_hw_stat_total unless --collector.rdma.all-hw-counters (one series for one value: the
// per-NIC series budget). A driver with no table, or a counter its table does not map, serves
// no series here and keeps its raw series.

#include <vector>

#include "exporter/collectors/rdma/section.h"
#include "exporter/metrics/metric_sink.h"

namespace rocewatch::collectors {

const metrics::MetricSpec& TransportEventsSpec();
void RenderTransportEvents(const DeviceSnapshot& device, metrics::MetricSink& out);

// For each of the port's hw counters (by index), whether RenderTransportEvents serves it as an
// event: the first counter present of each event the table of the device's driver maps.
std::vector<bool> TransportEventCounters(const DeviceSnapshot& device, const PortSnapshot& port);

}  // namespace rocewatch::collectors
