#include <algorithm>
#include <array>

#include "exporter/drivers/all.h"

namespace rocewatch::drivers {
namespace {

const std::array<const Driver*, std::size(kDriverUnits)>& Units() {
  static const auto kUnits = [] {
    std::array<const Driver*, std::size(kDriverUnits)> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = &kDriverUnits[i]();
    return out;
  }();
  return kUnits;
}

bool Lists(std::span<const std::string_view> names, std::string_view name) {
  return !name.empty() && std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::span<const Driver* const> AllDrivers() { return Units(); }

const Driver* FindByNetdevDriver(std::string_view driver) {
  for (const Driver* d : Units())
    if (Lists(d->netdev_drivers, driver)) return d;
  return nullptr;
}

const Driver* FindByRdmaDriver(std::string_view driver) {
  for (const Driver* d : Units())
    if (Lists(d->rdma_drivers, driver)) return d;
  return nullptr;
}

const Driver* FindByUverbsDriverId(std::uint32_t id) {
  if (id == 0) return nullptr;
  for (const Driver* d : Units())
    if (d->uverbs_driver_id == id) return d;
  return nullptr;
}

bool FindTransportEvent(const Driver& driver, std::string_view counter, TransportEvent& event) {
  for (const HwCounterName& h : driver.hw_counters) {
    if (h.name == counter) {
      event = h.event;
      return true;
    }
  }
  return false;
}

}  // namespace rocewatch::drivers
