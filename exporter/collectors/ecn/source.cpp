#include "exporter/collectors/ecn/source.h"

#include "exporter/collectors/detail_options.h"

#include <cerrno>
#include <optional>
#include <utility>

#include "exporter/collectors/attribute_reader.h"
#include "exporter/drivers/driver.h"
#include "exporter/log.h"
#include "rocewatch/duration.h"
#include "rocewatch/strings.h"

namespace rocewatch::collectors {
namespace {

using Outcome = AttributeReader::Outcome;

// debugfs cc_params names (after the rp_/np_ prefix) whose MLNX_OFED sysfs
// spelling differs; all others are spelled the same in both.
constexpr std::pair<std::string_view, std::string_view> kCcParamNames[] = {
    {"ai_rate", "rpg_ai_rate"},         {"hai_rate", "rpg_hai_rate"},
    {"time_reset", "rpg_time_reset"},   {"byte_reset", "rpg_byte_reset"},
    {"threshold", "rpg_threshold"},     {"max_rate", "rpg_max_rate"},
    {"min_rate", "rpg_min_rate"},       {"min_dec_fac", "rpg_min_dec_fac"},
    {"gd", "rpg_gd"},                   {"clamp_tgt_rate_ati", "clamp_tgt_rate_after_time_inc"},
    {"cnp_prio", "cnp_802p_prio"},
};

constexpr const char* kPoints[] = {"np", "rp"};

// Broadcom's bnxt_re (its driver package; the in-tree module has no such group) keeps its
// congestion control in configfs bnxt_re/<ibdev>/ports/<n>/cc/, made by `mkdir
// bnxt_re/<ibdev>`: ecn_enable is one switch for the device (every priority, both points);
// cnp_dscp and cnp_prio mark the CNPs it sends (the np parameters MLNX_OFED names cnp_dscp
// and cnp_802p_prio). Each file reads "%#x\n" of the driver's copy of the value (so 0 reads
// "0", 48 "0x30"): bnxt_re configfs.c, 229.0.139.0 to 233.2.77.9. The exporter never makes
// the group; a device without it serves nothing from here.
constexpr std::pair<std::string_view, std::string_view> kBnxtCcParams[] = {
    {"cnp_dscp", "cnp_dscp"},
    {"cnp_prio", "cnp_802p_prio"},
};

struct Param {
  std::string point, name, source;
  fs::Attribute attr;
  std::string object_dir;  // its directory: the netdev's ecn/roce_<point>, or debugfs cc_params
};

struct NetdevEcn {
  std::string netdev, device;
  std::string netdev_dir;  // the object of the enable flags
  std::array<std::optional<fs::Attribute>, 8> np_enable, rp_enable;
  std::optional<fs::Attribute> all_enable;  // bnxt_re's cc/ecn_enable
  std::string cc_dir;                       // its configfs cc group
  std::vector<Param> params;
};

class EcnSource final : public Source {
 public:
  EcnSource(const SourceEnv& env, bool all_priorities, bool all_sources, double interval_seconds,
            SourceClock clock)
      : sysfs_(*env.sysfs), debugfs_(*env.debugfs), configfs_(env.configfs),
        all_priorities_(all_priorities),
        all_sources_(all_sources), interval_(interval_seconds), clock_(std::move(clock)) {}

