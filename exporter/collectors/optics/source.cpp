// The optics source: each inventory netdev's transceiver EEPROM through KernelAnswers, decoded
// by optics::Decode, refreshed every --collector.optics.interval and served from a cache in
// between. Kernel facts this file relies on (checked against the kernel sources):
//
//   - ethtool netlink MODULE_EEPROM_GET (Linux 5.13+, net/ethtool/eeprom.c) reads one page at a
//     time; when the driver has no get_module_eeprom_by_page the kernel itself falls back to
//     get_module_info + get_module_eeprom (eeprom_fallback), which cannot reach pages past the
//     flat eeprom_len nor banks: such pages answer EINVAL. EOPNOTSUPP therefore means the
//     driver has neither operation (veth, virtio), or the kernel is older than 5.13 (the genl
//     family has no such command), or has no ethtool family at all (before 5.6): then the
//     ioctls are asked.
//   - Privilege: the genl op is flagged GENL_UNS_ADMIN_PERM (net/ethtool/netlink.c) and
//     ETHTOOL_GMODULEINFO / ETHTOOL_GMODULEEEPROM are not in the "allow some commands to be
//     done by anyone" list of __dev_ethtool (net/ethtool/ioctl.c): both paths need
//     CAP_NET_ADMIN in the netdev's user namespace and answer EPERM without it (checked before
//     the driver is asked, so even a veth answers EPERM then).
//   - mlx5, empty cage: the MCIA register read reports a non-zero status and
//     mlx5_query_mcia / mlx5_query_module_id return -EIO. GMODULEINFO answers EIO
//     (mlx5e_get_module_info). mlx5e_get_module_eeprom_by_page returned the bytes read so far
//     (0) on error until "net/mlx5e: Fix return value in case of module EEPROM read error"
//     (d1c94bc5b90c, Linux 6.18, backported to stable), so older kernels answer netlink with a
//     successful reply whose ETHTOOL_A_MODULE_EEPROM_DATA is empty, newer ones with EIO.
//     bnxt_en answers EINVAL with the extack "Transceiver module not inserted".

#include "exporter/collectors/optics/source.h"

#include "exporter/collectors/detail_options.h"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include "exporter/log.h"
#include "exporter/netlink/errno_name.h"
#include "exporter/netlink/ethtool_genl.h"
#include "exporter/netlink/messages.h"
#include "exporter/optics/decode.h"
#include "exporter/optics/pages_to_read.h"
#include "rocewatch/duration.h"

