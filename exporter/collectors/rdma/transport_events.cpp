#include "exporter/collectors/rdma/transport_events.h"

#include <bitset>
#include <string>

#include "exporter/drivers/driver.h"

namespace rocewatch::collectors {
namespace {

const metrics::MetricSpec kTransportEvents{"roce_transport_events_total", metrics::MetricType::kCounter,
    "RDMA transport and congestion events of the port by meaning, whatever the driver names them: "
    "cnp_sent, cnp_handled, cnp_ignored, ecn_marked, out_of_sequence, duplicate_request, "
    "sequence_error_nak, local_ack_timeout, retransmits, retry_exceeded, rnr_nak_received, "
    "rnr_retry_exceeded, implied_nak_sequence_error (docs/metrics.md \"Drivers\" maps each "
    "driver's hw counters); an event the driver does not count has no series. roce_hw_stat_total "
    "serves the same counter under its raw name only with --collector.rdma.all-hw-counters.",
    {"device", "port", "event"}};

}  // namespace

const metrics::MetricSpec& TransportEventsSpec() { return kTransportEvents; }

std::vector<bool> TransportEventCounters(const DeviceSnapshot& device, const PortSnapshot& port) {
  std::vector<bool> served_counter(port.hw_counters.size(), false);
  const drivers::Driver* driver = drivers::FindByRdmaDriver(device.driver);
  if (driver == nullptr || driver->hw_counters.empty()) return served_counter;
  std::bitset<drivers::kTransportEventCount> served;  // one counter per event: the first
  for (std::size_t i = 0; i < port.hw_counters.size(); ++i) {
    drivers::TransportEvent event{};
    if (!port.hw_counters.has(i) || !drivers::FindTransportEvent(*driver, port.hw_counters.name(i), event)) continue;
    const auto bit = static_cast<std::size_t>(event);
    if (served.test(bit)) continue;
    served.set(bit);
    served_counter[i] = true;
  }
  return served_counter;
}

void RenderTransportEvents(const DeviceSnapshot& device, metrics::MetricSink& out) {
  const drivers::Driver* driver = drivers::FindByRdmaDriver(device.driver);
  if (driver == nullptr || driver->hw_counters.empty()) return;
  for (const PortSnapshot& p : device.ports) {
    const std::vector<bool> served = TransportEventCounters(device, p);
    const std::string port = std::to_string(p.number);
    for (std::size_t i = 0; i < served.size(); ++i) {
      drivers::TransportEvent event{};
      if (!served[i] || !drivers::FindTransportEvent(*driver, p.hw_counters.name(i), event)) continue;
      out.Add(kTransportEvents, {device.name, port, drivers::TransportEventName(event)}, p.hw_counters.values[i]);
    }
  }
}

}  // namespace rocewatch::collectors
