// The per-job view (--collector.rdma.per-job, exporter/collectors/rdma/jobs.h): a device's QP
// owners (the RES_QP_GET dump) grouped by the pod, Slurm job or unit their cgroup names, with
// the QP counters the kernel bound to each process summed per job, under its series budget.
// The processes' /proc/PID/cgroup texts are real ones (tests/fixtures/real/cgroups); the
// kernel's answers are built the way drivers/infiniband/core/nldev.c builds them
// (tests/exporter/netlink/rdma_reply.h).

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <thread>

#include "common/fixture_collector.h"
#include "common/fixture_paths.h"
#include "common/test_dir.h"
#include "exporter/collectors/rdma/collector.h"
#include "exporter/collectors/rdma/pod_names.h"
#include "exporter/kernel/answers.h"
#include "exporter/metrics/text_renderer.h"
#include "exporter/netlink/rdma_reply.h"
#include "rocewatch/read_file.h"

namespace rocewatch {
namespace {

using testing::NldevBound;
using testing::NldevQp;

// Answers the QP dump, the QP-counter mode and the bound counters of the fixture's devices
// (index = the digit of mlx5_N), each built once; the rest as a kernel without them.
class JobKernel final : public kernel::KernelAnswers {
 public:
  std::map<std::string, kernel::Answer> answers;  // by capture key
  std::map<std::string, int> calls;

  void Qps(const std::string& dev, const std::vector<NldevQp>& qps) {
    answers[kernel::KeyOf(kernel::call::RdmaResourceQps{dev})] = {testing::BuildResourceQpDump(Index(dev), dev, qps, 16), 0};
  }
  void Mode(const std::string& dev, std::uint32_t mode, std::uint32_t mask) {
    answers[kernel::KeyOf(kernel::call::RdmaCounterMode{dev, 1})] = {
        testing::BuildCounterModeReply(Index(dev), dev, 1, mode, mask), 0};
  }
  void Bound(const std::string& dev, const std::vector<NldevBound>& bound) {
    answers[kernel::KeyOf(kernel::call::RdmaBoundCounters{dev, 1})] = {
        testing::BuildBoundCountersDump(Index(dev), dev, bound, 8), 0};
  }

  kernel::Answer Ask(const kernel::Request& r) override {
    const std::string key = kernel::KeyOf(r);
    ++calls[key];
    auto it = answers.find(key);
    return it == answers.end() ? kernel::Answer{{}, EOPNOTSUPP} : it->second;
  }

