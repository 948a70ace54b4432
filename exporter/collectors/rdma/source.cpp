#include "exporter/collectors/rdma/source.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <optional>
#include <utility>

#include "exporter/collectors/attribute_reader.h"
#include "exporter/collectors/detail_options.h"
#include "exporter/collectors/rdma/default_counters.h"
#include "exporter/collectors/rdma/jobs.h"
#include "exporter/collectors/rdma/nldev_resources.h"
#include "exporter/collectors/sysfs_values.h"
#include "exporter/kernel/calls.h"
#include "exporter/log.h"
#include "exporter/netlink/rdma_stat.h"
#include "rocewatch/duration.h"
#include "rocewatch/strings.h"

namespace rocewatch::collectors {
namespace {

using Clock = std::chrono::steady_clock;
using Outcome = AttributeReader::Outcome;

// counters/ files that get their own families (data counters count 4-byte words).
constexpr std::string_view kXmitData = "port_xmit_data";
constexpr std::string_view kRcvData = "port_rcv_data";
constexpr std::string_view kXmitPackets = "port_xmit_packets";
constexpr std::string_view kRcvPackets = "port_rcv_packets";
// hw_counters/lifespan is the refresh period of the others in ms, not a counter.
constexpr std::string_view kLifespan = "lifespan";

// A counter directory: the files held open, and their names shared with the
// snapshots (CounterSet) so a pass copies no strings.
struct CounterFiles {
  std::shared_ptr<std::vector<std::string>> names = std::make_shared<std::vector<std::string>>();
  std::vector<fs::Attribute> attrs;

  void Add(std::string name, fs::Attribute attr) {
    names->push_back(std::move(name));
    attrs.push_back(std::move(attr));
  }
};

struct PortState {
  PortRef ref;
  fs::Attribute state, phys_state, rate, lid, sm_lid;
  CounterFiles counters, hw_counters;
  // counters/ files with families of their own (data counts 4-byte words).
  std::optional<fs::Attribute> xmit_data, rcv_data, xmit_packets, rcv_packets;
  std::optional<fs::Attribute> lifespan;
  std::vector<std::string> gid_indices;  // names under gids/
  std::vector<GidEntry> gids;
  std::optional<Clock::time_point> gids_read_at;
  // RDMA netlink STAT_GET: asked while it answers; false from its first failure until the
  // inventory changes (no RDMA netlink, no permission, a replay without the answer). The
  // names of the last answer, shared with the snapshots while they stay the same.
  bool netlink = true;
  std::shared_ptr<const std::vector<std::string>> netlink_names;
  // STAT_GET_STATUS the same way (kernels before 6.0 answer EOPNOTSUPP).
  bool netlink_status = true;
  // The QP-counter mode and the bound counters (nldev_resources.h): asked while they answer;
  // an absent answer stops them until the inventory changes.
  bool netlink_qp_mode = true;
  bool netlink_bound = true;
};

struct DeviceState {
  DeviceRef ref;
  std::string fw_version, board_id, hca_type, node_guid, node_type;
  std::vector<PortState> ports;
  CounterFiles hw_counters;  // device-wide
  bool netlink_resources = true;  // RES_GET, the same way
  bool netlink_processes = true;  // RES_QP_GET (--collector.rdma.per-process), the same way
  // --collector.rdma.per-job: why the device's jobs carry no counters, as last logged (logged
  // once each time it changes; empty while counters are bound per process).
  std::string job_counters_note = "-";
};

class RdmaSource final : public Source {
 public:
  RdmaSource(const SourceEnv& env, double gid_interval_seconds, RdmaDetail detail, bool netlink,
             bool per_process, bool per_job, const std::string& pod_names_root)
      : sysfs_(*env.sysfs),
        procfs_(per_process || per_job ? env.procfs : nullptr),
        per_process_(per_process),
        per_job_(per_job),
        kernel_(netlink ? env.kernel : nullptr),
        gid_interval_(gid_interval_seconds),
        detail_(detail) {
    if (!pod_names_root.empty()) pod_names_.emplace(pod_names_root);
  }

  void Prepare(const Inventory& inventory) override {
    devices_.clear();
    for (const auto& ref : inventory.devices) devices_.push_back(PrepareDevice(ref));
  }

