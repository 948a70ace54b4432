#include "exporter/kernel/calls.h"

namespace rocewatch::kernel {

std::string KeyOf(const Request& request) {
  return std::visit([](const auto& c) { return c.Key(); }, request);
}

std::string_view AsksOf(const Request& request) {
  return std::visit([](const auto& c) { return c.kAsks; }, request);
}

}  // namespace rocewatch::kernel
