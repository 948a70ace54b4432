// /proc/PID/cgroup text (exporter/procfs/cgroup_workload.h): whatever the text, the workload it
// names is one of the layouts, each field of its fixed alphabet and bounded, so a label built
// from it is never longer than a unit name.

#include <cstddef>
#include <cstdint>
#include <string>

#include "exporter/procfs/cgroup_workload.h"
#include "fuzz_check.h"

namespace {

using rocewatch::procfs::Workload;
using rocewatch::procfs::WorkloadKind;

bool Hex(const std::string& s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-')) return false;
  return true;
}

bool Printable(const std::string& s) {
  for (char c : s)
    if (c <= ' ' || c >= 0x7f || c == '/' || c == '"') return false;
  return true;
}

void Check(const Workload& w) {
  FUZZ_CHECK(w.Job().size() <= rocewatch::procfs::kMaxUnitName);
  FUZZ_CHECK((w.kind == WorkloadKind::kNone) == w.Job().empty());
  FUZZ_CHECK(w.kind == WorkloadKind::kPod || (w.pod_uid.empty() && w.qos.empty() && w.container_id.empty()));
  FUZZ_CHECK(w.kind == WorkloadKind::kSlurmJob || (w.slurm_job.empty() && w.slurm_step.empty()));
  FUZZ_CHECK(w.kind == WorkloadKind::kUnit || w.unit.empty());
  FUZZ_CHECK(w.pod_uid.size() <= 36 && Hex(w.pod_uid));
  FUZZ_CHECK(w.container_id.size() <= rocewatch::procfs::kMaxContainerId && Hex(w.container_id));
  FUZZ_CHECK(w.qos.empty() || w.qos == "guaranteed" || w.qos == "burstable" || w.qos == "besteffort");
  FUZZ_CHECK(w.slurm_job.size() <= 32 && w.slurm_step.size() <= 32);
  FUZZ_CHECK(Printable(w.slurm_job) && Printable(w.slurm_step) && Printable(w.unit));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = rocewatch::fuzz::Text(data, size);
  Check(rocewatch::procfs::DecodeWorkload(text));
  Check(rocewatch::procfs::DecodeWorkloadPath(text));
  return 0;
}