namespace rocewatch::collectors {
namespace {

using State = OpticsSnapshot::State;

constexpr double kDefaultIntervalSeconds = 60;
// PagesToRead grows the list at most twice (CMIS: page 01h, then its banks); a few more passes
// only guard against a decoder that keeps asking.
constexpr int kMaxPagePasses = 4;
// The live kernel refuses GMODULEEEPROM reads longer than this.
constexpr std::uint32_t kMaxIoctlEepromLength = 4096;

// One kernel answer for one EEPROM read.
struct PageAnswer {
  enum class Kind {
    kData,     // bytes
    kNoData,   // a successful reply without data bytes (mlx5 before 6.18: nothing read)
    kErrno,    // the call failed with `error`
    kGarbled,  // an answer that does not parse
  };
  Kind kind = Kind::kGarbled;
  std::vector<std::uint8_t> data;
  int error = 0;
  std::string message;  // the errno's name and the kernel's extack text, or why it is garbled
};

// Whether a MODULE_EEPROM_GET reply carries an ETHTOOL_A_MODULE_EEPROM_DATA of zero bytes, the
// answer DecodeModuleEepromReply rejects and mlx5 gives for a cage without a module.
bool HasEmptyData(const std::vector<std::uint8_t>& reply) {
  auto message = netlink::ExpectDataReply(reply, "ethtool MODULE_EEPROM_GET reply");
  if (!message || message->payload.size() < GENL_HDRLEN) return false;
  auto attributes = netlink::ParseAttributes(message->payload.subspan(GENL_HDRLEN), "reply");
  if (!attributes) return false;
  const netlink::Attribute* data =
      netlink::FindAttribute(*attributes, ETHTOOL_A_MODULE_EEPROM_DATA);
  return data != nullptr && data->payload.empty();
}

PageAnswer FromNetlink(const kernel::Answer& answer) {
  PageAnswer out;
  if (!answer.ok()) {
    out.kind = PageAnswer::Kind::kErrno;
    out.error = answer.error;
    out.message = std::string(netlink::ErrnoName(answer.error));
    return out;
  }
  auto reply = ethtool_nl::DecodeModuleEepromReply(answer.bytes);
  if (reply) {
    out.kind = PageAnswer::Kind::kData;
    out.data = std::move(reply->data);
  } else if (reply.error().code != 0) {
    out.kind = PageAnswer::Kind::kErrno;
    out.error = reply.error().code;
    out.message = reply.error().message;
  } else if (HasEmptyData(answer.bytes)) {
    out.kind = PageAnswer::Kind::kNoData;
  } else {
    out.message = reply.error().message;
  }
  return out;
}

std::string DescribeRead(const optics::PageRequest& r) {
  if (r.offset == 0) {
    return r.page.i2c_address == optics::kI2cAddressA2 ? "A2h lower page" : "lower page";
  }
  return optics::PageName(r.page);
}

bool IsPermissionError(int error) { return error == EPERM || error == EACCES; }

// Texts drivers put in the extack for an empty cage (bnxt_en).
bool SaysNotInserted(const std::string& message) {
  return message.find("not inserted") != std::string::npos ||
         message.find("not present") != std::string::npos;
}

// The media label: the compliance codes the decoders give, without the transmitter
// technology, "Media: " prefix removed (CMIS media type).
std::string MediaOf(const std::vector<std::string>& compliance) {
  std::string media;
  for (const auto& code : compliance) {
    if (code.rfind("Transmitter: ", 0) == 0) continue;
    std::string_view text = code;
    if (text.rfind("Media: ", 0) == 0) text.remove_prefix(7);
    if (!media.empty()) media += ", ";
    media += text;
  }
  return media;
}

OpticsSnapshot::Flags FlagsOf(const optics::Flags& f) {
  return {f.high_alarm, f.low_alarm, f.high_warning, f.low_warning};
}

bool HasAnyFlag(const optics::Flags& f) {
  return f.high_alarm || f.low_alarm || f.high_warning || f.low_warning;
}

void AddReading(OpticsSnapshot& snap, const char* sensor, std::uint32_t lane,
                const optics::Sensor& s) {
  if (!s.value && !HasAnyFlag(s.flags)) return;
  snap.readings.push_back({sensor, lane, s.value, FlagsOf(s.flags)});
}

void AddThresholds(OpticsSnapshot& snap, const char* sensor,
                   const std::optional<optics::Thresholds>& t) {
  if (!t) return;
  snap.thresholds.push_back(
      {sensor, {t->high_alarm, t->low_alarm, t->high_warning, t->low_warning}});
}

void FillModule(OpticsSnapshot& snap, const optics::ModuleInfo& info) {
  snap.state = State::kModule;
  snap.present = true;
  snap.read_ok = true;
  snap.identifier = info.identifier_name;
  snap.spec = info.spec;
  snap.vendor = info.vendor_name;
  snap.part_number = info.part_number;
  snap.serial = info.serial_number;
  snap.revision = info.revision;
  snap.connector = info.connector_name;
  snap.media = MediaOf(info.compliance);
  snap.tx_power_advertised = info.tx_power_advertised;

  AddReading(snap, "temperature_celsius", 0, info.temperature_celsius);
  AddReading(snap, "voltage_volts", 0, info.supply_voltage_volts);
  for (const auto& lane : info.lanes) {
    const auto n = static_cast<std::uint32_t>(lane.number);
    AddReading(snap, "tx_bias_amperes", n, lane.tx_bias_amperes);
    AddReading(snap, "tx_power_watts", n, lane.tx_power_watts);
    AddReading(snap, "rx_power_watts", n, lane.rx_power_watts);
  }
  AddThresholds(snap, "temperature_celsius", info.temperature_celsius.thresholds);
  AddThresholds(snap, "voltage_volts", info.supply_voltage_volts.thresholds);
  // Modules keep one set per sensor kind; the decoders copy it to every lane.
  auto first_lane = [&info](auto member) -> std::optional<optics::Thresholds> {
    for (const auto& lane : info.lanes) {
      if ((lane.*member).thresholds) return (lane.*member).thresholds;
    }
    return std::nullopt;
  };
  AddThresholds(snap, "tx_bias_amperes", first_lane(&optics::Lane::tx_bias_amperes));
  AddThresholds(snap, "tx_power_watts", first_lane(&optics::Lane::tx_power_watts));
  AddThresholds(snap, "rx_power_watts", first_lane(&optics::Lane::rx_power_watts));
}

// What one read of one module did to the source's status.
enum class Effect {
  kNone,
  kParseError,   // the answers did not parse or decode: a parse error of this netdev
  kFailure,      // a kernel call failed unexpectedly: the source reports success 0
  kVanished,     // ENODEV: the kernel has no such netdev (it went away): no series
  kNotCaptured,  // a replay holds no answers for this netdev: no series
};

struct ModuleRead {
  OpticsSnapshot snap;
  Effect effect = Effect::kNone;
  std::vector<std::string> notes;  // pages skipped and decoder warnings, for the debug log
};

class OpticsSource final : public Source {
 public:
  OpticsSource(kernel::KernelAnswers* kernel, const fs::Tree* sysfs, double interval_seconds,
               SourceClock clock, bool all_flags, bool all_thresholds)
      : kernel_(kernel), sysfs_(sysfs), interval_(interval_seconds), clock_(std::move(clock)),
        all_flags_(all_flags), all_thresholds_(all_thresholds) {}