  void Prepare(const Inventory& inventory) override {
    entries_.clear();
    read_.reset();  // a new inventory is read at once
    debugfs_denied_ = 0;
    for (const auto& n : inventory.netdevs) {
      NetdevEcn e;
      bool sentinel_set = false;  // the first attribute read checks for a vanished netdev
      e.netdev = n.name;
      e.device = n.device;
      e.netdev_dir = n.dir;
      for (const char* point : kPoints) {
        std::string dir = n.dir + "/ecn/roce_" + point;
        auto names = sysfs_.List(dir);
        if (!names) continue;
        auto& enable = std::string_view(point) == "np" ? e.np_enable : e.rp_enable;
        for (int prio = 0; prio < 8; ++prio) {
          std::string rel = dir + "/enable/" + std::to_string(prio);
          if (!sysfs_.Exists(rel)) continue;
          enable[prio] = fs::Attribute(&sysfs_, rel);
          if (!sentinel_set) enable[prio]->set_vanish_sentinel(true), sentinel_set = true;
        }
        for (const auto& name : *names) {
          if (name == "enable") continue;
          e.params.push_back({point, name, "sysfs", fs::Attribute(&sysfs_, dir + "/" + name), dir});
        }
      }
      // Upstream mlx5 keeps DCQCN parameters per PCI function in debugfs.
      const DeviceRef* dev = inventory.FindDevice(n.device);
      if (dev != nullptr && !dev->pci_address.empty() && n.port == FirstPort(*dev)) {
        std::string dir = "mlx5/" + dev->pci_address + "/cc_params";
        auto names = debugfs_.List(dir);
        if (!names && (names.error().code == EACCES || names.error().code == EPERM)) {
          // Not root: debugfs is mounted 0700. The parameters are unavailable, not absent.
          ++debugfs_denied_;
          if (!denied_logged_) {
            denied_logged_ = true;
            log::Warn("DCQCN parameters in debugfs are not readable without root; "
                      "roce_dcqcn_parameter{source=\"debugfs\"} is not served",
                      {{"collector", "ecn"}, {"path", debugfs_.Abs(dir)}, {"error", names.error().message}});
          }
        }
        if (names) {
          for (const auto& file : *names) {
            std::string point, name;
            if (!MapCcParamName(file, point, name)) continue;
            e.params.push_back({point, name, "debugfs", fs::Attribute(&debugfs_, dir + "/" + file), dir});
          }
        }
      }
      if (dev != nullptr && n.port != 0) PrepareBnxtCc(*dev, n.port, e);
      bool any = !e.params.empty() || e.all_enable;
      for (int p = 0; p < 8; ++p) any = any || e.np_enable[p] || e.rp_enable[p];
      if (any) entries_.push_back(std::move(e));
    }
  }

  // Settings change rarely: a clean read is served again until --collector.ecn.interval has
  // passed (0s: read on every collection). A read with an error, a value that did not parse
  // or a vanished netdev is not kept, so the next collection reads again.
  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    const double now = clock_.monotonic_seconds();
    if (read_ && interval_ > 0 && now - read_->at_monotonic_seconds < interval_) {
      out.ecn.insert(out.ecn.end(), read_->ecn.begin(), read_->ecn.end());
      status.unavailable_values += read_->unavailable_values;
      reader_.Finish(status);
      return;
    }
    const double unavailable_before = status.unavailable_values;
    const std::size_t errors_before = status.errors.size();
    const double parse_errors_before = reader_.parse_errors_total();
    const std::size_t first = out.ecn.size();
    ReadAll(inventory, out, status);
    if (status.errors.size() == errors_before && !status.rediscover &&
        reader_.parse_errors_total() == parse_errors_before)
      read_ = Read{now, {out.ecn.begin() + static_cast<std::ptrdiff_t>(first), out.ecn.end()},
                   status.unavailable_values - unavailable_before};
    else
      read_.reset();
  }

 private:
  struct Read {
    double at_monotonic_seconds = 0;
    std::vector<EcnSnapshot> ecn;
    double unavailable_values = 0;
  };

  void ReadAll(const Inventory&, NodeSnapshot& out, SourceStatus& status) {
    status.unavailable_values += debugfs_denied_;  // one per device whose cc_params cannot be listed
    std::string text;
    for (auto& e : entries_) {
      EcnSnapshot snap;
      snap.netdev = e.netdev;
      snap.device = e.device;
      snap.all_priorities = all_priorities_;
      snap.all_sources = all_sources_;
      bool gone = false;
      for (int p = 0; p < 8 && !gone; ++p) {
        gone = !ReadFlag(e.np_enable[p], e.netdev_dir, snap.np_enabled[p], text, status) ||
               !ReadFlag(e.rp_enable[p], e.netdev_dir, snap.rp_enabled[p], text, status);
      }
      if (!gone) gone = !ReadFlag(e.all_enable, e.cc_dir, snap.all_enabled, text, status);
      for (auto& param : e.params) {
        if (gone) break;
        Outcome o = reader_.Read(param.attr, param.object_dir, text, status);
        if (o == Outcome::kGone) {
          gone = true;
          break;
        }
        if (o != Outcome::kOk) continue;
        // configfs prints "%#x\n"; sysfs and debugfs print decimal.
        auto v = param.source == "configfs" ? ParseHexOrDecimal(text) : ParseI64(text);
        if (!v) {
          reader_.ParseError(param.attr.rel(), "cannot parse a number from " + Quote(Trim(text)));
          continue;
        }
        snap.parameters.push_back({param.point, param.name, static_cast<double>(*v), param.source});
      }
      if (gone) {
        reader_.Vanished(status);
        continue;
      }
      out.ecn.push_back(std::move(snap));
    }
    reader_.Finish(status);
  }

