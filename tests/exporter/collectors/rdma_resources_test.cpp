// What RDMA netlink tells about a device's resources, served by the rdma collector: the RES_GET
// summary per device (roce_rdma_resources), the QP-counter mode of each port and its bound
// counters (roce_rdma_qp_counter_mode, roce_rdma_bound_counter*), from answers built the way
// drivers/infiniband/core/nldev.c builds them (tests/exporter/netlink/rdma_reply.h). An absent answer
// (an older kernel's EOPNOTSUPP) serves nothing, is no failure and is not asked again; one
// that does not decode fails only its device; a recorded capture replays the same page.

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "common/fixture_collector.h"
#include "common/fixture_paths.h"
#include "common/test_dir.h"
#include "exporter/collectors/rdma/collector.h"
#include "exporter/collectors/rdma/nldev_resources.h"
#include "exporter/kernel/answers.h"
#include "exporter/metrics/text_renderer.h"
#include "exporter/netlink/rdma_nldev.h"
#include "exporter/netlink/kernel_skb.h"
#include "exporter/netlink/rdma_reply.h"

namespace rocewatch {
namespace {

using testing::FixtureCollectorConfig;
using testing::FixtureDir;
using testing::NldevBound;

// The kernel's NLMSG_ERROR answer to `request`.
std::vector<std::uint8_t> Refused(const std::vector<std::uint8_t>& request, int errno_value) {
  testing::KernelSkb skb;
  skb.Ack(request, errno_value);
  return skb.bytes();
}

// Answers the resource calls of the fixture's four devices (index = the digit of mlx5_N); the
// rest (STAT_GET and the files) as a node without RDMA netlink STAT_GET.
class ResourceKernel final : public kernel::KernelAnswers {
 public:
  std::map<std::string, std::vector<std::pair<std::string, std::uint64_t>>> summary;
  std::map<std::string, std::uint32_t> mode;               // absent: EOPNOTSUPP
  std::map<std::string, std::vector<NldevBound>> bound;
  std::map<std::string, std::vector<std::uint8_t>> raw;    // a device's summary bytes as given
  std::map<std::string, std::vector<testing::NldevQp>> qps;  // RES_QP_GET; absent: EOPNOTSUPP
  std::map<std::string, int> calls;                        // by capture key
  std::map<std::string, int> fail_once;  // by capture key: that errno once, as the socket gives it

  kernel::Answer Ask(const kernel::Request& r) override {
    const std::string key = kernel::KeyOf(r);
    ++calls[key];
    if (auto f = fail_once.find(key); f != fail_once.end()) {
      const int error = f->second;
      fail_once.erase(f);
      return {{}, error};
    }
    if (const auto* s = std::get_if<kernel::call::RdmaResourceSummary>(&r)) {
      if (raw.count(s->device)) return {raw[s->device], 0};
      auto it = summary.find(s->device);
      if (it == summary.end()) return {Refused(rdma_nl::BuildResourceSummaryRequest(Index(s->device), 3), EOPNOTSUPP), 0};
      return {testing::BuildResourceSummaryReply(Index(s->device), s->device, it->second), 0};
    }
    if (const auto* m = std::get_if<kernel::call::RdmaCounterMode>(&r)) {
      auto it = mode.find(m->device);
      if (it == mode.end()) return {Refused(rdma_nl::BuildCounterModeRequest(Index(m->device), m->port, 3), EOPNOTSUPP), 0};
      return {testing::BuildCounterModeReply(Index(m->device), m->device, m->port, it->second,
                                             it->second == RDMA_COUNTER_MODE_AUTO ? RDMA_COUNTER_MASK_PID : 0), 0};
    }
    if (const auto* q = std::get_if<kernel::call::RdmaResourceQps>(&r)) {
      auto it = qps.find(q->device);
      if (it == qps.end()) return {Refused(rdma_nl::BuildResourceQpDumpRequest(Index(q->device), 3), EOPNOTSUPP), 0};
      return {testing::BuildResourceQpDump(Index(q->device), q->device, it->second, 16), 0};
    }
    if (const auto* b = std::get_if<kernel::call::RdmaBoundCounters>(&r)) {
      return {testing::BuildBoundCountersDump(Index(b->device), b->device, bound[b->device], 8), 0};
    }
    return {{}, EPROTONOSUPPORT};
  }