  void Prepare(const Inventory& inventory) override {
    std::set<std::string> names;
    for (const auto& ref : inventory.netdevs) names.insert(ref.name);
    std::erase_if(cache_, [&](const auto& e) { return !names.count(e.first); });
    std::erase_if(logged_, [&](const auto& e) { return !names.count(e.first); });
  }

  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    for (const auto& ref : inventory.netdevs) {
      const double now = clock_.monotonic_seconds();
      auto it = cache_.find(ref.name);
      const bool due = it == cache_.end() || interval_ <= 0 ||
                       now - it->second.read_monotonic_seconds >= interval_;
      if (due) {
        ModuleRead read = ReadModule(ref.name);
        if (read.effect == Effect::kVanished && sysfs_ != nullptr && sysfs_->IsDirectory(ref.dir)) {
          // ENODEV, but the netdev is still there: the driver means the module (an empty
          // cage, a PHY it cannot reach). That value is unavailable; the netdev did not leave.
          read.effect = Effect::kNone;
          read.snap.state = State::kUnavailable;
          read.snap.present.reset();
          read.snap.read_ok = false;
          read.snap.error = "netdev " + ref.name + ": module EEPROM: ENODEV";
        }
        Account(read, status);
        Cached c;
        c.snap = std::move(read.snap);
        c.effect = read.effect;
        c.read_monotonic_seconds = now;
        it = cache_.insert_or_assign(ref.name, std::move(c)).first;
      }
      const Cached& c = it->second;
      if (c.effect == Effect::kNotCaptured || c.effect == Effect::kVanished) continue;
      if (c.effect == Effect::kFailure) {
        status.success = false;
        if (!due) status.errors.push_back(c.snap.error + " (last read, served until the next)");
      }
      if (c.snap.state == State::kUnavailable) status.unavailable_values += 1;
      out.optics.push_back(c.snap);
      out.optics.back().all_flags = all_flags_;
      out.optics.back().all_thresholds = all_thresholds_;
    }
    status.parse_errors_total = parse_errors_total_;
    status.vanished_total = vanished_total_;
  }

 private:
  struct Cached {
    OpticsSnapshot snap;
    Effect effect = Effect::kNone;
    double read_monotonic_seconds = 0;
  };