  // The configfs cc group of a bnxt_re device's port, where the driver the kernel reports for
  // the device keeps its ECN settings there (its driver table) and the group was made.
  void PrepareBnxtCc(const DeviceRef& dev, std::uint32_t port, NetdevEcn& e) {
    const drivers::Driver* driver = drivers::FindByRdmaDriver(dev.driver);
    if (configfs_ == nullptr || driver == nullptr || driver->ecn != drivers::EcnSettings::kBnxtReConfigfs)
      return;
    std::string dir = "bnxt_re/" + dev.name + "/ports/" + std::to_string(port) + "/cc";
    if (!configfs_->IsDirectory(dir)) return;
    e.cc_dir = dir;
    if (configfs_->Exists(dir + "/ecn_enable")) e.all_enable = fs::Attribute(configfs_, dir + "/ecn_enable");
    for (const auto& [file, name] : kBnxtCcParams) {
      std::string rel = dir + "/" + std::string(file);
      if (configfs_->Exists(rel)) e.params.push_back({"np", std::string(name), "configfs", fs::Attribute(configfs_, rel), dir});
    }
  }

  static std::optional<std::int64_t> ParseHexOrDecimal(std::string_view text) {
    auto v = ParseU64Auto(text);
    if (!v || *v > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(*v);
  }

  static std::uint32_t FirstPort(const DeviceRef& dev) {
    return dev.ports.empty() ? 0 : dev.ports.front().number;
  }

  // False when the attribute vanished.
  bool ReadFlag(std::optional<fs::Attribute>& attr, const std::string& object_dir,
                std::optional<bool>& out, std::string& text, SourceStatus& status) {
    if (!attr) return true;
    Outcome o = reader_.Read(*attr, object_dir, text, status);
    if (o == Outcome::kGone) return false;
    if (o != Outcome::kOk) return true;
    auto v = ParseU64Auto(text);  // sysfs prints "1", bnxt_re's configfs "0x1"
    if (v && *v <= 1) {
      out = *v == 1;
    } else {
      reader_.ParseError(attr->tree()->Abs(attr->rel()), "cannot parse 0 or 1 from " + Quote(Trim(text)));
    }
    return true;
  }

  const fs::Tree& sysfs_;
  const fs::Tree& debugfs_;
  const fs::Tree* configfs_;
  bool all_priorities_;
  bool all_sources_;
  std::vector<NetdevEcn> entries_;
  AttributeReader reader_;
  int debugfs_denied_ = 0;       // devices whose debugfs cc_params could not be listed (EACCES)
  bool denied_logged_ = false;   // logged once per process
  double interval_;
  SourceClock clock_;
  std::optional<Read> read_;     // the last clean read, served until the interval has passed
};

}  // namespace

bool MapCcParamName(std::string_view file, std::string& point, std::string& name) {
  if (file.size() < 4 || file[2] != '_' || (file.substr(0, 2) != "rp" && file.substr(0, 2) != "np"))
    return false;
  point = std::string(file.substr(0, 2));
  std::string_view rest = file.substr(3);
  name = std::string(rest);
  for (const auto& [debugfs_name, sysfs_name] : kCcParamNames) {
    if (rest == debugfs_name) name = std::string(sysfs_name);
  }
  return true;
}

Result<std::unique_ptr<Source>> MakeEcnSource(const SourceEnv& env) {
  return MakeEcnSource(env, SystemSourceClock());
}

Result<std::unique_ptr<Source>> MakeEcnSource(const SourceEnv& env, SourceClock clock) {
  double interval = 0;
  if (const std::string& text = env.Option("interval"); !text.empty()) {
    auto parsed = ParseDuration(text);
    if (!parsed) return Error{"--collector.ecn.interval: " + parsed.error().message};
    interval = *parsed;
  }
  auto all_priorities = BoolOption(env, "ecn", "all-priorities", false);
  if (!all_priorities) return all_priorities.error();
  auto all_sources = BoolOption(env, "ecn", "all-sources", false);
  if (!all_sources) return all_sources.error();
  return std::unique_ptr<Source>(std::make_unique<EcnSource>(env, *all_priorities, *all_sources,
                                                                 interval, std::move(clock)));
}

}  // namespace rocewatch::collectors