  static std::uint32_t Index(const std::string& device) {
    return static_cast<std::uint32_t>(device.back() - '0');
  }
};

struct Page {
  NodeSnapshot snap;
  std::string text;
};

Page Collect(std::shared_ptr<kernel::KernelAnswers> kernel, int passes = 1,
             std::map<std::string, std::string> options = {}, const std::string& procfs = "") {
  PassConfig config = FixtureCollectorConfig(FixtureDir("mlx5-roce"), {"rdma"});
  // Never the host's /proc: a test's own tree, or none.
  config.procfs_root = procfs.empty() ? FixtureDir("mlx5-roce") + "/no-proc" : procfs;
  config.kernel = std::move(kernel);
  config.collector_options["rdma"] = std::move(options);
  auto pass = PassRunner::Create(config);
  EXPECT_TRUE(pass.ok()) << pass.error().message;
  Page page;
  for (int i = 0; i < passes; ++i) page.snap = (*pass)->Collect();
  metrics::TextRenderer out;
  collectors::RenderRdma(page.snap, out);
  page.text = std::move(out).Take();
  return page;
}

const SourceStatus& RdmaStatus(const NodeSnapshot& snap) {
  for (const auto& s : snap.sources)
    if (s.name == "rdma") return s;
  ADD_FAILURE() << "no rdma source status";
  return snap.sources.front();
}

bool Has(const std::string& text, const std::string& line) {
  return text.find(line + "\n") != std::string::npos;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::vector<std::pair<std::string, std::uint64_t>> kSummary = {
    {"pd", 3}, {"cq", 12}, {"qp", 9}, {"cm_id", 0}, {"mr", 44}, {"ctx", 2}, {"srq", 1}};

TEST(RdmaResources, OneSeriesPerTypeAndDevice) {
  auto k = std::make_shared<ResourceKernel>();
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) k->summary[d] = kSummary;
  k->summary["mlx5_2"][2].second = 8053;
  const Page page = Collect(k);
  EXPECT_TRUE(Has(page.text, "roce_rdma_resources{device=\"mlx5_0\",type=\"qp\"} 9"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_resources{device=\"mlx5_2\",type=\"qp\"} 8053"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_resources{device=\"mlx5_3\",type=\"mr\"} 44"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_resources{device=\"mlx5_1\",type=\"cm_id\"} 0"));
  EXPECT_EQ(Count(page.text, "roce_rdma_resources{"), 4u * 7u);
  EXPECT_TRUE(RdmaStatus(page.snap).success);
}

// An older kernel, or one without the command: nothing served, no failure, asked once until the
// inventory changes; the rest of the page is the same as without the calls.
TEST(RdmaResources, AbsentAnswersAreNotAskedAgain) {
  auto k = std::make_shared<ResourceKernel>();
  const Page page = Collect(k, /*passes=*/3);
  EXPECT_EQ(Count(page.text, "roce_rdma_"), 0u);
  EXPECT_TRUE(RdmaStatus(page.snap).success);
  // The fixture's one seeded counter that does not parse, each scrape; nothing more.
  const Page files = Collect(std::make_shared<ResourceKernel>(), 3, {{"netlink", "false"}});
  EXPECT_EQ(RdmaStatus(page.snap).parse_errors_total, RdmaStatus(files.snap).parse_errors_total);
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) {
    EXPECT_EQ(k->calls["rdma-netlink/" + std::string(d) + "/res_summary"], 1) << d;
    EXPECT_EQ(k->calls["rdma-netlink/" + std::string(d) + "/1/qp_mode"], 1) << d;
    EXPECT_EQ(k->calls["rdma-netlink/" + std::string(d) + "/1/qp_counters"], 0) << d;
  }
  const Page off = Collect(std::make_shared<ResourceKernel>(), 1, {{"netlink", "false"}});
  EXPECT_EQ(page.text, off.text);
}

// A dump that timed out (the socket's ETIMEDOUT; seen under load in the QEMU guest) or a busy
// kernel's EBUSY answer: nothing that scrape, asked again the next. Only an errno that says
// "not here" (EOPNOTSUPP) stops the asking.
TEST(RdmaResources, ATimeoutIsAskedAgainNextScrape) {
  auto k = std::make_shared<ResourceKernel>();
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) {
    k->summary[d] = kSummary;
    k->qps[d] = {{.lqpn = 7, .port = 1, .pid = 4242, .kern_name = {}}};
  }
  k->fail_once["rdma-netlink/mlx5_0/res_summary"] = ETIMEDOUT;
  k->fail_once["rdma-netlink/mlx5_1/res_qp"] = ETIMEDOUT;
  k->raw["mlx5_2"] = Refused(rdma_nl::BuildResourceSummaryRequest(2, 3), EBUSY);
  testing::TestDir proc;
  const Page first = Collect(k, 1, {{"per-process", "true"}}, proc.path());
  EXPECT_EQ(Count(first.text, "roce_rdma_resources{device=\"mlx5_0\""), 0u);
  EXPECT_EQ(Count(first.text, "roce_rdma_processes{device=\"mlx5_1\""), 0u);
  EXPECT_TRUE(RdmaStatus(first.snap).success);
  auto again = std::make_shared<ResourceKernel>(*k);
  again->calls.clear();
  again->fail_once["rdma-netlink/mlx5_0/res_summary"] = ETIMEDOUT;
  again->fail_once["rdma-netlink/mlx5_1/res_qp"] = ETIMEDOUT;
  const Page later = Collect(again, 3, {{"per-process", "true"}}, proc.path());
  EXPECT_EQ(Count(later.text, "roce_rdma_resources{device=\"mlx5_0\""), 7u);
  EXPECT_EQ(Count(later.text, "roce_rdma_processes{device=\"mlx5_1\""), 1u);
  EXPECT_EQ(again->calls["rdma-netlink/mlx5_0/res_summary"], 3);
  EXPECT_EQ(again->calls["rdma-netlink/mlx5_1/res_qp"], 3);
  // EBUSY from the kernel is asked again every scrape too; it never served here.
  EXPECT_EQ(again->calls["rdma-netlink/mlx5_2/res_summary"], 3);
  EXPECT_EQ(Count(later.text, "roce_rdma_resources{device=\"mlx5_2\""), 0u);
}

// A summary cut short, or about another device: that device serves no resources (counted as a
// parse error, asked again next scrape), the others do.
TEST(RdmaResources, AMalformedAnswerFailsOnlyItsDevice) {
  auto k = std::make_shared<ResourceKernel>();
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) k->summary[d] = kSummary;
  auto cut = testing::BuildResourceSummaryReply(1, "mlx5_1", kSummary);
  cut.resize(cut.size() - 10);
  k->raw["mlx5_1"] = cut;
  k->raw["mlx5_2"] = testing::BuildResourceSummaryReply(0, "mlx5_0", kSummary);
  const Page page = Collect(k, /*passes=*/2);
  EXPECT_EQ(Count(page.text, "roce_rdma_resources{device=\"mlx5_1\""), 0u);
  EXPECT_EQ(Count(page.text, "roce_rdma_resources{device=\"mlx5_2\""), 0u);
  EXPECT_EQ(Count(page.text, "roce_rdma_resources{device=\"mlx5_0\""), 7u);
  EXPECT_EQ(Count(page.text, "roce_rdma_resources{device=\"mlx5_3\""), 7u);
  EXPECT_TRUE(RdmaStatus(page.snap).success);
  // Two devices, two scrapes, beside the fixture's seeded counter that does not parse.
  const Page files = Collect(std::make_shared<ResourceKernel>(), 2, {{"netlink", "false"}});
  EXPECT_EQ(RdmaStatus(page.snap).parse_errors_total, RdmaStatus(files.snap).parse_errors_total + 4);
  EXPECT_EQ(k->calls["rdma-netlink/mlx5_1/res_summary"], 2);
  // The device's other series are untouched.
  EXPECT_TRUE(Has(page.text, "roce_port_state{device=\"mlx5_1\",port=\"1\"} 4"));
}

// The live kernel here has no RDMA netlink (no ib_core): every resource call fails, nothing is
// served, the scrape succeeds and no call is made again on the next scrapes.
TEST(RdmaResources, LiveKernelWithoutRdmaNetlink) {
  class Counting final : public kernel::KernelAnswers {
   public:
    std::unique_ptr<kernel::KernelAnswers> live = kernel::MakeLiveKernel();
    std::map<std::string, int> calls;
    std::map<std::string, int> errors;
    kernel::Answer Ask(const kernel::Request& r) override {
      kernel::Answer a = live->Ask(r);
      ++calls[kernel::KeyOf(r)];
      errors[kernel::KeyOf(r)] = a.error;
      return a;
    }
  };
  testing::TestDir proc;
  auto k = std::make_shared<Counting>();
  const Page page = Collect(k, 3, {{"per-process", "true"}}, proc.path());
  EXPECT_EQ(Count(page.text, "roce_rdma_"), 0u);
  EXPECT_TRUE(RdmaStatus(page.snap).success);
  for (const char* key : {"rdma-netlink/mlx5_0/res_summary", "rdma-netlink/mlx5_0/1/qp_mode",
                          "rdma-netlink/mlx5_0/res_qp"}) {
    EXPECT_EQ(k->calls[key], 1) << key;
    EXPECT_NE(k->errors[key], 0) << key;
  }
}

NldevBound Counter(std::uint32_t id, std::uint32_t pid, std::vector<std::uint32_t> qps) {
  return {.port = 1, .id = id, .mode = RDMA_COUNTER_MODE_AUTO, .qp_type = {}, .pid = pid,
          .qps = std::move(qps),
          .counters = {{"rx_write_requests", 100u * id}, {"out_of_sequence", id}, {"rx_atomic_requests", 7}},
          .kern_name = {}};
}

TEST(RdmaBoundCounters, ModeAndCountersPerPort) {
  auto k = std::make_shared<ResourceKernel>();
  k->mode = {{"mlx5_0", RDMA_COUNTER_MODE_AUTO}, {"mlx5_1", RDMA_COUNTER_MODE_NONE},
             {"mlx5_2", RDMA_COUNTER_MODE_MANUAL}};
  k->bound["mlx5_0"] = {Counter(4, 30818, {0x1b5, 0x1b6}), Counter(5, 30822, {0x1c0})};
  NldevBound manual = Counter(2, 0, {0x99});
  manual.mode = RDMA_COUNTER_MODE_MANUAL;
  manual.pid.reset();
  k->bound["mlx5_2"] = {manual};
  const Page page = Collect(k);
  const std::string p0 = "{device=\"mlx5_0\",port=\"1\"";
  EXPECT_TRUE(Has(page.text, "roce_rdma_qp_counter_mode" + p0 + ",mode=\"auto\"} 1"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_qp_counter_mode{device=\"mlx5_1\",port=\"1\",mode=\"none\"} 1"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_qp_counter_mode{device=\"mlx5_2\",port=\"1\",mode=\"manual\"} 1"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counters" + p0 + "} 2"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counters{device=\"mlx5_1\",port=\"1\"} 0"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counter_info" + p0 +
                                 ",counter_id=\"4\",mode=\"auto\",qp_type=\"\",pid=\"30818\",comm=\"\"} 1"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counter_qps" + p0 + ",counter_id=\"4\"} 2"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counter_qps" + p0 + ",counter_id=\"5\"} 1"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counter_stat_total" + p0 +
                                 ",counter_id=\"5\",counter=\"out_of_sequence\"} 5"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counter_info{device=\"mlx5_2\",port=\"1\",counter_id=\"2\","
                             "mode=\"manual\",qp_type=\"\",pid=\"\",comm=\"\"} 1"));
  // The same default trim as roce_hw_stat_total: mlx5's operation counts need all-hw-counters.
  EXPECT_EQ(Count(page.text, "counter=\"rx_write_requests\""), 0u);
  const Page all = Collect(k, 1, {{"all-hw-counters", "true"}});
  EXPECT_TRUE(Has(all.text, "roce_rdma_bound_counter_stat_total" + p0 +
                                ",counter_id=\"4\",counter=\"rx_write_requests\"} 400"));
  // A port in mode none has no bound counters: the dump is not asked.
  EXPECT_EQ(k->calls["rdma-netlink/mlx5_1/1/qp_counters"], 0);
  EXPECT_EQ(k->calls["rdma-netlink/mlx5_0/1/qp_counters"], 2);
}

// A bound-counter dump cut short, or holding another port's counter: that port serves its
// mode but no counters this scrape (a parse error), and the dump is asked again.
TEST(RdmaBoundCounters, AMalformedDumpFailsOnlyItsPort) {
  class Bad final : public kernel::KernelAnswers {
   public:
    std::shared_ptr<ResourceKernel> inner = std::make_shared<ResourceKernel>();
    kernel::Answer Ask(const kernel::Request& r) override {
      kernel::Answer a = inner->Ask(r);
      const auto* b = std::get_if<kernel::call::RdmaBoundCounters>(&r);
      if (b != nullptr && b->device == "mlx5_1") a.bytes.resize(a.bytes.size() - 20);
      if (b != nullptr && b->device == "mlx5_2") {
        NldevBound other = Counter(9, 1, {1});
        other.port = 2;
        a.bytes = testing::BuildBoundCountersDump(2, "mlx5_2", {other});
      }
      return a;
    }
  };
  auto k = std::make_shared<Bad>();
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2"}) {
    k->inner->mode[d] = RDMA_COUNTER_MODE_AUTO;
    k->inner->bound[d] = {Counter(4, 30818, {0x1b5})};
  }
  const Page page = Collect(k, 2);
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counters{device=\"mlx5_0\",port=\"1\"} 1"));
  for (const char* d : {"mlx5_1", "mlx5_2"}) {
    EXPECT_TRUE(Has(page.text, "roce_rdma_qp_counter_mode{device=\"" + std::string(d) + "\",port=\"1\",mode=\"auto\"} 1"));
    EXPECT_EQ(Count(page.text, "roce_rdma_bound_counter_info{device=\"" + std::string(d) + "\""), 0u) << d;
    EXPECT_EQ(Count(page.text, "roce_rdma_bound_counters{device=\"" + std::string(d) + "\""), 0u) << d;
    EXPECT_EQ(k->inner->calls["rdma-netlink/" + std::string(d) + "/1/qp_counters"], 2) << d;
  }
  EXPECT_TRUE(RdmaStatus(page.snap).success);
}

// /proc of two processes: one in a Kubernetes pod's cgroup (v2), one on a cgroup v1 host.
void WriteProc(const testing::TestDir& proc) {
  proc.Write("30818/comm", "python3\n");
  proc.Write("30818/cgroup", "0::/kubepods.slice/kubepods-pod7c1e.slice/cri-containerd-4f2a.scope\n");
  proc.Write("5120/comm", "ib_write_bw\n");
  proc.Write("5120/cgroup", "12:memory:/slurm/uid_1000/job_4711\n1:name=systemd:/system.slice/slurmd.service\n");
}

// The process a counter gathers, by name: the kernel's for a kernel user; a user process's is
// never read for it, with or without the per-process view (roce_rdma_process_qps names its pid),
// so turning the view on makes no new series of the counter.
TEST(RdmaBoundCounters, TheProcessName) {
  testing::TestDir proc;
  WriteProc(proc);
  auto k = std::make_shared<ResourceKernel>();
  k->mode = {{"mlx5_0", RDMA_COUNTER_MODE_AUTO}};
  NldevBound kernel_user = Counter(6, 0, {0x2});
  kernel_user.pid.reset();
  kernel_user.kern_name = "rdma_cm";
  k->bound["mlx5_0"] = {Counter(4, 30818, {0x1b5}), kernel_user};
  const std::string p0 = "roce_rdma_bound_counter_info{device=\"mlx5_0\",port=\"1\",counter_id=";
  const Page plain = Collect(k, 1, {}, proc.path());
  EXPECT_TRUE(Has(plain.text, p0 + "\"4\",mode=\"auto\",qp_type=\"\",pid=\"30818\",comm=\"\"} 1"));
  EXPECT_TRUE(Has(plain.text, p0 + "\"6\",mode=\"auto\",qp_type=\"\",pid=\"\",comm=\"rdma_cm\"} 1"));
  const Page named = Collect(k, 1, {{"per-process", "true"}}, proc.path());
  EXPECT_TRUE(Has(named.text, p0 + "\"4\",mode=\"auto\",qp_type=\"\",pid=\"30818\",comm=\"\"} 1"));
}

// At most kMaxBoundCountersServed counters a port get series (the lowest ids); how many there
// are is served whole.
TEST(RdmaBoundCounters, BoundedPerPort) {
  auto k = std::make_shared<ResourceKernel>();
  k->mode = {{"mlx5_0", RDMA_COUNTER_MODE_AUTO}};
  for (std::uint32_t id = 100; id > 60; --id) k->bound["mlx5_0"].push_back(Counter(id, 1000 + id, {id}));
  const Page page = Collect(k);
  EXPECT_TRUE(Has(page.text, "roce_rdma_bound_counters{device=\"mlx5_0\",port=\"1\"} 40"));
  EXPECT_EQ(Count(page.text, "roce_rdma_bound_counter_info{"), kMaxBoundCountersServed);
  EXPECT_NE(page.text.find("counter_id=\"61\""), std::string::npos);
  EXPECT_NE(page.text.find("counter_id=\"92\""), std::string::npos);
  EXPECT_EQ(page.text.find("counter_id=\"93\""), std::string::npos);
}

// `roce_exporter capture` keeps the raw answers (kernel/rdma-netlink/...), and a replay of them
// serves the same page.
TEST(RdmaResources, ReplayOfACaptureServesTheSamePage) {
  auto k = std::make_shared<ResourceKernel>();
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) k->summary[d] = kSummary;
  k->mode = {{"mlx5_0", RDMA_COUNTER_MODE_AUTO}, {"mlx5_3", RDMA_COUNTER_MODE_NONE}};
  k->bound["mlx5_0"] = {Counter(4, 30818, {0x1b5, 0x1b6})};
  testing::TestDir dir;
  const Page live = Collect(kernel::MakeRecordingKernel(k, dir.path()));
  const Page replayed = Collect(kernel::MakeReplayKernel(dir.path()));
  EXPECT_EQ(live.text, replayed.text);
  EXPECT_GT(Count(replayed.text, "roce_rdma_resources{"), 0u);
  EXPECT_GT(Count(replayed.text, "roce_rdma_bound_counter_stat_total{"), 0u);
}

std::vector<testing::NldevQp> JobQps() {
  std::vector<testing::NldevQp> qps;
  for (std::uint32_t i = 0; i < 3; ++i)
    qps.push_back({.lqpn = 0x100 + i, .port = 1, .pid = 30818, .kern_name = "", .type = 2, .state = 3});
  qps.push_back({.lqpn = 0x200, .port = 1, .pid = 5120, .kern_name = "", .type = 2, .state = 3});
  qps.push_back({.lqpn = 0x300, .port = {}, .pid = 9999, .kern_name = "", .type = 4, .state = 0});  // gone
  qps.push_back({.lqpn = 1, .port = 1, .pid = {}, .kern_name = "ib_core", .type = 1, .state = 3});
  return qps;
}

TEST(RdmaPerProcess, CgroupPathOfEachLayout) {
  using collectors::CgroupPath;
  EXPECT_EQ(CgroupPath("0::/user.slice/user-1000.slice/session-3.scope\n"),
            "/user.slice/user-1000.slice/session-3.scope");
  // Hybrid: the v2 line wins over the v1 ones.
  EXPECT_EQ(CgroupPath("12:memory:/a\n1:name=systemd:/b\n0::/c\n"), "/c");
  EXPECT_EQ(CgroupPath("4:cpu,cpuacct:/x\n1:name=systemd:/system.slice/slurmd.service\n"),
            "/system.slice/slurmd.service");
  EXPECT_EQ(CgroupPath(""), "");
  EXPECT_EQ(CgroupPath("garbage\n0:/nocolon\n0::relative\n"), "");
  EXPECT_EQ(CgroupPath("0::/" + std::string(5000, 'x') + "\n"), "");  // longer than PATH_MAX
}

TEST(RdmaPerProcess, OffByDefault) {
  auto k = std::make_shared<ResourceKernel>();
  k->qps["mlx5_0"] = JobQps();
  const Page page = Collect(k);
  EXPECT_EQ(Count(page.text, "roce_rdma_process"), 0u);
  EXPECT_EQ(k->calls["rdma-netlink/mlx5_0/res_qp"], 0);
}

TEST(RdmaPerProcess, QpsPerProcessWithItsCgroup) {
  testing::TestDir proc;
  WriteProc(proc);
  auto k = std::make_shared<ResourceKernel>();
  k->qps["mlx5_0"] = JobQps();
  k->qps["mlx5_1"] = {};  // a device without QPs
  const Page page = Collect(k, 2, {{"per-process", "true"}}, proc.path());
  EXPECT_TRUE(Has(page.text, "roce_rdma_process_qps{device=\"mlx5_0\",pid=\"30818\",comm=\"python3\","
                             "cgroup=\"/kubepods.slice/kubepods-pod7c1e.slice/cri-containerd-4f2a.scope\"} 3"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_process_qps{device=\"mlx5_0\",pid=\"5120\",comm=\"ib_write_bw\","
                             "cgroup=\"/system.slice/slurmd.service\"} 1"));
  // A process gone between the dump and the read of /proc: its QPs, no name.
  EXPECT_TRUE(Has(page.text, "roce_rdma_process_qps{device=\"mlx5_0\",pid=\"9999\",comm=\"\",cgroup=\"\"} 1"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_process_qps{device=\"mlx5_0\",pid=\"\",comm=\"ib_core\",cgroup=\"\"} 1"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_processes{device=\"mlx5_0\"} 4"));
  EXPECT_TRUE(Has(page.text, "roce_rdma_processes{device=\"mlx5_1\"} 0"));
  // Older kernels or a capture without the dump: nothing, asked once.
  EXPECT_EQ(Count(page.text, "roce_rdma_processes{device=\"mlx5_2\""), 0u);
  EXPECT_EQ(k->calls["rdma-netlink/mlx5_2/res_qp"], 1);
  EXPECT_EQ(k->calls["rdma-netlink/mlx5_0/res_qp"], 2);
  EXPECT_TRUE(RdmaStatus(page.snap).success);
}

// At most kMaxProcessesServed owners a device, those with the most QPs; all are counted.
TEST(RdmaPerProcess, BoundedPerDevice) {
  testing::TestDir proc;
  auto k = std::make_shared<ResourceKernel>();
  std::uint32_t qpn = 0x100;
  for (std::uint32_t pid = 1000; pid < 1080; ++pid) {
    const std::uint32_t n = pid == 1079 ? 5 : 1;  // the last one holds the most
    for (std::uint32_t i = 0; i < n; ++i)
      k->qps["mlx5_0"].push_back({.lqpn = qpn++, .port = 1, .pid = pid, .kern_name = "", .type = 2, .state = 3});
  }
  const Page page = Collect(k, 1, {{"per-process", "true"}}, proc.path());
  EXPECT_TRUE(Has(page.text, "roce_rdma_processes{device=\"mlx5_0\"} 80"));
  EXPECT_EQ(Count(page.text, "roce_rdma_process_qps{"), kMaxProcessesServed);
  EXPECT_TRUE(Has(page.text, "roce_rdma_process_qps{device=\"mlx5_0\",pid=\"1079\",comm=\"\",cgroup=\"\"} 5"));
  EXPECT_NE(page.text.find("pid=\"1062\""), std::string::npos);  // then by pid: 1000..1062
  EXPECT_EQ(page.text.find("pid=\"1063\""), std::string::npos);
}

// A dump cut short fails that device's per-process series only, and is asked again.
TEST(RdmaPerProcess, ATruncatedDumpFailsOnlyItsDevice) {
  testing::TestDir proc;
  WriteProc(proc);
  class Cut final : public kernel::KernelAnswers {
   public:
    std::shared_ptr<ResourceKernel> inner = std::make_shared<ResourceKernel>();
    kernel::Answer Ask(const kernel::Request& r) override {
      kernel::Answer a = inner->Ask(r);
      const auto* q = std::get_if<kernel::call::RdmaResourceQps>(&r);
      if (q != nullptr && q->device == "mlx5_1") a.bytes.resize(a.bytes.size() - 20);  // no NLMSG_DONE
      return a;
    }
  };
  auto k = std::make_shared<Cut>();
  k->inner->qps["mlx5_0"] = JobQps();
  k->inner->qps["mlx5_1"] = JobQps();
  const Page page = Collect(k, 2, {{"per-process", "true"}}, proc.path());
  EXPECT_TRUE(Has(page.text, "roce_rdma_processes{device=\"mlx5_0\"} 4"));
  EXPECT_EQ(Count(page.text, "roce_rdma_process_qps{device=\"mlx5_1\""), 0u);
  EXPECT_EQ(k->inner->calls["rdma-netlink/mlx5_1/res_qp"], 2);
  EXPECT_TRUE(RdmaStatus(page.snap).success);
}

TEST(RdmaPerProcess, ReplayOfACaptureServesTheSamePage) {
  testing::TestDir proc;
  WriteProc(proc);
  auto k = std::make_shared<ResourceKernel>();
  k->qps["mlx5_0"] = JobQps();
  testing::TestDir dir;
  const Page live = Collect(kernel::MakeRecordingKernel(k, dir.path()), 1, {{"per-process", "true"}}, proc.path());
  const Page replayed = Collect(kernel::MakeReplayKernel(dir.path()), 1, {{"per-process", "true"}}, proc.path());
  EXPECT_EQ(live.text, replayed.text);
  EXPECT_EQ(Count(replayed.text, "roce_rdma_process_qps{"), 4u);
}

// What the view costs: a scrape of the four devices with and without it, each device with
// 4,096 QPs of 64 processes (mlx5-roce's four NICs; the processes' /proc entries present).
TEST(RdmaPerProcess, Cost) {
  testing::TestDir proc;
  auto k = std::make_shared<ResourceKernel>();
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) {
    for (std::uint32_t i = 0; i < 4096; ++i)
      k->qps[d].push_back({.lqpn = 0x100 + i, .port = 1, .pid = 2000 + i % 64, .kern_name = "", .type = 2, .state = 3});
  }
  for (std::uint32_t pid = 2000; pid < 2064; ++pid) {
    proc.Write(std::to_string(pid) + "/comm", "python3\n");
    proc.Write(std::to_string(pid) + "/cgroup", "0::/kubepods.slice/pod" + std::to_string(pid) + "\n");
  }
  // The answers built once, as a kernel would hand them over: the test's building is not timed.
  class Canned final : public kernel::KernelAnswers {
   public:
    std::map<std::string, kernel::Answer> answers;
    kernel::Answer Ask(const kernel::Request& r) override {
      auto it = answers.find(kernel::KeyOf(r));
      return it == answers.end() ? kernel::Answer{{}, EPROTONOSUPPORT} : it->second;
    }
  };
  auto canned = std::make_shared<Canned>();
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) {
    const kernel::Request r = kernel::call::RdmaResourceQps{d};
    canned->answers[kernel::KeyOf(r)] = k->Ask(r);
  }
  std::printf("RES_QP_GET dump of 4096 QPs: %zu bytes\n",
              canned->answers["rdma-netlink/mlx5_0/res_qp"].bytes.size());
  auto seconds = [&](std::map<std::string, std::string> options) {
    PassConfig config = FixtureCollectorConfig(FixtureDir("mlx5-roce"), {"rdma"});
    config.kernel = canned;
    config.procfs_root = proc.path();
    config.collector_options["rdma"] = std::move(options);
    auto pass = PassRunner::Create(config);
    (*pass)->Collect();
    const auto start = std::chrono::steady_clock::now();
    constexpr int kScrapes = 20;
    NodeSnapshot snap;
    for (int i = 0; i < kScrapes; ++i) snap = (*pass)->Collect();
    EXPECT_EQ(snap.devices.size(), 4u);
    EXPECT_GT(snap.devices.at(0).ports.at(0).hw_counters.size(), 10u);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / kScrapes;
  };
  const double off = seconds({});
  const double on = seconds({{"per-process", "true"}});
  std::printf("rdma scrape, 4 devices x 4096 QPs of 64 processes: %.2f ms without, %.2f ms with "
              "--collector.rdma.per-process (decoding the dumps and reading /proc; the kernel's own "
              "time to build them not included)\n", off * 1e3, on * 1e3);
  EXPECT_GT(on, 0);
}

}  // namespace
}  // namespace rocewatch