  static std::uint32_t Index(const std::string& device) {
    return static_cast<std::uint32_t>(device.back() - '0');
  }
};

// The rdma collector alone on the mlx5-roce fixture, with `kernel`'s answers and `procfs`.
std::unique_ptr<PassRunner> RdmaPass(std::shared_ptr<kernel::KernelAnswers> kernel, const std::string& procfs,
                                     std::map<std::string, std::string> options) {
  PassConfig config = testing::FixtureCollectorConfig(testing::FixtureDir("mlx5-roce"), {"rdma"});
  config.procfs_root = procfs;
  config.kernel = std::move(kernel);
  config.collector_options["rdma"] = std::move(options);
  auto pass = PassRunner::Create(config);
  EXPECT_TRUE(pass.ok()) << pass.error().message;
  return pass.ok() ? std::move(*pass) : nullptr;
}

std::string Render(const NodeSnapshot& snap) {
  metrics::TextRenderer out;
  collectors::RenderRdma(snap, out);
  return std::move(out).Take();
}

std::string Page(std::shared_ptr<kernel::KernelAnswers> kernel, const std::string& procfs,
                 std::map<std::string, std::string> options, int passes = 1) {
  auto pass = RdmaPass(std::move(kernel), procfs, std::move(options));
  NodeSnapshot snap;
  for (int i = 0; i < passes; ++i) snap = pass->Collect();
  return Render(snap);
}

bool Has(const std::string& text, const std::string& line) {
  return text.find(line + "\n") != std::string::npos;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::size_t Samples(const std::string& text) {
  std::size_t n = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    if (text[at] != '#') ++n;
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return n;
}

std::string RealCgroup(const std::string& name) {
  auto text = ReadFileCapped(testing::FixtureDir("real/cgroups") + "/" + name, 1 << 16);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : std::string();
}

std::vector<NldevQp> QpsOf(std::uint32_t pid, std::uint32_t n, std::uint32_t& lqpn) {
  std::vector<NldevQp> qps;
  for (std::uint32_t i = 0; i < n; ++i) qps.push_back({.lqpn = lqpn++, .port = 1, .pid = pid, .kern_name = "", .type = 2, .state = 3});
  return qps;
}

NldevBound BoundTo(std::uint32_t id, std::uint32_t pid, std::uint64_t out_of_sequence) {
  return {.port = 1, .id = id, .mode = RDMA_COUNTER_MODE_AUTO, .qp_type = {}, .pid = pid, .qps = {id},
          .counters = {{"out_of_sequence", out_of_sequence}, {"rx_write_requests", 1000}, {"rp_cnp_handled", 2 * id}},
          .kern_name = {}};
}

const std::string kPod = "a5c1f8d5-1919-434d-add7-4afaafdaef89";  // k8s-systemd-crio-v1-runc4620.txt

// Two processes of one pod (CRI-O, systemd driver), a Slurm step, a process in no workload and
// the kernel's GSI QP; counters bound per PID in auto mode.
struct Node {
  testing::TestDir proc;
  std::shared_ptr<JobKernel> k = std::make_shared<JobKernel>();

  Node() {
    const std::string pod = RealCgroup("k8s-systemd-crio-v1-runc4620.txt");
    for (const char* pid : {"100", "101"}) {
      proc.Write(std::string(pid) + "/comm", "python3\n");
      proc.Write(std::string(pid) + "/cgroup", pod);
    }
    proc.Write("200/comm", "ib_write_bw\n");
    proc.Write("200/cgroup", RealCgroup("slurm-v2-fox-sonar.txt"));
    proc.Write("300/comm", "kubelet\n");
    proc.Write("300/cgroup", RealCgroup("host-v1-system-slice-kontena440.txt"));
    std::uint32_t lqpn = 0x100;
    std::vector<NldevQp> qps;
    for (auto [pid, n] : {std::pair{100u, 3u}, std::pair{101u, 2u}, std::pair{200u, 4u}, std::pair{300u, 1u}}) {
      auto more = QpsOf(pid, n, lqpn);
      qps.insert(qps.end(), more.begin(), more.end());
    }
    qps.push_back({.lqpn = 1, .port = 1, .pid = {}, .kern_name = "ib_core", .type = 1, .state = 3});
    k->Qps("mlx5_0", qps);
    k->Mode("mlx5_0", RDMA_COUNTER_MODE_AUTO, RDMA_COUNTER_MASK_PID);
    k->Bound("mlx5_0", {BoundTo(1, 100, 4), BoundTo(2, 101, 5), BoundTo(3, 200, 7)});
  }
};

TEST(RdmaPerJob, QpsAndBoundCountersPerJob) {
  Node node;
  const std::string page = Page(node.k, node.proc.path(), {{"per-job", "true"}});
  const std::string d = "{device=\"mlx5_0\"";
  const std::string pod = d + ",kind=\"pod\",workload=\"" + kPod + "\"";
  const std::string slurm = d + ",kind=\"slurm\",workload=\"1392969\"";
  EXPECT_TRUE(Has(page, "roce_rdma_job_qps" + pod + ",qos=\"burstable\"} 5")) << page;
  EXPECT_TRUE(Has(page, "roce_rdma_job_processes" + pod + "} 2"));
  EXPECT_TRUE(Has(page, "roce_rdma_job_qps" + slurm + ",qos=\"\"} 4"));
  EXPECT_TRUE(Has(page, "roce_rdma_job_qps" + d + ",kind=\"other\",workload=\"\",qos=\"\"} 1"));
  EXPECT_TRUE(Has(page, "roce_rdma_job_qps" + d + ",kind=\"kernel\",workload=\"ib_core\",qos=\"\"} 1"));
  EXPECT_TRUE(Has(page, "roce_rdma_jobs" + d + "} 4"));
  EXPECT_TRUE(Has(page, "roce_rdma_jobs_folded" + d + "} 0"));
  EXPECT_TRUE(Has(page, "roce_rdma_job_counters_bound" + d + "} 1"));
  // The pod's two processes' counters summed; the Slurm step's its own.
  EXPECT_TRUE(Has(page, "roce_rdma_job_stat_total" + pod + ",counter=\"out_of_sequence\"} 9"));
  EXPECT_TRUE(Has(page, "roce_rdma_job_stat_total" + pod + ",counter=\"rp_cnp_handled\"} 6"));
  EXPECT_TRUE(Has(page, "roce_rdma_job_stat_total" + slurm + ",counter=\"out_of_sequence\"} 7"));
  // The default trim of roce_hw_stat_total holds here too (mlx5's operation counts).
  EXPECT_EQ(Count(page, "counter=\"rx_write_requests\""), 0u);
  // No counters for processes the kernel bound none to.
  EXPECT_EQ(Count(page, "roce_rdma_job_stat_total{device=\"mlx5_0\",kind=\"other\""), 0u);
  // The per-process series are their own flag's.
  EXPECT_EQ(Count(page, "roce_rdma_process_qps{"), 0u);
  // A device without the dump: nothing, and no failure.
  EXPECT_EQ(Count(page, "roce_rdma_jobs{device=\"mlx5_1\""), 0u);
  EXPECT_EQ(node.k->calls["rdma-netlink/mlx5_1/res_qp"], 1);
}

TEST(RdmaPerJob, OffByDefaultAndBothViewsTogether) {
  Node node;
  EXPECT_EQ(Count(Page(node.k, node.proc.path(), {}), "roce_rdma_job"), 0u);
  EXPECT_EQ(node.k->calls["rdma-netlink/mlx5_0/res_qp"], 0);
  const std::string both = Page(node.k, node.proc.path(), {{"per-job", "true"}, {"per-process", "true"}});
  EXPECT_TRUE(Has(both, "roce_rdma_processes{device=\"mlx5_0\"} 5"));
  EXPECT_TRUE(Has(both, "roce_rdma_jobs{device=\"mlx5_0\"} 4"));
  EXPECT_EQ(node.k->calls["rdma-netlink/mlx5_0/res_qp"], 1);  // one dump for both views
}

// Where the kernel binds no counter per process (mode none, as on rxe, or a kernel that does not
// tell the mode), the view says so once a device and serves the QPs.
TEST(RdmaPerJob, WithoutBoundCountersTheQpsAlone) {
  Node node;
  node.k->Mode("mlx5_0", RDMA_COUNTER_MODE_NONE, 0);
  std::string page = Page(node.k, node.proc.path(), {{"per-job", "true"}});
  EXPECT_TRUE(Has(page, "roce_rdma_job_counters_bound{device=\"mlx5_0\"} 0"));
  EXPECT_TRUE(Has(page, "roce_rdma_job_qps{device=\"mlx5_0\",kind=\"pod\",workload=\"" + kPod + "\",qos=\"burstable\"} 5"));
  EXPECT_EQ(Count(page, "roce_rdma_job_stat_total{"), 0u) << page.substr(page.find("roce_rdma_job"));
  node.k->answers.erase(kernel::KeyOf(kernel::call::RdmaCounterMode{"mlx5_0", 1}));
  page = Page(node.k, node.proc.path(), {{"per-job", "true"}});
  EXPECT_TRUE(Has(page, "roce_rdma_job_counters_bound{device=\"mlx5_0\"} 0"));
  EXPECT_TRUE(Has(page, "roce_rdma_jobs{device=\"mlx5_0\"} 4"));
}

TEST(RdmaPerJob, ReplayOfACaptureServesTheSamePage) {
  Node node;
  testing::TestDir dir;
  const std::map<std::string, std::string> on = {{"per-job", "true"}};
  const std::string live = Page(kernel::MakeRecordingKernel(node.k, dir.path()), node.proc.path(), on);
  const std::string replayed = Page(kernel::MakeReplayKernel(dir.path()), node.proc.path(), on);
  EXPECT_EQ(live, replayed);
  EXPECT_GT(Count(replayed, "roce_rdma_job_stat_total{"), 0u);
}

// Names from processes are outside input: a comm and a cgroup path of a megabyte with terminal
// controls, a unit name of 255 bytes, 64 such processes. Each label is cut and cleaned, so the
// page stays small (issue 38: 64 owners with a 1 MiB comm made a 116 MB page).
TEST(RdmaPerJob, HostileCommAndCgroupAreBounded) {
  testing::TestDir proc;
  auto k = std::make_shared<JobKernel>();
  std::uint32_t lqpn = 0x100;
  std::vector<NldevQp> qps;
  const std::string huge_comm = "\x1b]0;owned\x07" + std::string((1 << 20) - 100, 'c');  // under ReadText's 1 MiB
  for (std::uint32_t pid = 1000; pid < 1064; ++pid) {
    proc.Write(std::to_string(pid) + "/comm", huge_comm);
    const std::string unit = std::to_string(pid) + std::string(240, 'u') + ".service";  // 248 bytes, valid
    const std::string path = pid % 2 == 0 ? "/system.slice/" + unit
                                          : "/" + std::string(1 << 20, 'x') + "\x1b[2J.service";
    proc.Write(std::to_string(pid) + "/cgroup", "0::" + path + "\n");
    auto more = QpsOf(pid, 1, lqpn);
    qps.insert(qps.end(), more.begin(), more.end());
  }
  k->Qps("mlx5_0", qps);
  const std::string page = Page(k, proc.path(), {{"per-job", "true"}, {"per-process", "true"}});
  std::printf("64 processes with a 1 MiB comm and cgroup: rdma page of %zu bytes\n", page.size());
  EXPECT_LT(page.size(), 256u * 1024);
  EXPECT_EQ(page.find('\x1b'), std::string::npos);
  EXPECT_EQ(page.find('\x07'), std::string::npos);
  EXPECT_TRUE(Has(page, "roce_rdma_processes{device=\"mlx5_0\"} 64"));
  // A 1 MiB path is no cgroup path (longer than PATH_MAX): served empty, its process in no job.
  EXPECT_NE(page.find("comm=\"\xEF\xBF\xBD]0;owned\xEF\xBF\xBD" + std::string(50, 'c') + "\xE2\x80\xA6\",cgroup=\"\"}"),
            std::string::npos);
  EXPECT_TRUE(Has(page, "roce_rdma_jobs{device=\"mlx5_0\"} 33"));  // 32 units and "other"
  EXPECT_TRUE(Has(page, "roce_rdma_job_qps{device=\"mlx5_0\",kind=\"other\",workload=\"\",qos=\"\"} 32"));
  EXPECT_TRUE(Has(page, "roce_rdma_jobs_folded{device=\"mlx5_0\"} 17"));
}

// The budget with 1,000 processes on each of the four devices, each process its own job (half
// pods, half Slurm jobs, from the real layouts), with a counter bound to each: the page holds
// 16 jobs and one folded entry a device whatever the count. A benchmark: it prints the series
// and the time of a scrape, and asserts only the budget.
TEST(RdmaPerJob, BudgetWithAThousandProcesses) {
  testing::TestDir proc;
  auto k = std::make_shared<JobKernel>();
  const char* devices[] = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"};
  constexpr std::uint32_t kProcesses = 1000;
  std::map<std::string, std::vector<NldevQp>> qps;
  std::map<std::string, std::vector<NldevBound>> bound;
  std::uint32_t lqpn = 0x100;
  std::size_t all_qps = 0;
  for (std::uint32_t i = 0; i < kProcesses; ++i) {
    const std::uint32_t pid = 10000 + i;
    char uid[40];
    std::snprintf(uid, sizeof uid, "%08x_1919_434d_add7_4afaafdaef89", i);
    const std::string cgroup =
        i % 2 == 0 ? "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + std::string(uid) +
                         ".slice/cri-containerd-" + std::string(64, 'a') + ".scope\n"
                   : "0::/system.slice/slurmstepd.scope/job_" + std::to_string(500000 + i) + "/step_0/user/task_0\n";
    proc.Write(std::to_string(pid) + "/comm", "python3\n");
    proc.Write(std::to_string(pid) + "/cgroup", cgroup);
    const std::uint32_t n = 1 + i % 7;
    all_qps += n;
    for (const char* d : devices) {
      auto more = QpsOf(pid, n, lqpn);
      qps[d].insert(qps[d].end(), more.begin(), more.end());
      bound[d].push_back(BoundTo(i + 1, pid, i));
    }
  }
  for (const char* d : devices) {
    k->Qps(d, qps[d]);
    k->Mode(d, RDMA_COUNTER_MODE_AUTO, RDMA_COUNTER_MASK_PID);
    k->Bound(d, bound[d]);
  }
  std::printf("RES_QP_GET dump of %zu QPs: %zu bytes; bound-counter dump of %u counters: %zu bytes\n", all_qps,
              k->answers["rdma-netlink/mlx5_0/res_qp"].bytes.size(), kProcesses,
              k->answers["rdma-netlink/mlx5_0/1/qp_counters"].bytes.size());
  auto scrape = [&](std::map<std::string, std::string> options, std::string& page) {
    PassConfig config = testing::FixtureCollectorConfig(testing::FixtureDir("mlx5-roce"), {"rdma"});
    config.procfs_root = proc.path();
    config.kernel = k;
    config.collector_options["rdma"] = std::move(options);
    auto pass = PassRunner::Create(config);
    (*pass)->Collect();
    constexpr int kScrapes = 5;
    NodeSnapshot snap;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kScrapes; ++i) snap = (*pass)->Collect();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / kScrapes;
    metrics::TextRenderer out;
    collectors::RenderRdma(snap, out);
    page = std::move(out).Take();
    return seconds;
  };
  std::string off, on;
  const double t_off = scrape({}, off);
  const double t_on = scrape({{"per-job", "true"}}, on);
  for (const char* d : devices) {
    const std::string dev = std::string("{device=\"") + d + "\"";
    EXPECT_TRUE(Has(on, "roce_rdma_jobs" + dev + "} 1000"));
    EXPECT_TRUE(Has(on, "roce_rdma_jobs_folded" + dev + "} 984"));
    EXPECT_EQ(Count(on, "roce_rdma_job_qps" + dev), kMaxJobsServed + 1);
  }
  // Nothing lost: the 17 entries of a device hold every QP.
  double sum = 0;
  for (std::size_t at = on.find("roce_rdma_job_qps{device=\"mlx5_0\""); at != std::string::npos;
       at = on.find("roce_rdma_job_qps{device=\"mlx5_0\"", at + 1))
    sum += std::stod(on.substr(on.find("} ", at) + 2));
  EXPECT_EQ(sum, static_cast<double>(all_qps));
  const std::size_t job_series = Samples(on) - Samples(off);
  std::printf("per-job view, 4 devices x %u processes (%u jobs each, %zu QPs a device): %zu series more "
              "(%zu a device, budget %zu jobs + folded); rdma scrape %.1f ms with, %.1f ms without\n",
              kProcesses, kProcesses, all_qps, job_series, job_series / 4, kMaxJobsServed, t_on * 1e3, t_off * 1e3);
  EXPECT_LE(job_series / 4, 3 + (kMaxJobsServed + 1) * (2 + 2));  // jobs, folded, bound; qps, processes, 2 counters
}


// --collector.rdma.pod-names-root: the pod's namespace and name from the config.json CRI-O wrote
// for its container (annotations as tests/fixtures/real/oci-bundles/crio-blog-2023.txt shows
// them, for this pod), read once while the pod holds QPs.
const std::string kCrioContainer = "5eed917563583925ffdbd40a64efb2aaffe58638e57add8becaf460fe74f5b1c";

std::string CrioConfig(const std::string& uid, const std::string& ns, const std::string& name) {
  return "{\"ociVersion\": \"1.0.2-dev\", \"annotations\": {\"io.container.manager\": \"cri-o\", "
         "\"io.kubernetes.container.name\": \"trainer\", \"io.kubernetes.pod.name\": \"" + name +
         "\", \"io.kubernetes.pod.namespace\": \"" + ns + "\", \"io.kubernetes.pod.uid\": \"" + uid + "\"}}";
}

// The page of the scrape that first serves `family` (the pod names come from a worker thread, so
// a later scrape than the first), or of the last of `max` scrapes.
std::string PageOnceServed(std::shared_ptr<kernel::KernelAnswers> kernel, const std::string& procfs,
                           std::map<std::string, std::string> options, const std::string& family,
                           int max = 500) {
  auto pass = RdmaPass(std::move(kernel), procfs, std::move(options));
  std::string text;
  for (int i = 0; i < max; ++i) {
    text = Render(pass->Collect());
    if (text.find(family + "{") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return text;
}

TEST(RdmaPerJob, PodNamesFromTheRuntimesBundle) {
  Node node;
  testing::TestDir host;
  host.Write("var/lib/containers/storage/overlay-containers/" + kCrioContainer + "/userdata/config.json",
             CrioConfig(kPod, "ml-team", "llama-trainer-0"));
  // The first scrape asks the worker and serves the UID alone; a later one the name.
  const std::string first = Page(node.k, node.proc.path(), {{"per-job", "true"}, {"pod-names-root", host.path()}});
  EXPECT_EQ(Count(first, "roce_rdma_job_pod_info{"), 0u);
  const std::string page = PageOnceServed(node.k, node.proc.path(), {{"per-job", "true"}, {"pod-names-root", host.path()}},
                                          "roce_rdma_job_pod_info");
  EXPECT_TRUE(Has(page, "roce_rdma_job_pod_info{device=\"mlx5_0\",workload=\"" + kPod +
                            "\",pod_namespace=\"ml-team\",pod_name=\"llama-trainer-0\"} 1"))
      << page.substr(page.find("roce_rdma_job"));
  EXPECT_EQ(Count(page, "roce_rdma_job_pod_info{"), 1u);  // the Slurm job and the rest have none
  // Without the flag, or with a bundle that names another pod: the UID alone.
  EXPECT_EQ(Count(Page(node.k, node.proc.path(), {{"per-job", "true"}}), "roce_rdma_job_pod_info"), 0u);
  host.Write("var/lib/containers/storage/overlay-containers/" + kCrioContainer + "/userdata/config.json",
             CrioConfig("01b4b887-7635-4346-9c20-58a294bbb034", "ml-team", "llama-trainer-0"));
  const std::string other = PageOnceServed(node.k, node.proc.path(), {{"per-job", "true"}, {"pod-names-root", host.path()}},
                                           "roce_rdma_job_pod_info", 20);
  EXPECT_EQ(Count(other, "roce_rdma_job_pod_info"), 0u);
  EXPECT_TRUE(Has(other, "roce_rdma_job_qps{device=\"mlx5_0\",kind=\"pod\",workload=\"" + kPod + "\",qos=\"burstable\"} 5"));
}

TEST(RdmaPerJob, PodNamesRootIsCheckedAtStart) {
  Node node;
  PassConfig config = testing::FixtureCollectorConfig(testing::FixtureDir("mlx5-roce"), {"rdma"});
  config.procfs_root = node.proc.path();
  config.kernel = node.k;
  config.collector_options["rdma"] = {{"pod-names-root", "/"}};
  auto off = PassRunner::Create(config);
  ASSERT_FALSE(off.ok());
  EXPECT_NE(off.error().message.find("--collector.rdma.per-job, which is off"), std::string::npos) << off.error().message;
  config.collector_options["rdma"] = {{"per-job", "true"}, {"pod-names-root", "relative/dir"}};
  auto relative = PassRunner::Create(config);
  ASSERT_FALSE(relative.ok());
  EXPECT_NE(relative.error().message.find("not an absolute path of a directory"), std::string::npos);
}

// The cache: a pod's bundle is read once while the pod is asked for, forgotten when it is not,
// at most kMaxBundleReads a scrape, and a bundle that names no pod is not read again for the
// same container.
TEST(RdmaPodNames, ReadOncePerPodOffTheScrapeBoundedPerScrape) {
  testing::TestDir host;
  auto pod = [](int i) {
    char uid[40];
    std::snprintf(uid, sizeof uid, "00000000-0000-4000-8000-%012d", i);
    procfs::Workload w;
    w.kind = procfs::WorkloadKind::kPod;
    w.pod_uid = uid;
    w.runtime = "containerd";
    char id[65];
    std::snprintf(id, sizeof id, "%064x", i + 1);
    w.container_id = id;
    return w;
  };
  auto write = [&](const procfs::Workload& w, const std::string& body) {
    host.Write("run/containerd/io.containerd.runtime.v2.task/k8s.io/" + w.container_id + "/config.json", body);
  };
  const int n = static_cast<int>(collectors::kMaxBundleReads) + 6;
  for (int i = 0; i < n; ++i)
    write(pod(i), "{\"annotations\": {\"io.kubernetes.cri.sandbox-namespace\": \"ns\", \"io.kubernetes.cri.sandbox-name\": \"p" +
                      std::to_string(i) + "\", \"io.kubernetes.cri.sandbox-uid\": \"" + pod(i).pod_uid + "\"}}");
  collectors::PodNames names(host.path());
  // scrape: asks for every pod, waits for the worker, and says how many were named.
  auto scrape = [&](int from, int to) {
    names.BeginScrape();
    int named = 0;
    for (int i = from; i < to; ++i) named += names.Find(pod(i)).has_value();
    names.EndScrape();
    names.WaitIdle();
    return named;
  };
  // The first scrape names none (the worker reads meanwhile) and asks for kMaxBundleReads pods.
  EXPECT_EQ(scrape(0, n), 0);
  EXPECT_EQ(names.bundle_reads(), collectors::kMaxBundleReads);
  // The next one serves those and asks for the 6 left; the third serves all, reading nothing.
  EXPECT_EQ(scrape(0, n), static_cast<int>(collectors::kMaxBundleReads));
  EXPECT_EQ(names.bundle_reads(), static_cast<std::size_t>(n));
  EXPECT_EQ(scrape(0, n), n);
  EXPECT_EQ(names.bundle_reads(), static_cast<std::size_t>(n));
  names.BeginScrape();
  ASSERT_TRUE(names.Find(pod(3)).has_value());
  EXPECT_EQ(names.Find(pod(3))->pod, "p3");
  names.EndScrape();
  // Pod 0, not asked for in that scrape, was forgotten: asked again, it is read again.
  EXPECT_EQ(scrape(0, 1), 0);
  EXPECT_EQ(scrape(0, 1), 1);
  EXPECT_EQ(names.bundle_reads(), static_cast<std::size_t>(n) + 1);
  // A bundle naming no pod: read once for its container, again for another container.
  procfs::Workload bad = pod(n + 1);
  write(bad, "{\"annotations\": {}}");
  for (int i = 0; i < 3; ++i) {
    names.BeginScrape();
    EXPECT_FALSE(names.Find(bad).has_value());
    names.EndScrape();
    names.WaitIdle();
  }
  EXPECT_EQ(names.bundle_reads(), static_cast<std::size_t>(n) + 2);
  bad.container_id = std::string(64, 'e');
  write(bad, "{\"annotations\": {\"io.kubernetes.cri.sandbox-namespace\": \"ns\", \"io.kubernetes.cri.sandbox-name\": \"late\"}}");
  names.BeginScrape();
  EXPECT_FALSE(names.Find(bad).has_value());
  names.EndScrape();
  names.WaitIdle();
  names.BeginScrape();
  ASSERT_TRUE(names.Find(bad).has_value());
  EXPECT_EQ(names.Find(bad)->pod, "late");
  names.EndScrape();
  // A process in the pod's own cgroup names no container: nothing is read for it.
  procfs::Workload sandbox = pod(n + 2);
  sandbox.container_id.clear();
  names.BeginScrape();
  EXPECT_FALSE(names.Find(sandbox).has_value());
  names.EndScrape();
  names.WaitIdle();
  EXPECT_EQ(names.bundle_reads(), static_cast<std::size_t>(n) + 3);
}

}  // namespace
}  // namespace rocewatch
