#include "exporter/collectors/rdma/nldev_resources.h"

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <utility>

#include <map>

#include "exporter/drivers/driver.h"
#include "exporter/netlink/rdma_nldev.h"
#include "exporter/netlink/rdma_res_qp.h"
#include "rocewatch/strings.h"
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
    read.outcome = TransientNldevError(answer.error) ? NldevOutcome::kTransient : NldevOutcome::kAbsent;
    return read;
  }
  auto decoded = decode(answer.bytes);
  if (!decoded) {
    const int code = decoded.error().code;
    read.outcome = code == 0                   ? NldevOutcome::kMalformed
                   : TransientNldevError(code) ? NldevOutcome::kTransient
                                               : NldevOutcome::kAbsent;
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

bool TransientNldevError(int error) {
  switch (error) {
    case ETIMEDOUT:
    case EAGAIN:
    case EINTR:
    case EBUSY:
    case ENOBUFS:
    case ENOMEM:
      return true;
    default:
      return false;
  }
}

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

NldevRead ReadUverbsDriver(kernel::KernelAnswers& kernel, const std::string& device,
                           std::string& driver) {
  return Ask(
      kernel, kernel::call::RdmaUverbsChardev{device},
      [](const std::vector<std::uint8_t>& b) { return rdma_nl::DecodeUverbsChardevReply(b); },
      [](const rdma_nl::UverbsChardev&) { return true; },  // the answer names no device
      [&](rdma_nl::UverbsChardev c) {
        const drivers::Driver* unit = c.driver_id ? drivers::FindByUverbsDriverId(*c.driver_id) : nullptr;
        if (unit != nullptr && !unit->rdma_drivers.empty()) driver = std::string(unit->rdma_drivers.back());
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
                            PortSnapshot& port, BoundByPid* by_pid) {
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
        if (by_pid != nullptr) {
          for (const auto& c : all) {
            if (!c.pid) continue;
            auto& sums = (*by_pid)[*c.pid];
            for (const auto& h : c.counters)
              if (reads(h.name)) sums[h.name] += static_cast<double>(h.value);
          }
        }
        if (all.size() > kMaxBoundCountersServed) all.resize(kMaxBoundCountersServed);
        for (auto& c : all) {
          BoundCounterSnapshot b;
          b.id = c.id;
          b.mode = std::string(rdma_nl::CounterModeName(c.mode));
          if (c.qp_type) b.qp_type = QpTypeName(*c.qp_type);
          b.pid = c.pid;
          b.comm = std::move(c.kernel_owner);
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

namespace {

// A procfs file of `pid`, its last newline trimmed; empty where it cannot be read.
std::string ProcText(const fs::Tree& procfs, std::uint32_t pid, std::string_view file) {
  auto text = procfs.ReadText(std::to_string(pid) + "/" + std::string(file));
  return text ? std::string(Trim(*text)) : std::string();
}

}  // namespace

const ProcessIdentity& IdentityOf(const fs::Tree& proc, std::uint32_t pid,
                                  ProcessIdentities& known) {
  auto [id, fresh] = known.try_emplace(pid);
  if (fresh) {
    id->second.comm = ProcText(proc, pid, "comm");
    // One byte over: the renderer cuts it to kMaxCommBytes and marks the cut.
    if (id->second.comm.size() > kMaxCommBytes) id->second.comm.resize(kMaxCommBytes + 1);
    const std::string cgroup = ProcText(proc, pid, "cgroup");
    id->second.cgroup = CgroupPath(cgroup);
    id->second.workload = procfs::DecodeWorkload(cgroup);
  }
  return id->second;
}

NldevRead ReadQpOwners(kernel::KernelAnswers& kernel, const std::string& device,
                       std::vector<QpOwner>& out) {
  return Ask(
      kernel, kernel::call::RdmaResourceQps{device},
      [](const std::vector<std::uint8_t>& b) { return rdma_nl::DecodeResourceQpDump(b); },
      [&](const rdma_nl::ResourceQps& d) { return d.qps.empty() || d.device.name == device; },
      [&](rdma_nl::ResourceQps d) {
        std::map<std::uint32_t, std::size_t> by_pid;
        std::map<std::string, std::size_t> by_kernel;
        for (const auto& q : d.qps) {
          if (q.pid) {
            ++by_pid[*q.pid];
          } else if (!q.kernel_owner.empty()) {
            ++by_kernel[q.kernel_owner];
          }
        }
        for (const auto& [pid, n] : by_pid) out.push_back({pid, {}, n});
        for (const auto& [name, n] : by_kernel) out.push_back({std::nullopt, name, n});
      });
}

void TopProcesses(std::vector<QpOwner> owners, const fs::Tree& procfs, ProcessIdentities& known,
                  std::optional<std::size_t>& processes_total, std::vector<RdmaProcessQps>& out) {
  processes_total = owners.size();
  std::stable_sort(owners.begin(), owners.end(),
                   [](const QpOwner& a, const QpOwner& b) { return a.qps > b.qps; });
  if (owners.size() > kMaxProcessesServed) owners.resize(kMaxProcessesServed);
  for (auto& o : owners) {
    RdmaProcessQps p;
    p.qps = o.qps;
    if (o.pid) {
      p.pid = std::to_string(*o.pid);
      const ProcessIdentity& id = IdentityOf(procfs, *o.pid, known);
      p.comm = id.comm;
      p.cgroup = id.cgroup;
    } else {
      p.comm = std::move(o.kernel);
    }
    out.push_back(std::move(p));
  }
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
