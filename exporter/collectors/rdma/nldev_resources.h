#pragma once

// What RDMA netlink tells about a device's resources, for the rdma collector: the RES_GET
// summary (`rdma resource show`), a port's QP-counter mode and its bound counters
// (`rdma statistic qp mode` / `qp show`). Each asks the kernel (kernel/calls.h) and decodes
// with netlink/rdma_nldev.h and rdma_stat.h.
//
// Every read says whether the kernel served it, had nothing to say (absent: an errno, a
// kernel's NLMSG_ERROR such as EOPNOTSUPP on an older kernel, a replay without the answer;
// the caller does not ask again until the inventory changes), did not answer this time
// (transient: a timeout or a busy kernel; asked again next scrape), or answered bytes that do
// not decode (malformed: that device or port serves nothing this scrape, the error is counted).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/collectors/rdma/section.h"
#include "exporter/fs/tree.h"
#include "exporter/kernel/answers.h"
#include "exporter/procfs/cgroup_workload.h"

namespace rocewatch::collectors {

// kTransient: the kernel did not answer in time or was busy (ETIMEDOUT, EAGAIN, EINTR, EBUSY,
// ENOBUFS, ENOMEM): nothing is served this scrape and the call is asked again the next one.
// Before, such an answer counted as absent: one RES_QP dump that timed out under load turned
// the per-process and per-job views off until the exporter restarted.
enum class NldevOutcome { kServed, kAbsent, kTransient, kMalformed };

// Whether errno `error` is one a later call may not meet (kTransient).
bool TransientNldevError(int error);

struct NldevRead {
  NldevOutcome outcome = NldevOutcome::kServed;
  std::string where;  // the call's capture key, for the error count and the log
  std::string error;  // kMalformed: what did not decode
};

// RES_GET of `device`: one count per resource type, in the kernel's order.
NldevRead ReadResourceSummary(kernel::KernelAnswers& kernel, const std::string& device,
                              std::vector<RdmaResourceCount>& out);

// The RDMA driver of a device whose sysfs names none (rxe, siw), by the uverbs driver id
// RDMA netlink answers (drivers/driver.h): its module name into `driver`, left as it is when
// the kernel answers no id or an id no driver unit carries.
NldevRead ReadUverbsDriver(kernel::KernelAnswers& kernel, const std::string& device,
                           std::string& driver);

// The port's QP-counter mode into port.qp_counter_mode.
NldevRead ReadQpCounterMode(kernel::KernelAnswers& kernel, const std::string& device,
                            PortSnapshot& port);

// The port's bound counters: how many (port.bound_counters_total) and the first
// kMaxBoundCountersServed by id, with the hw counters `reads` keeps, sorted by name.
// With `by_pid` (--collector.rdma.per-job), every counter bound in auto mode to a PID, not only
// the first kMaxBoundCountersServed, is added into by_pid[pid] (kept names, summed).
using BoundByPid = std::map<std::uint32_t, std::map<std::string, double>>;
NldevRead ReadBoundCounters(kernel::KernelAnswers& kernel, const std::string& device,
                            const std::function<bool(std::string_view)>& reads,
                            PortSnapshot& port, BoundByPid* by_pid = nullptr);

// A process's comm and cgroup path, read once a scrape however many devices it uses, and the
// workload its cgroup names (procfs/cgroup_workload.h). A comm is served at most kMaxCommBytes
// long (the kernel's is at most 15 bytes; a longer one is no kernel's), a cgroup path
// kMaxCgroupLabelBytes (metrics.cpp cuts them, metrics/label_value.h).
struct ProcessIdentity {
  std::string comm, cgroup;
  procfs::Workload workload;
};
inline constexpr std::size_t kMaxCommBytes = 64;
inline constexpr std::size_t kMaxCgroupLabelBytes = 512;
using ProcessIdentities = std::map<std::uint32_t, ProcessIdentity>;

// `pid`'s comm and cgroup from `procfs`, or from `known` where this scrape read them already.
const ProcessIdentity& IdentityOf(const fs::Tree& procfs, std::uint32_t pid,
                                  ProcessIdentities& known);

// An owner of QPs on a device: a process, or a kernel user by name.
struct QpOwner {
  std::optional<std::uint32_t> pid;
  std::string kernel;
  std::size_t qps = 0;
};

// The device's QP owners from the RES_QP_GET dump, by pid then kernel name (a QP whose task is
// gone has neither: left out).
NldevRead ReadQpOwners(kernel::KernelAnswers& kernel, const std::string& device,
                       std::vector<QpOwner>& out);

// Of `owners`, the kMaxProcessesServed with the most QPs (ties: by pid), each with its comm and
// cgroup; processes_total counts all.
void TopProcesses(std::vector<QpOwner> owners, const fs::Tree& procfs, ProcessIdentities& known,
                  std::optional<std::size_t>& processes_total, std::vector<RdmaProcessQps>& out);

// The cgroup path of a /proc/PID/cgroup text (procfs/cgroup_workload.h).
using procfs::CgroupPath;

// iproute2's name of an IB_QPT_* QP type ("RC", "UD" ...), the number for one it does not know.
std::string QpTypeName(std::uint8_t type);

}  // namespace rocewatch::collectors