  // Counts a fresh read into the status and logs what changed for its netdev.
  void Account(const ModuleRead& read, SourceStatus& status) {
    const std::string& netdev = read.snap.netdev;
    for (const auto& note : read.notes) log::Debug("optics", {{"netdev", netdev}, {"note", note}});
    switch (read.effect) {
      case Effect::kVanished:
        // The inventory follows class/net, whose listing the collector compares every pass, so
        // a netdev that really went away is dropped there; no rediscovery is asked for here.
        vanished_total_ += 1;
        status.errors.push_back("netdev " + netdev + " vanished during the module EEPROM read");
        return;
      case Effect::kParseError:
        parse_errors_total_ += 1;
        status.errors.push_back(read.snap.error);
        LogOnce(netdev, log::Level::kWarn, "module EEPROM does not decode", read.snap.error);
        return;
      case Effect::kFailure:
        status.errors.push_back(read.snap.error);
        LogOnce(netdev, log::Level::kWarn, "module EEPROM read failed", read.snap.error);
        return;
      case Effect::kNotCaptured:
        return;
      case Effect::kNone:
        break;
    }
    if (read.snap.state == State::kUnavailable) {
      LogOnce(netdev, log::Level::kWarn,
              "module EEPROM not readable: reading it needs CAP_NET_ADMIN (netlink "
              "MODULE_EEPROM_GET and the GMODULEEEPROM ioctl alike); the optics of this netdev "
              "are not exported",
              read.snap.error);
      return;
    }
    auto it = logged_.find(netdev);
    if (it != logged_.end()) {
      log::Info("module EEPROM readable again", {{"netdev", netdev}});
      logged_.erase(it);
    }
  }

  void LogOnce(const std::string& netdev, log::Level level, std::string_view msg,
               const std::string& error) {
    std::string& last = logged_[netdev];
    if (last == error) return;
    last = error;
    log::Write(level, msg, {{"netdev", netdev}, {"error", error}});
  }

  ModuleRead ReadModule(const std::string& netdev) {
    ModuleRead read;
    read.snap.netdev = netdev;
    read.snap.last_read_timestamp_seconds = clock_.unix_seconds();
    const optics::PageRequest lower{{optics::kI2cAddressA0, 0, 0}, 0, 128};
    PageAnswer first = Ask(netdev, lower);
    switch (first.kind) {
      case PageAnswer::Kind::kData:
        ReadPaged(netdev, std::move(first.data), read);
        return read;
      case PageAnswer::Kind::kNoData:
        EmptyCage(read, "netlink");
        return read;
      case PageAnswer::Kind::kGarbled:
        ParseFailure(read, "ethtool netlink MODULE_EEPROM_GET lower page: " + first.message);
        return read;
      case PageAnswer::Kind::kErrno:
        break;
    }
    if (first.error == EOPNOTSUPP || first.error == ENODATA) {
      ReadFlat(netdev, first.error, read);
    } else {
      FirstReadError(read, "ethtool netlink MODULE_EEPROM_GET lower page", first, "netlink");
    }
    return read;
  }

  PageAnswer Ask(const std::string& netdev, const optics::PageRequest& r) {
    kernel::ModulePage page;
    page.i2c_address = r.page.i2c_address;
    page.bank = r.page.bank;
    page.page = r.page.page;
    page.offset = r.offset;
    page.length = r.length;
    return FromNetlink(kernel_->Ask(kernel::call::ModuleEepromPage{netdev, page}));
  }

  // Paged reads over netlink, starting from the lower page already read.
  void ReadPaged(const std::string& netdev, std::vector<std::uint8_t> lower_page,
                 ModuleRead& read) {
    read.snap.transport = "netlink";
    read.snap.present = true;  // a module answered
    optics::EepromImage image;
    image.SetLower(optics::kI2cAddressA0, lower_page);
    using Key = std::tuple<std::uint8_t, std::uint8_t, std::uint8_t, std::uint8_t>;
    std::set<Key> asked = {{optics::kI2cAddressA0, 0, 0, 0}};
    for (int pass = 0; pass < kMaxPagePasses; ++pass) {
      bool grew = false;
      for (const optics::PageRequest& r : optics::PagesToRead(image)) {
        if (!asked.insert({r.page.i2c_address, r.page.bank, r.page.page, r.offset}).second)
          continue;
        const std::string what = "ethtool netlink MODULE_EEPROM_GET " + DescribeRead(r);
        PageAnswer a = Ask(netdev, r);
        switch (a.kind) {
          case PageAnswer::Kind::kData:
            if (r.offset == 0) {
              image.SetLower(r.page.i2c_address, a.data);
            } else {
              image.SetUpper(r.page, a.data);
            }
            grew = true;
            break;
          case PageAnswer::Kind::kNoData:
            read.notes.push_back(what + ": the driver returned no bytes; decoded without it");
            break;
          case PageAnswer::Kind::kGarbled:
            ParseFailure(read, what + ": " + a.message);
            return;
          case PageAnswer::Kind::kErrno:
            // EINVAL: the driver (or the kernel's flat fallback) cannot address that page.
            if (a.error == EINVAL || a.error == EOPNOTSUPP) {
              read.notes.push_back(what + ": " + a.message + "; decoded without it");
              break;
            }
            LaterReadError(read, what, a);
            return;
        }
      }
      if (!grew) break;
    }
    DecodeInto(image, read);
  }