  void Collect(const Inventory&, NodeSnapshot& out, SourceStatus& status) override {
    std::string text;
    identities_.clear();  // a process's comm and cgroup, read once this scrape
    if (pod_names_) pod_names_->BeginScrape();
    for (auto& dev : devices_) {
      DeviceSnapshot snap;
      if (CollectDevice(dev, snap, text, status)) {
        out.devices.push_back(std::move(snap));
      } else {
        reader_.Vanished(status);
        status.errors.push_back("device " + dev.ref.name + " vanished during collection");
      }
    }
    if (pod_names_) pod_names_->EndScrape();
    reader_.Finish(status);
  }

 private:
  std::string Static(const std::string& rel) {
    auto text = sysfs_.ReadText(rel);
    return text ? std::string(Trim(*text)) : std::string();
  }

  // Every file of `dir` that `reads` (default_counters.h), but those `take` keeps for
  // itself (it returns true for them).
  template <class Reads, class Take>
  CounterFiles Files(const std::string& dir, Reads reads, Take take) {
    CounterFiles out;
    auto names = sysfs_.List(dir);
    if (!names) return out;
    for (const auto& n : *names) {
      fs::Attribute attr(&sysfs_, fs::Join(dir, n));
      if (!take(n, attr) && reads(n)) out.Add(n, std::move(attr));
    }
    return out;
  }

  DeviceState PrepareDevice(const DeviceRef& ref) {
    DeviceState dev;
    dev.ref = ref;
    // A device with no parent in sysfs (rxe, siw) is known by the driver id RDMA netlink
    // answers; without netlink (--collector.rdma.netlink=false) it stays without a driver.
    if (dev.ref.driver.empty() && kernel_ != nullptr) {
      NldevRead read = ReadUverbsDriver(*kernel_, ref.name, dev.ref.driver);
      if (read.outcome == NldevOutcome::kMalformed) reader_.ParseError(read.where, read.error);
    }
    dev.fw_version = Static(ref.dir + "/fw_ver");
    dev.board_id = Static(ref.dir + "/board_id");
    dev.hca_type = Static(ref.dir + "/hca_type");
    dev.node_guid = Static(ref.dir + "/node_guid");
    dev.node_type = Static(ref.dir + "/node_type");
    // sysfs.c puts `lifespan` in the device-wide group too: a setting, not a counter.
    auto not_lifespan = [](const std::string& n, fs::Attribute&) { return n == kLifespan; };
    if (sysfs_.IsDirectory(ref.dir + "/hw_counters"))
      dev.hw_counters = Files(ref.dir + "/hw_counters", [](const std::string&) { return true; }, not_lifespan);
    for (const auto& pref : ref.ports) {
      PortState port;
      port.ref = pref;
      port.state = fs::Attribute(&sysfs_, pref.dir + "/state");
      port.state.set_vanish_sentinel(true);  // read first in every pass
      port.phys_state = fs::Attribute(&sysfs_, pref.dir + "/phys_state");
      port.rate = fs::Attribute(&sysfs_, pref.dir + "/rate");
      port.lid = fs::Attribute(&sysfs_, pref.dir + "/lid");
      port.sm_lid = fs::Attribute(&sysfs_, pref.dir + "/sm_lid");
      auto port_counter = [&](const std::string& n) { return ReadsPortCounter(detail_, pref.link_layer, n); };
      auto hw_counter = [&](const std::string& n) { return ReadsHwCounter(detail_, dev.ref.driver, n); };
      port.counters = Files(pref.dir + "/counters", port_counter, [&](const std::string& n, fs::Attribute& a) {
        for (auto [name, slot] : {std::pair{kXmitData, &port.xmit_data}, std::pair{kRcvData, &port.rcv_data},
                                  std::pair{kXmitPackets, &port.xmit_packets},
                                  std::pair{kRcvPackets, &port.rcv_packets}}) {
          if (n == name) {
            *slot = std::move(a);
            return true;
          }
        }
        return false;
      });
      port.hw_counters = Files(pref.dir + "/hw_counters", hw_counter, [&](const std::string& n, fs::Attribute& a) {
        if (n != kLifespan) return false;
        if (detail_.all_hw_counters) port.lifespan = std::move(a);  // roce_hw_counters_lifespan_seconds
        return true;
      });
      auto gids = sysfs_.List(pref.dir + "/gids");
      if (gids) {
        port.gid_indices = *gids;
        std::sort(port.gid_indices.begin(), port.gid_indices.end(),
                  [](const std::string& a, const std::string& b) {
                    return a.size() != b.size() ? a.size() < b.size() : a < b;
                  });
      }
      dev.ports.push_back(std::move(port));
    }
    return dev;
  }

