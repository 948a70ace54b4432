#include "exporter/collectors/rdma/nldev_resources.h"

#include <algorithm>
#include <utility>

#include "exporter/netlink/rdma_nldev.h"
#include "exporter/netlink/rdma_stat.h"

namespace rocewatch::collectors {
namespace {

// Asks `request` and decodes its answer with `decode`: absent where the call failed or the
// kernel answered an errno, malformed where the bytes do not decode or are about another
// device or port (`same` says).
template <class Decode, class Same, class Use>
NldevRead Ask(kernel::KernelAnswers& kernel, const kernel::Request& request, Decode decode,
              Same same, Use use) {
  NldevRead read;
  read.where = kernel::KeyOf(request);
  const kernel::Answer answer = kernel.Ask(request);
  if (!answer.ok()) {
    read.outcome = NldevOutcome::kAbsent;
    return read;
  }
  auto decoded = decode(answer.bytes);
  if (!decoded) {
    read.outcome = decoded.error().code != 0 ? NldevOutcome::kAbsent : NldevOutcome::kMalformed;
    read.error = decoded.error().message;
    return read;
  }
  if (!same(*decoded)) {
    read.outcome = NldevOutcome::kMalformed;
    read.error = "the answer is about another device or port";
    return read;
  }
  use(std::move(*decoded));
  return read;
}

}  // namespace

NldevRead ReadResourceSummary(kernel::KernelAnswers& kernel, const std::string& device,
                              std::vector<RdmaResourceCount>& out) {
  return Ask(
      kernel, kernel::call::RdmaResourceSummary{device},
      [](const std::vector<std::uint8_t>& b) { return rdma_nl::DecodeResourceSummaryReply(b); },
      [&](const rdma_nl::ResourceSummary& s) { return s.device.name == device; },
      [&](rdma_nl::ResourceSummary s) {
        for (auto& r : s.resources) {
          out.push_back({std::move(r.name), static_cast<double>(r.current)});
        }
      });
}

NldevRead ReadQpCounterMode(kernel::KernelAnswers& kernel, const std::string& device,
                            PortSnapshot& port) {
  return Ask(
      kernel, kernel::call::RdmaCounterMode{device, port.number},
      [](const std::vector<std::uint8_t>& b) { return rdma_nl::DecodeCounterModeReply(b); },
      [&](const rdma_nl::PortCounterMode& m) {
        return m.device.name == device && m.port == port.number;
      },
      [&](rdma_nl::PortCounterMode m) {
        port.qp_counter_mode = std::string(rdma_nl::CounterModeName(m.mode));
      });
}

NldevRead ReadBoundCounters(kernel::KernelAnswers& kernel, const std::string& device,
                            const std::function<bool(std::string_view)>& reads,
                            PortSnapshot& port) {
  return Ask(
      kernel, kernel::call::RdmaBoundCounters{device, port.number},
      [](const std::vector<std::uint8_t>& b) { return rdma_nl::DecodeBoundCountersDump(b); },
      [&](const std::vector<rdma_nl::BoundCounter>& all) {
        return std::all_of(all.begin(), all.end(), [&](const rdma_nl::BoundCounter& c) {
          return c.device.name == device && c.port == port.number;
        });
      },
      [&](std::vector<rdma_nl::BoundCounter> all) {
        std::sort(all.begin(), all.end(),
                  [](const auto& a, const auto& b) { return a.id < b.id; });
        port.bound_counters_total = all.size();
        if (all.size() > kMaxBoundCountersServed) all.resize(kMaxBoundCountersServed);
        for (auto& c : all) {
          BoundCounterSnapshot b;
          b.id = c.id;
          b.mode = std::string(rdma_nl::CounterModeName(c.mode));
          if (c.qp_type) b.qp_type = QpTypeName(*c.qp_type);
          b.pid = c.pid;
          b.qps = c.qps.size();
          std::vector<std::pair<std::string, double>> kept;
          for (auto& h : c.counters) {
            if (reads(h.name)) kept.emplace_back(std::move(h.name), static_cast<double>(h.value));
          }
          std::sort(kept.begin(), kept.end());
          auto names = std::make_shared<std::vector<std::string>>();
          for (auto& [name, value] : kept) {
            names->push_back(std::move(name));
            b.counters.values.push_back(value);
          }
          b.counters.names = std::move(names);
          port.bound_counters.push_back(std::move(b));
        }
      });
}

std::string QpTypeName(std::uint8_t type) {
  // enum ib_qp_type (include/rdma/ib_verbs.h), named as iproute2's rdma tool prints them.
  static constexpr std::string_view kNames[] = {"SMI",        "GSI",           "RC",
                                                "UC",         "UD",            "RAW_IPV6",
                                                "RAW_ETHERTYPE", "UNKNOWN",    "RAW_PACKET",
                                                "XRC_INI",    "XRC_TGT"};
  if (type < std::size(kNames)) return std::string(kNames[type]);
  if (type == 0xff) return "DRIVER";  // IB_QPT_DRIVER
  return std::to_string(type);
}

}  // namespace rocewatch::collectors