  // The ioctl fallback: GMODULEINFO for type and length, GMODULEEEPROM for the flat bytes.
  void ReadFlat(const std::string& netdev, int netlink_error, ModuleRead& read) {
    const kernel::Answer info = kernel_->Ask(kernel::call::ModuleInfo{netdev});
    if (!info.ok()) {
      if (info.error == ENODATA) {
        if (netlink_error == ENODATA) {
          read.effect = Effect::kNotCaptured;
        } else {
          NoInterface(read);
        }
        return;
      }
      if (info.error == EOPNOTSUPP) {
        NoInterface(read);
        return;
      }
      PageAnswer a;
      a.kind = PageAnswer::Kind::kErrno;
      a.error = info.error;
      a.message = std::string(netlink::ErrnoName(info.error));
      FirstReadError(read, "ethtool ioctl GMODULEINFO", a, "ioctl");
      return;
    }
    read.snap.transport = "ioctl";
    ethtool_modinfo modinfo{};
    if (info.bytes.size() < offsetof(ethtool_modinfo, reserved)) {
      ParseFailure(read, "ethtool ioctl GMODULEINFO answer is " +
                             std::to_string(info.bytes.size()) +
                             " bytes, too short for struct ethtool_modinfo");
      return;
    }
    std::memcpy(&modinfo, info.bytes.data(), std::min(info.bytes.size(), sizeof modinfo));
    if (modinfo.eeprom_len == 0 || modinfo.eeprom_len > kMaxIoctlEepromLength) {
      ParseFailure(read, "ethtool ioctl GMODULEINFO gives eeprom_len " +
                             std::to_string(modinfo.eeprom_len) + ", expected 1-" +
                             std::to_string(kMaxIoctlEepromLength));
      return;
    }
    read.snap.present = true;
    const kernel::Answer eeprom =
        kernel_->Ask(kernel::call::ModuleEeprom{netdev, 0, modinfo.eeprom_len});
    if (!eeprom.ok()) {
      PageAnswer a;
      a.kind = PageAnswer::Kind::kErrno;
      a.error = eeprom.error;
      a.message = std::string(netlink::ErrnoName(eeprom.error));
      LaterReadError(read, "ethtool ioctl GMODULEEEPROM", a);
      return;
    }
    ethtool_eeprom header{};
    if (eeprom.bytes.size() < sizeof header) {
      ParseFailure(read, "ethtool ioctl GMODULEEEPROM answer is " +
                             std::to_string(eeprom.bytes.size()) +
                             " bytes, too short for struct ethtool_eeprom");
      return;
    }
    std::memcpy(&header, eeprom.bytes.data(), sizeof header);
    if (header.len == 0 || header.len > eeprom.bytes.size() - sizeof header) {
      ParseFailure(read, "ethtool ioctl GMODULEEEPROM answer says len " +
                             std::to_string(header.len) + " but carries " +
                             std::to_string(eeprom.bytes.size() - sizeof header) + " data bytes");
      return;
    }
    std::span<const std::uint8_t> raw(eeprom.bytes.data() + sizeof header, header.len);
    Result<optics::EepromImage> image = Error{};
    switch (modinfo.type) {
      case ETH_MODULE_SFF_8079:
      case ETH_MODULE_SFF_8472:
        image = optics::EepromImage::FromRaw(raw, optics::RawLayout::kSff8472);
        break;
      case ETH_MODULE_SFF_8636:
      case ETH_MODULE_SFF_8436:
        image = optics::EepromImage::FromRaw(raw, optics::RawLayout::kLinearPages);
        break;
      default:
        image = optics::EepromImage::FromRaw(raw);
        break;
    }
    if (!image) {
      ParseFailure(read, "ethtool ioctl GMODULEEEPROM (type " + std::to_string(modinfo.type) +
                             "): " + image.error().message);
      return;
    }
    DecodeInto(*image, read);
  }