  // Reads one counter file: its value, or NaN when it was unavailable or did
  // not parse; false when the device is gone.
  bool ReadCounter(fs::Attribute& attr, const std::string& dir, std::string& text,
                   SourceStatus& status, double& out) {
    out = std::numeric_limits<double>::quiet_NaN();
    Outcome o = reader_.Read(attr, dir, text, status);
    if (o == Outcome::kGone) return false;
    if (o != Outcome::kOk) return true;
    auto v = ParseCounterValue(text);
    if (!v) {
      reader_.ParseError(sysfs_.Abs(attr.rel()), v.error().message);
    } else if (v->unavailable()) {
      reader_.Unavailable(status);
    } else {
      out = static_cast<double>(*v->value);
    }
    return true;
  }

  // Reads a whole counter directory; false when the device is gone.
  bool ReadCounters(CounterFiles& files, const std::string& dir, CounterSet& out, std::string& text,
                    SourceStatus& status) {
    out.names = files.names;
    out.values.resize(files.attrs.size());
    for (std::size_t i = 0; i < files.attrs.size(); ++i)
      if (!ReadCounter(files.attrs[i], dir, text, status, out.values[i])) return false;
    return true;
  }

  // Reads an optional counter file into `out` (times `scale`); false when gone.
  bool ReadOne(std::optional<fs::Attribute>& attr, const std::string& dir, double scale,
               std::string& text, SourceStatus& status, std::optional<double>& out) {
    if (!attr) return true;
    double v;
    if (!ReadCounter(*attr, dir, text, status, v)) return false;
    if (v == v) out = v * scale;
    return true;
  }

  bool CollectDevice(DeviceState& dev, DeviceSnapshot& snap, std::string& text,
                     SourceStatus& status) {
    snap.name = dev.ref.name;
    snap.fw_version = dev.fw_version;
    snap.board_id = dev.board_id;
    snap.hca_type = dev.hca_type;
    snap.node_guid = dev.node_guid;
    snap.node_type = dev.node_type;
    snap.driver = dev.ref.driver;
    snap.pci_address = dev.ref.pci_address;
    snap.pci_function = std::string(PciFunctionKind(dev.ref.pci_address, dev.ref.is_vf));
    snap.pf_pci_address = dev.ref.pf_address;
    snap.detail = detail_;
    if (!ReadCounters(dev.hw_counters, dev.ref.dir, snap.hw_counters, text, status)) return false;
    BoundByPid bound;  // --collector.rdma.per-job: the device's counters bound per process
    for (auto& port : dev.ports) {
      PortSnapshot p;
      if (!CollectPort(dev.ref, port, p, text, status)) return false;
      NetlinkQpCounters(dev.ref, port, p, per_job_ && procfs_ != nullptr ? &bound : nullptr);
      snap.ports.push_back(std::move(p));
    }
    if (kernel_ != nullptr && dev.netlink_resources) {
      std::vector<RdmaResourceCount> resources;
      if (Keep(ReadResourceSummary(*kernel_, dev.ref.name, resources), dev.netlink_resources))
        snap.resources = std::move(resources);
    }
    if (kernel_ != nullptr && procfs_ != nullptr && dev.netlink_processes) {
      std::vector<QpOwner> owners;
      if (Keep(ReadQpOwners(*kernel_, dev.ref.name, owners), dev.netlink_processes)) {
        if (per_job_) {
          GroupJobs(owners, *procfs_, identities_, bound, pod_names_ ? &*pod_names_ : nullptr, snap);
          snap.job_counters_bound = !bound.empty();
          NoteJobCounters(dev, snap);
        }
        if (per_process_) TopProcesses(std::move(owners), *procfs_, identities_, snap.processes_total, snap.processes);
      }
    }
    return true;
  }

