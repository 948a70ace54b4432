#include "exporter/collectors/netdev/source.h"

#include <cerrno>

#include "exporter/collectors/attribute_reader.h"
#include "exporter/collectors/detail_options.h"
#include "exporter/collectors/sysfs_values.h"
#include "rocewatch/strings.h"

namespace rocewatch::collectors {
namespace {

using Outcome = AttributeReader::Outcome;

struct NetdevState {
  NetdevRef ref;
  std::string address;
  fs::Attribute mtu, operstate, carrier, carrier_changes, speed;
};

class NetdevSource final : public Source {
 public:
  NetdevSource(const SourceEnv& env, bool repeats) : sysfs_(*env.sysfs), repeats_(repeats) {}

  void Prepare(const Inventory& inventory) override {
    netdevs_.clear();
    for (const auto& ref : inventory.netdevs) {
      NetdevState n;
      n.ref = ref;
      auto addr = sysfs_.ReadText(ref.dir + "/address");
      if (addr) n.address = std::string(Trim(*addr));
      n.mtu = fs::Attribute(&sysfs_, ref.dir + "/mtu");
      n.mtu.set_vanish_sentinel(true);  // read first in every pass
      n.operstate = fs::Attribute(&sysfs_, ref.dir + "/operstate");
      n.carrier = fs::Attribute(&sysfs_, ref.dir + "/carrier");
      n.carrier_changes = fs::Attribute(&sysfs_, ref.dir + "/carrier_changes");
      n.speed = fs::Attribute(&sysfs_, ref.dir + "/speed");
      netdevs_.push_back(std::move(n));
    }
  }

  void Collect(const Inventory&, NodeSnapshot& out, SourceStatus& status) override {
    std::string text;
    for (auto& n : netdevs_) {
      NetdevSnapshot snap;
      if (CollectOne(n, snap, text, status)) {
        out.netdevs.push_back(std::move(snap));
      } else {
        reader_.Vanished(status);
        status.errors.push_back("netdev " + n.ref.name + " vanished during collection");
      }
    }
    reader_.Finish(status);
  }

 private:
  bool ReadNumber(fs::Attribute& attr, const std::string& dir, std::string& text,
                  SourceStatus& status, std::optional<double>& out) {
    Outcome o = reader_.Read(attr, dir, text, status);
    if (o == Outcome::kGone) return false;
    if (o != Outcome::kOk) return true;
    auto v = ParseU64(text);
    if (v) {
      out = static_cast<double>(*v);
    } else {
      reader_.ParseError(sysfs_.Abs(attr.rel()), "cannot parse a number from " + Quote(Trim(text)));
    }
    return true;
  }

  bool CollectOne(NetdevState& n, NetdevSnapshot& snap, std::string& text, SourceStatus& status) {
    snap.name = n.ref.name;
    snap.repeats = repeats_;
    snap.device = n.ref.device;
    snap.port = n.ref.port;
    snap.pci_address = n.ref.pci_address;
    snap.pci_function = std::string(PciFunctionKind(n.ref.pci_address, n.ref.is_vf));
    snap.pf_pci_address = n.ref.pf_address;
    snap.address = n.address;
    const std::string& dir = n.ref.dir;
    if (!ReadNumber(n.mtu, dir, text, status, snap.mtu_bytes)) return false;
    if (!ReadNumber(n.carrier_changes, dir, text, status, snap.carrier_changes)) return false;

    Outcome o = reader_.Read(n.operstate, dir, text, status);
    if (o == Outcome::kGone) return false;
    if (o == Outcome::kOk) {
      auto id = ParseOperState(text);
      if (id) {
        snap.operstate = std::string(Trim(text));
        snap.operstate_id = *id;
      } else {
        reader_.ParseError(sysfs_.Abs(n.operstate.rel()), id.error().message);
      }
    }
    // carrier and speed answer EINVAL while the interface is administratively down:
    // those values are absent, the netdev (MTU, operstate, up 0) is still served.
    o = reader_.Read(n.carrier, dir, text, status);
    if (o == Outcome::kGone) return false;
    if (o == Outcome::kOk) {
      auto v = ParseU64(text);
      if (v && *v <= 1) {
        snap.carrier = *v == 1;
      } else {
        reader_.ParseError(sysfs_.Abs(n.carrier.rel()), "cannot parse carrier from " + Quote(Trim(text)));
      }
    }
    o = reader_.Read(n.speed, dir, text, status);
    if (o == Outcome::kGone) return false;
    if (o == Outcome::kOk) {
      auto speed = ParseNetdevSpeed(text);
      if (speed) {
        snap.speed_bytes_per_second = *speed;
      } else {
        reader_.ParseError(sysfs_.Abs(n.speed.rel()), speed.error().message);
      }
    }
    return true;
  }

  const fs::Tree& sysfs_;
  bool repeats_;
  std::vector<NetdevState> netdevs_;
  AttributeReader reader_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeNetdevSource(const SourceEnv& env) {
  auto repeats = BoolOption(env, "netdev", "repeats", false);
  if (!repeats) return repeats.error();
  return std::unique_ptr<Source>(std::make_unique<NetdevSource>(env, *repeats));
}

}  // namespace rocewatch::collectors
