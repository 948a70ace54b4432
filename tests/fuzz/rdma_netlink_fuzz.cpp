// RDMA netlink (nldev) answers: STAT_GET (hw counters), STAT_GET_STATUS (optional counters),
// the QP-counter mode, the bound-counter dump, RES_GET summaries, the RES_QP_GET dump and the
// device dump. Every
// decoder reads every input.

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "exporter/netlink/rdma_nldev.h"
#include "exporter/netlink/rdma_res_qp.h"
#include "exporter/netlink/rdma_stat.h"
#include "fuzz_check.h"

namespace {

using namespace rocewatch;

void CheckName(const std::string& name) {
  FUZZ_CHECK(!name.empty() && name.size() <= 64);
  FUZZ_CHECK(name.find('/') == std::string::npos);
}

void CheckCounters(const std::vector<rdma_nl::HwCounter>& counters) {
  FUZZ_CHECK(counters.size() <= rdma_nl::kMaxHwCounters);
  std::set<std::string> names;
  for (const auto& c : counters) {
    CheckName(c.name);
    FUZZ_CHECK(names.insert(c.name).second);
  }
}

template <class R>
void CheckError(const R& result) {
  if (!result.ok()) {
    FUZZ_CHECK(result.error().code >= 0);
    FUZZ_CHECK(!result.error().message.empty());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = fuzz::Bytes(data, size);
  auto stats = rdma_nl::DecodeStatReply(bytes);
  CheckError(stats);
  if (stats) {
    CheckName(stats->device.name);
    FUZZ_CHECK(stats->port >= 1);
    CheckCounters(stats->counters);
  }
  auto status = rdma_nl::DecodeStatStatusReply(bytes);
  CheckError(status);
  if (status) {
    FUZZ_CHECK(status->port >= 1);
    FUZZ_CHECK(status->counters.size() <= rdma_nl::kMaxHwCounters);
    for (const auto& c : status->counters) CheckName(c.name);
  }
  auto mode = rdma_nl::DecodeCounterModeReply(bytes);
  CheckError(mode);
  if (mode) {
    FUZZ_CHECK(static_cast<std::uint32_t>(mode->mode) <= 2);
    FUZZ_CHECK(mode->mode == rdma_nl::CounterMode::kAuto || mode->auto_mask == 0);
  }
  auto bound = rdma_nl::DecodeBoundCountersDump(bytes);
  CheckError(bound);
  if (bound) {
    FUZZ_CHECK(bound->size() <= rdma_nl::kMaxHwCounters);
    for (const auto& b : *bound) {
      FUZZ_CHECK(b.port >= 1);
      FUZZ_CHECK(b.qps.size() <= rdma_nl::kMaxBoundQps);
      FUZZ_CHECK(!b.pid || b.kernel_owner.empty());
      if (!b.kernel_owner.empty()) CheckName(b.kernel_owner);
      CheckCounters(b.counters);
    }
  }
  auto summary = rdma_nl::DecodeResourceSummaryReply(bytes);
  CheckError(summary);
  if (summary) {
    std::set<std::string> names;
    for (const auto& r : summary->resources) {
      CheckName(r.name);
      FUZZ_CHECK(names.insert(r.name).second);
    }
  }
  auto qps = rdma_nl::DecodeResourceQpDump(bytes);
  CheckError(qps);
  if (qps) {
    FUZZ_CHECK(qps->qps.size() <= rdma_nl::kMaxResourceQps);
    for (const auto& q : qps->qps) {
      FUZZ_CHECK(!q.port || *q.port >= 1);
      FUZZ_CHECK(!q.pid || q.kernel_owner.empty());
      if (!q.kernel_owner.empty()) CheckName(q.kernel_owner);
    }
  }
  auto chardev = rdma_nl::DecodeUverbsChardevReply(bytes);
  CheckError(chardev);
  if (chardev) CheckName(chardev->name);
  auto devices = rdma_nl::DecodeDeviceDump(bytes);
  CheckError(devices);
  if (devices) {
    std::set<std::uint32_t> indexes;
    for (const auto& d : *devices) {
      CheckName(d.name);
      FUZZ_CHECK(indexes.insert(d.index).second);
    }
  }
  return 0;
}
