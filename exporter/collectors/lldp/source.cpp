#include "exporter/collectors/lldp/source.h"

#include <cerrno>
#include <set>
#include <tuple>

#include "exporter/collectors/detail_options.h"
#include "exporter/lldp/neighbors_json.h"
#include "exporter/log.h"
#include "exporter/netlink/errno_name.h"
#include "rocewatch/duration.h"

namespace rocewatch::collectors {
namespace {

constexpr double kDefaultIntervalSeconds = 30;

enum class Outcome { kNeighbors, kNoDaemon, kNotAllowed, kNotCaptured, kParseError, kFailure };

class LldpSource final : public Source {
 public:
  LldpSource(kernel::KernelAnswers* kernel, std::string socket, double interval, bool full_tables,
             std::vector<std::uint32_t> dscps,
             SourceClock clock)
      : kernel_(kernel),
        socket_(std::move(socket)),
        interval_(interval),
        full_tables_(full_tables),
        dscps_(std::move(dscps)),
        clock_(std::move(clock)) {}

  void Prepare(const Inventory&) override {}

  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    const double now = clock_.monotonic_seconds();
    const bool due = !read_once_ || interval_ <= 0 || now - read_monotonic_ >= interval_;
    if (due) {
      Read();
      read_once_ = true;
      read_monotonic_ = now;
    }
    status.parse_errors_total = parse_errors_total_;
    switch (outcome_) {
      case Outcome::kNotCaptured:
        return;
      case Outcome::kFailure:
        status.success = false;
        status.errors.push_back(error_);
        break;
      case Outcome::kParseError:
        if (due) status.errors.push_back(error_);
        break;
      case Outcome::kNotAllowed:
        status.unavailable_values += 1;
        break;
      case Outcome::kNoDaemon:
      case Outcome::kNeighbors:
        break;
    }
    std::set<std::string> netdevs;
    for (const auto& ref : inventory.netdevs) netdevs.insert(ref.name);
    LldpSnapshot snap;
    snap.daemon_reachable = outcome_ == Outcome::kNeighbors || outcome_ == Outcome::kParseError;
    // One series per (netdev, chassis, port): a repeated neighbour (a hostile replay) is kept once.
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (const auto& n : neighbors_) {
      if (!netdevs.count(n.netdev) || !seen.insert({n.netdev, n.chassis_id, n.port_id}).second)
        continue;
      snap.neighbors.push_back(n);
    }
    snap.full_tables = full_tables_;
    snap.exported_dscps = dscps_;
    out.lldp = std::move(snap);
  }

 private:
  void Read() {
    neighbors_.clear();
    const kernel::Answer a = kernel_->Ask(kernel::call::LldpNeighbors{socket_});
    const std::string where = "lldpd (" + (socket_.empty() ? std::string("default socket") : socket_) + ")";
    if (a.ok()) {
      auto decoded = lldp::DecodeNeighborsJson(
          std::string_view(reinterpret_cast<const char*>(a.bytes.data()), a.bytes.size()));
      if (decoded) {
        for (auto& n : *decoded) {
          neighbors_.emplace_back();
          static_cast<lldp::Neighbor&>(neighbors_.back()) = std::move(n);
        }
        DecodeDcbxOfNeighbors();
        Become(Outcome::kNeighbors, "", log::Level::kInfo, "");
      } else {
        parse_errors_total_ += 1;
        Become(Outcome::kParseError, where + ": " + decoded.error().message, log::Level::kWarn,
               "lldpd's neighbour answer does not decode");
      }
      return;
    }
    const std::string text = where + ": " + std::string(netlink::ErrnoName(a.error));
    switch (a.error) {
      case ENODATA:
        Become(Outcome::kNotCaptured, "", log::Level::kDebug, "");
        return;
      case ENOENT:
      case ECONNREFUSED:
        Become(Outcome::kNoDaemon, text, log::Level::kInfo,
               "lldpd is not running: no LLDP neighbours are exported");
        return;
      case EACCES:
      case EPERM:
        Become(Outcome::kNotAllowed, text, log::Level::kWarn,
               "lldpd's control socket is not readable by this user: add it to the _lldpd "
               "group (docs/operations.md); no LLDP neighbours are exported");
        return;
      default:
        Become(Outcome::kFailure, text, log::Level::kWarn, "asking lldpd for its neighbours failed");
        return;
    }
  }

  // The switch port's 802.1Qaz TLVs of each neighbour. A malformed one is that TLV absent, a
  // parse error counted, and logged when the errors change; the neighbour stays.
  void DecodeDcbxOfNeighbors() {
    std::vector<std::string> errors;
    for (auto& n : neighbors_) {
      n.dcbx = lldp::DecodeDcbx(n.unknown_tlvs);
      for (const auto& e : n.unknown_tlv_errors) n.dcbx.errors.push_back(e);
      for (const auto& e : n.dcbx.errors) errors.push_back(n.netdev + ": " + e);
    }
    parse_errors_total_ += static_cast<double>(errors.size());
    if (!errors.empty() && errors != dcbx_errors_) {
      log::Warn("a neighbour's DCBX TLVs do not decode; those TLVs are not exported",
                {{"error", errors.front()}, {"count", std::to_string(errors.size())}});
    }
    dcbx_errors_ = std::move(errors);
  }

  // Logs when the outcome (or its error) changes, not on every read.
  void Become(Outcome outcome, std::string error, log::Level level, std::string_view msg) {
    const bool changed = outcome != outcome_ || error != error_;
    if (changed && !msg.empty()) {
      log::Write(level, msg, {{"error", error}});
    } else if (changed && outcome == Outcome::kNeighbors && logged_problem_) {
      log::Info("lldpd answers again", {});
    }
    logged_problem_ = outcome != Outcome::kNeighbors && outcome != Outcome::kNotCaptured;
    outcome_ = outcome;
    error_ = std::move(error);
  }

  kernel::KernelAnswers* kernel_;
  std::string socket_;
  double interval_;
  bool full_tables_;
  std::vector<std::uint32_t> dscps_;
  SourceClock clock_;
  std::vector<std::string> dcbx_errors_;
  bool read_once_ = false;
  double read_monotonic_ = 0;
  Outcome outcome_ = Outcome::kNotCaptured;
  std::string error_;
  bool logged_problem_ = false;
  std::vector<LldpNeighbor> neighbors_;
  double parse_errors_total_ = 0;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeLldpSource(const SourceEnv& env) {
  return MakeLldpSource(env, SystemSourceClock());
}

Result<std::unique_ptr<Source>> MakeLldpSource(const SourceEnv& env, SourceClock clock) {
  if (env.kernel == nullptr) return Error{"lldp collector: no answers to read from"};
  double interval = kDefaultIntervalSeconds;
  if (const std::string& text = env.Option("interval"); !text.empty()) {
    auto parsed = ParseDuration(text);
    if (!parsed) return Error{"--collector.lldp.interval: " + parsed.error().message};
    interval = *parsed;
  }
  const std::string& socket = env.Option("socket");
  if (socket.find('\0') != std::string::npos || socket.size() > 107)
    return Error{"--collector.lldp.socket: a path of at most 107 bytes expected"};
  auto full = BoolOption(env, "lldp", "full-tables", false);
  if (!full) return full.error();
  auto dscps = DscpListOption(env, "lldp", "dscps");
  if (!dscps) return dscps.error();
  return std::unique_ptr<Source>(std::make_unique<LldpSource>(
      env.kernel, socket, interval, *full, std::move(*dscps), std::move(clock)));
}

}  // namespace rocewatch::collectors