  // Says once (each time the reason changes) why a device's jobs carry no counters: the
  // per-job view then serves QPs only (docs/metrics.md "The per-job view").
  static void NoteJobCounters(DeviceState& dev, const DeviceSnapshot& snap) {
    std::string note;
    if (!snap.job_counters_bound) {
      bool known = false, none = true;
      for (const auto& p : snap.ports) {
        known = known || !p.qp_counter_mode.empty();
        none = none && (p.qp_counter_mode.empty() || p.qp_counter_mode == "none");
      }
      note = !known ? "the kernel did not tell the QP-counter mode (RDMA netlink)"
             : none ? "the QP-counter mode is none: `rdma statistic qp set link DEV/PORT auto pid on` binds a "
                      "counter to each process (a driver without counter binding, such as rxe, refuses it)"
                    : "no QP counter is bound to a process (auto mode by QP type, or manual binding)";
    }
    if (note == dev.job_counters_note) return;
    dev.job_counters_note = note;
    if (!note.empty())
      log::Info("per-job view without counters: QPs only", {{"device", dev.ref.name}, {"reason", note}});
  }

  // Whether a netlink read served; an absent one clears `asked` (not asked again until the
  // inventory changes), a malformed one counts as a parse error and is asked again.
  bool Keep(const NldevRead& read, bool& asked) {
    switch (read.outcome) {
      case NldevOutcome::kServed:
        return true;
      case NldevOutcome::kAbsent:
        asked = false;
        return false;
      case NldevOutcome::kTransient:  // asked again next scrape
        return false;
      case NldevOutcome::kMalformed:
        reader_.ParseError(read.where, read.error);
        return false;
    }
    return false;
  }

  // The port's QP-counter mode and, where it is not none, its bound counters.
  void NetlinkQpCounters(const DeviceRef& dev, PortState& port, PortSnapshot& p, BoundByPid* by_pid) {
    if (kernel_ == nullptr || !port.netlink_qp_mode) return;
    if (!Keep(ReadQpCounterMode(*kernel_, dev.name, p), port.netlink_qp_mode)) {
      p.qp_counter_mode.clear();
      return;
    }
    if (p.qp_counter_mode == "none") {
      p.bound_counters_total = 0;  // binding a QP sets the mode to auto or manual
      return;
    }
    if (!port.netlink_bound) return;
    auto reads = [&](std::string_view n) {
      return n != kLifespan && ReadsHwCounter(detail_, dev.driver, n);
    };
    if (!Keep(ReadBoundCounters(*kernel_, dev.name, reads, p, by_pid), port.netlink_bound)) {
      p.bound_counters_total.reset();
      p.bound_counters.clear();
    }
    // A user process's name is not a label here: it would change with --collector.rdma.per-process
    // (which reads /proc) and make a new series of the same counter. That view names the pid.
  }

  // Reads a numbered state ("4: ACTIVE"); false when the device is gone.
  bool ReadState(fs::Attribute& attr, const std::string& dir, std::string& text,
                 SourceStatus& status, std::optional<std::uint32_t>& id, std::string& name) {
    Outcome o = reader_.Read(attr, dir, text, status);
    if (o == Outcome::kGone) return false;
    if (o != Outcome::kOk) return true;
    auto s = ParseNumberedState(text);
    if (!s) {
      reader_.ParseError(sysfs_.Abs(attr.rel()), s.error().message);
      return true;
    }
    id = s->id;
    name = s->name;
    return true;
  }

