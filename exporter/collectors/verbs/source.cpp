#include "exporter/collectors/verbs/source.h"

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <set>
#include <string>
#include <utility>

#include "exporter/collectors/kernel_reader.h"

namespace rocewatch::collectors {
namespace {

using Outcome = KernelReader::Outcome;

// struct ibv_port_attr as this build's rdma-core lays it out. rdma-core 47 and newer append
// `uint32_t active_speed_ex` after port_cap_flags2 (offset 52): an answer that long carries
// it, and a non-zero active_speed_ex replaces active_speed (it is how XDR, 256, is reported).
static_assert(offsetof(ibv_port_attr, port_cap_flags2) == 48, "ibv_port_attr layout changed");
constexpr std::size_t kPortAttrBytes = sizeof(ibv_port_attr);
constexpr std::size_t kActiveSpeedExOffset = 52;

// enum ibv_mtu: IBV_MTU_256 = 1 … IBV_MTU_4096 = 5.
std::optional<double> MtuBytes(int mtu) {
  if (mtu < IBV_MTU_256 || mtu > IBV_MTU_4096) return std::nullopt;
  return static_cast<double>(128u << mtu);
}

// Lanes of enum ibv_port_attr::active_width (IB spec PortInfo:LinkWidthActive).
std::optional<double> WidthLanes(std::uint8_t width) {
  switch (width) {
    case 1:
      return 1;  // 1X
    case 2:
      return 4;  // 4X
    case 4:
      return 8;  // 8X
    case 8:
      return 12;  // 12X
    case 16:
      return 2;  // 2X
    default:
      return std::nullopt;
  }
}

// Per-lane rate in Gb/s of active_speed (IB spec PortInfo:LinkSpeedActive and the extended
// speeds), as drivers/infiniband/core/sysfs.c rate_show() counts them, so the product agrees
// with the sysfs `rate` (roce_port_rate_bytes_per_second): SDR 2.5, DDR 5, QDR 10, FDR10 10,
// FDR 14, EDR 25, HDR 50, NDR 100, XDR 200.
std::optional<double> LaneGbps(std::uint32_t speed) {
  switch (speed) {
    case 1:
      return 2.5;  // SDR
    case 2:
      return 5;  // DDR
    case 4:
      return 10;  // QDR
    case 8:
      return 10;  // FDR10
    case 16:
      return 14;  // FDR
    case 32:
      return 25;  // EDR
    case 64:
      return 50;  // HDR
    case 128:
      return 100;  // NDR
    case 256:
      return 200;  // XDR (active_speed_ex only)
    default:
      return std::nullopt;
  }
}

// libibverbs ibv_query_port for every port of every RDMA device: the active MTU (which
// sysfs does not show), the largest MTU, the GID table length and the active speed. A device
// libibverbs does not list (ENODEV: no provider, no uverbs device, no RDMA stack) is not
// asked again until the inventory changes: each ask costs a netlink socket and a readdir of
// class/infiniband_verbs that fail the same way (docs/performance.md "What is absent costs
// nothing"); so is a port that answered "unsupported".
class VerbsSource final : public Source {
 public:
  explicit VerbsSource(const SourceEnv& env) : kernel_(*env.kernel) {}

  void Prepare(const Inventory&) override {
    without_verbs_.clear();
    unsupported_ports_.clear();
  }

  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    for (const auto& dev : inventory.devices) {
      if (without_verbs_.count(dev.name) != 0) continue;
      const std::string subject = "device " + dev.name;
      for (const auto& port : dev.ports) {
        if (unsupported_ports_.count({dev.name, port.number}) != 0) continue;
        kernel::Answer a = kernel_.Ask(kernel::call::VerbsPortAttr{dev.name, port.number});
        // ENODEV: libibverbs lists no such device (no provider, no RDMA stack here, or it
        // went away). Not an error; the inventory says whether the device still exists.
        if (a.error == ENODEV) {
          without_verbs_.insert(dev.name);
          break;
        }
        Outcome o =
            reader_.Check(a, "ibv_query_port port " + std::to_string(port.number), subject, status);
        if (o == Outcome::kUnsupported) unsupported_ports_.insert({dev.name, port.number});
        if (o != Outcome::kOk) continue;
        VerbsPortSnapshot snap;
        if (Decode(a.bytes, snap, subject, port.number, status)) {
          snap.device = dev.name;
          snap.port = port.number;
          out.verbs.push_back(std::move(snap));
        }
      }
    }
    reader_.Finish(status);
  }

 private:
  bool Decode(const std::vector<std::uint8_t>& bytes, VerbsPortSnapshot& snap,
              const std::string& subject, std::uint32_t port, SourceStatus& status) {
    if (bytes.size() < kPortAttrBytes) {
      reader_.Fail(
          subject,
          "ibv_query_port port " + std::to_string(port) + ": " + std::to_string(bytes.size()) +
              " bytes, too short for struct ibv_port_attr (" + std::to_string(kPortAttrBytes) + ")",
          status);
      return false;
    }
    ibv_port_attr attr;
    std::memcpy(&attr, bytes.data(), sizeof attr);
    snap.active_mtu_bytes = MtuBytes(attr.active_mtu);
    snap.max_mtu_bytes = MtuBytes(attr.max_mtu);
    if (attr.gid_tbl_len >= 0) snap.gid_table_length = attr.gid_tbl_len;
    std::uint32_t speed = attr.active_speed;
    if (bytes.size() >= kActiveSpeedExOffset + sizeof(std::uint32_t)) {
      std::uint32_t speed_ex = 0;
      std::memcpy(&speed_ex, bytes.data() + kActiveSpeedExOffset, sizeof speed_ex);
      if (speed_ex != 0) speed = speed_ex;
    }
    auto lanes = WidthLanes(attr.active_width);
    auto lane_gbps = LaneGbps(speed);
    if (lanes && lane_gbps) snap.active_speed_bytes_per_second = *lanes * *lane_gbps * 1e9 / 8;
    return true;
  }

  kernel::KernelAnswers& kernel_;
  KernelReader reader_;
  // Since the inventory was built: devices libibverbs does not list, ports that answered
  // "unsupported".
  std::set<std::string> without_verbs_;
  std::set<std::pair<std::string, std::uint32_t>> unsupported_ports_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeVerbsSource(const SourceEnv& env) {
  if (env.kernel == nullptr) return Error{"collector verbs: no kernel answers to read"};
  return std::unique_ptr<Source>(std::make_unique<VerbsSource>(env));
}

}  // namespace rocewatch::collectors