  void DecodeInto(const optics::EepromImage& image, ModuleRead& read) {
    auto info = optics::Decode(image);
    if (!info) {
      ParseFailure(read, "module EEPROM (" + read.snap.transport +
                             ") does not decode: " + info.error().message);
      return;
    }
    for (const auto& w : info->warnings) read.notes.push_back(w);
    FillModule(read.snap, *info);
  }

  // The first answer about a module: besides real failures, it tells an empty cage and a
  // missing privilege.
  void FirstReadError(ModuleRead& read, const std::string& what, const PageAnswer& a,
                      const char* transport) {
    if (a.error == EIO || SaysNotInserted(a.message)) {
      EmptyCage(read, transport);
      return;
    }
    LaterReadError(read, what, a);
  }

  void LaterReadError(ModuleRead& read, const std::string& what, const PageAnswer& a) {
    const std::string text = "netdev " + read.snap.netdev + ": " + what + ": " + a.message;
    if (IsPermissionError(a.error)) {
      read.snap.state = State::kUnavailable;
      read.snap.present.reset();
      read.snap.read_ok = false;
      read.snap.error = text;
      return;
    }
    if (a.error == ENODEV) {
      read.effect = Effect::kVanished;
      return;
    }
    read.snap.state = State::kFailed;
    read.snap.read_ok = false;
    read.snap.error = text;
    read.effect = Effect::kFailure;
  }

  void ParseFailure(ModuleRead& read, const std::string& what) {
    read.snap.state = State::kFailed;
    read.snap.read_ok = false;
    read.snap.error = "netdev " + read.snap.netdev + ": " + what;
    read.effect = Effect::kParseError;
  }

  static void EmptyCage(ModuleRead& read, const char* transport) {
    read.snap.state = State::kEmptyCage;
    read.snap.present = false;
    read.snap.read_ok = true;
    read.snap.transport = transport;
  }

  static void NoInterface(ModuleRead& read) {
    read.snap.state = State::kNoInterface;
    read.snap.present.reset();
    read.snap.read_ok = true;
  }

  kernel::KernelAnswers* kernel_;
  const fs::Tree* sysfs_;  // tells a vanished netdev from a driver's ENODEV
  double interval_;
  SourceClock clock_;
  bool all_flags_;
  bool all_thresholds_;
  std::map<std::string, Cached> cache_;
  std::map<std::string, std::string> logged_;  // netdev -> the problem last logged for it
  double parse_errors_total_ = 0;
  double vanished_total_ = 0;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeOpticsSource(const SourceEnv& env) {
  return MakeOpticsSource(env, SystemSourceClock());
}

Result<std::unique_ptr<Source>> MakeOpticsSource(const SourceEnv& env, SourceClock clock) {
  if (env.kernel == nullptr) return Error{"optics collector: no kernel answers to read from"};
  double interval = kDefaultIntervalSeconds;
  if (const std::string& text = env.Option("interval"); !text.empty()) {
    auto parsed = ParseDuration(text);
    if (!parsed) return Error{"--collector.optics.interval: " + parsed.error().message};
    interval = *parsed;
  }
  auto all_flags = BoolOption(env, "optics", "all-flags", false);
  if (!all_flags) return all_flags.error();
  auto all_thresholds = BoolOption(env, "optics", "all-thresholds", false);
  if (!all_thresholds) return all_thresholds.error();
  return std::unique_ptr<Source>(std::make_unique<OpticsSource>(
      env.kernel, env.sysfs, interval, std::move(clock), *all_flags, *all_thresholds));
}

}  // namespace rocewatch::collectors