  // The port's hw counters from one RDMA netlink STAT_GET answer, filtered as the files are
  // (default_counters.h) and in the files' (sorted) order, so the page is the same either
  // way; optional counters the driver has enabled come with them. False when netlink did
  // not serve them: the caller reads the files.
  bool NetlinkHwCounters(const DeviceRef& dev, PortState& port, CounterSet& out) {
    if (kernel_ == nullptr || !port.netlink) return false;
    const kernel::Answer answer = kernel_->Ask(kernel::call::RdmaStat{dev.name, port.ref.number});
    std::optional<rdma_nl::PortCounters> decoded;
    if (answer.ok()) {
      auto d = rdma_nl::DecodeStatReply(answer.bytes);
      if (d && d->device.name == dev.name && d->port == port.ref.number) decoded = std::move(*d);
    }
    if (!decoded) {
      // Whatever the failure (EPROTONOSUPPORT without ib_core, EPERM, EOPNOTSUPP, a replay
      // without the answer, an answer that does not decode), the files serve the same
      // series; netlink is not asked again until the inventory changes.
      port.netlink = false;
      return false;
    }
    std::vector<std::pair<std::string, double>> counters;
    counters.reserve(decoded->counters.size());
    for (auto& c : decoded->counters) {
      if (c.name == kLifespan || !ReadsHwCounter(detail_, dev.driver, c.name)) continue;
      counters.emplace_back(std::move(c.name), static_cast<double>(c.value));
    }
    std::sort(counters.begin(), counters.end());
    const auto& names = port.netlink_names;
    bool same = names != nullptr && names->size() == counters.size();
    for (std::size_t i = 0; same && i < counters.size(); ++i) same = (*names)[i] == counters[i].first;
    if (!same) {
      auto fresh = std::make_shared<std::vector<std::string>>();
      for (const auto& c : counters) fresh->push_back(c.first);
      port.netlink_names = std::move(fresh);
    }
    out.names = port.netlink_names;
    out.values.resize(counters.size());
    for (std::size_t i = 0; i < counters.size(); ++i) out.values[i] = counters[i].second;
    return true;
  }

  // Which optional counters the port has and which are enabled (STAT_GET_STATUS), asked only
  // where STAT_GET answered; any failure leaves them out until the inventory changes.
  void NetlinkOptionalCounters(const DeviceRef& dev, PortState& port,
                               std::vector<OptionalCounterState>& out) {
    if (!port.netlink_status) return;
    const kernel::Answer answer =
        kernel_->Ask(kernel::call::RdmaStatStatus{dev.name, port.ref.number});
    std::optional<rdma_nl::OptionalCounters> decoded;
    if (answer.ok()) {
      auto d = rdma_nl::DecodeStatStatusReply(answer.bytes);
      if (d && d->device.name == dev.name && d->port == port.ref.number) decoded = std::move(*d);
    }
    if (!decoded) {
      port.netlink_status = false;
      return;
    }
    for (auto& c : decoded->counters) out.push_back({std::move(c.name), c.enabled});
    std::sort(out.begin(), out.end(),
              [](const OptionalCounterState& a, const OptionalCounterState& b) { return a.name < b.name; });
  }

  bool CollectPort(const DeviceRef& dev, PortState& port, PortSnapshot& p, std::string& text,
                   SourceStatus& status) {
    p.number = port.ref.number;
    p.netdev = port.ref.netdev;
    p.link_layer = port.ref.link_layer;
    const std::string& dir = port.ref.dir;
    if (!ReadState(port.state, dir, text, status, p.state, p.state_name)) return false;
    if (!ReadState(port.phys_state, dir, text, status, p.phys_state, p.phys_state_name)) return false;

    Outcome o = reader_.Read(port.rate, dir, text, status);
    if (o == Outcome::kGone) return false;
    if (o == Outcome::kOk) {
      auto rate = ParseRateBytesPerSecond(text);
      if (rate) {
        p.rate_bytes_per_second = *rate;
      } else {
        reader_.ParseError(sysfs_.Abs(port.rate.rel()), rate.error().message);
      }
    }
    if (port.ref.link_layer == "InfiniBand") {
      for (auto [attr, out] : {std::pair{&port.lid, &p.lid}, std::pair{&port.sm_lid, &p.sm_lid}}) {
        o = reader_.Read(*attr, dir, text, status);
        if (o == Outcome::kGone) return false;
        if (o != Outcome::kOk) continue;
        auto lid = ParseLid(text);
        if (lid) {
          *out = *lid;
        } else {
          reader_.ParseError(sysfs_.Abs(attr->rel()), lid.error().message);
        }
      }
    }

    if (!ReadOne(port.xmit_data, dir, 4, text, status, p.transmitted_bytes) ||
        !ReadOne(port.rcv_data, dir, 4, text, status, p.received_bytes) ||
        !ReadOne(port.xmit_packets, dir, 1, text, status, p.transmitted_packets) ||
        !ReadOne(port.rcv_packets, dir, 1, text, status, p.received_packets) ||
        !ReadCounters(port.counters, dir, p.counters, text, status))
      return false;
    if (NetlinkHwCounters(dev, port, p.hw_counters)) {
      NetlinkOptionalCounters(dev, port, p.optional_counters);
    } else if (!ReadCounters(port.hw_counters, dir, p.hw_counters, text, status)) {
      return false;
    }
    if (port.lifespan) {
      o = reader_.Read(*port.lifespan, dir, text, status);
      if (o == Outcome::kGone) return false;
      auto ms = o == Outcome::kOk ? ParseU64(text) : std::nullopt;
      if (ms) p.hw_counters_lifespan_seconds = static_cast<double>(*ms) / 1000.0;
    }
    ReadGids(port);
    p.gids_read = port.gids_read_at.has_value();
    p.gids = port.gids;
    return true;
  }

