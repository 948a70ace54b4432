#pragma once

// roce_transport_events_total{device,port,event}: a port's RDMA transport and congestion hw
// counters by meaning (drivers/meaning.h TransportEvent), from the table of the driver the
// kernel reports for the device (exporter/drivers/), beside the raw roce_hw_stat_total. A
// driver with no table, or a counter its table does not map, serves no series here.

#include "exporter/collectors/rdma/section.h"
#include "exporter/metrics/metric_sink.h"

namespace rocewatch::collectors {

const metrics::MetricSpec& TransportEventsSpec();
void RenderTransportEvents(const DeviceSnapshot& device, metrics::MetricSink& out);

}  // namespace rocewatch::collectors