  // The GID table changes only when addresses change: re-read it on its own
  // interval, open-read-close (255 entries a port would be too many to hold).
  void ReadGids(PortState& port) {
    auto now = Clock::now();
    if (port.gids_read_at &&
        std::chrono::duration<double>(now - *port.gids_read_at).count() < gid_interval_)
      return;
    port.gids_read_at = now;
    port.gids.clear();
    for (const auto& idx : port.gid_indices) {
      auto text = sysfs_.ReadText(port.ref.dir + "/gids/" + idx);
      if (!text) continue;
      auto gid = ParseGid(*text);
      if (!gid) {
        reader_.ParseError(sysfs_.Abs(port.ref.dir + "/gids/" + idx), gid.error().message);
        continue;
      }
      if (collectors::IsZeroGid(*gid)) continue;
      GidEntry e;
      e.index = static_cast<std::uint32_t>(ParseU64(idx).value_or(0));
      e.gid = FormatGid(*gid);
      e.ip = collectors::GidToIp(*gid);
      auto type = sysfs_.ReadText(port.ref.dir + "/gid_attrs/types/" + idx);
      if (type) e.type = std::string(ParseGidType(*type));
      auto ndev = sysfs_.ReadText(port.ref.dir + "/gid_attrs/ndevs/" + idx);
      if (ndev) e.netdev = std::string(Trim(*ndev));
      port.gids.push_back(std::move(e));
    }
  }

  const fs::Tree& sysfs_;
  const fs::Tree* procfs_;  // null: --collector.rdma.per-process and .per-job off
  bool per_process_, per_job_;
  ProcessIdentities identities_;
  std::optional<PodNames> pod_names_;  // --collector.rdma.pod-names-root
  kernel::KernelAnswers* kernel_;  // null: --collector.rdma.netlink=false, or no kernel answers
  double gid_interval_;
  RdmaDetail detail_;
  std::vector<DeviceState> devices_;
  AttributeReader reader_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeRdmaSource(const SourceEnv& env) {
  auto interval = ParseDuration(env.Option("gid-interval"));
  if (!interval) return Error{"--collector.rdma.gid-interval: " + interval.error().message};
  RdmaDetail detail;
  for (auto [option, field] : {std::pair{"all-hw-counters", &RdmaDetail::all_hw_counters},
                               std::pair{"all-port-counters", &RdmaDetail::all_port_counters},
                               std::pair{"all-gids", &RdmaDetail::all_gids}}) {
    auto on = BoolOption(env, "rdma", option, false);
    if (!on) return on.error();
    detail.*field = *on;
  }
  auto netlink = BoolOption(env, "rdma", "netlink", true);
  if (!netlink) return netlink.error();
  auto per_process = BoolOption(env, "rdma", "per-process", false);
  if (!per_process) return per_process.error();
  auto per_job = BoolOption(env, "rdma", "per-job", false);
  if (!per_job) return per_job.error();
  const std::string& pod_names_root = env.Option("pod-names-root");
  if (!pod_names_root.empty()) {
    if (!*per_job) return Error{"--collector.rdma.pod-names-root names the pods of --collector.rdma.per-job, which is off"};
    std::error_code ec;
    if (pod_names_root.front() != '/' || !std::filesystem::is_directory(pod_names_root, ec))
      return Error{"--collector.rdma.pod-names-root=" + Quote(pod_names_root, 256) +
                   ": not an absolute path of a directory (the host's root: \"/\", or where a container mounts it)"};
  }
  return std::unique_ptr<Source>(
      std::make_unique<RdmaSource>(env, *interval, detail, *netlink, *per_process, *per_job, pod_names_root));
}

}  // namespace rocewatch::collectors
