#include "exporter/netlink/rdma_stat.h"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <set>
#include <string>

#include "exporter/netlink/errno_name.h"
#include "exporter/netlink/messages.h"

namespace rocewatch::rdma_nl {
namespace {

using detail::Prefixed;
using netlink::Attribute;
using netlink::Bytes;

// The port index: present, a u32, from 1 (sysfs numbering).
Result<std::uint32_t> GetPort(const std::vector<Attribute>& attributes, std::string_view where) {
  const Attribute* port = netlink::FindAttribute(attributes, RDMA_NLDEV_ATTR_PORT_INDEX);
  if (port == nullptr) return Error{std::string(where) + ": no RDMA_NLDEV_ATTR_PORT_INDEX"};
  auto p = netlink::GetU32(*port, "RDMA_NLDEV_ATTR_PORT_INDEX");
  if (!p) return Prefixed(where, p.error());
  if (*p == 0) return Error{std::string(where) + ": RDMA_NLDEV_ATTR_PORT_INDEX 0 (ports start at 1)"};
  return *p;
}

// A per-port reply of `command`: its attributes, and the device and port they are about.
struct PortReply {
  std::vector<Attribute> attributes;
  DeviceHandle device;
  std::uint32_t port = 0;
};
Result<PortReply> DecodePortReply(Bytes reply, std::uint8_t command, std::string_view where) {
  auto attributes = detail::NldevReply(reply, command, where);
  if (!attributes) return attributes.error();
  auto handle = detail::GetHandle(*attributes, where);
  if (!handle) return handle.error();
  auto port = GetPort(*attributes, where);
  if (!port) return port.error();
  return PortReply{std::move(*attributes), std::move(*handle), *port};
}

Result<std::string> GetCounterName(const std::vector<Attribute>& fields, std::string_view where) {
  const Attribute* name = netlink::FindAttribute(fields, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME);
  if (name == nullptr) {
    return Error{std::string(where) + ": RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY without _ENTRY_NAME"};
  }
  auto n = netlink::GetString(*name, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME");
  if (!n) return Prefixed(where, n.error());
  if (auto ok = detail::CheckName(*n, std::string(where) + ": RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME");
      !ok) {
    return ok.error();
  }
  return std::move(*n);
}

// The entries of a STAT_HWCOUNTERS nest; `each` reads one entry's fields.
template <class Each>
Status ForEachEntry(const Attribute& table, std::string_view where, Each each) {
  auto entries = netlink::GetNested(table, "RDMA_NLDEV_ATTR_STAT_HWCOUNTERS");
  if (!entries) return Prefixed(where, entries.error());
  std::set<std::string> seen;
  std::size_t count = 0;
  for (const Attribute& e : *entries) {
    if (e.type != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY) continue;
    if (++count > kMaxHwCounters) {
      return Error{std::string(where) + ": more than " + std::to_string(kMaxHwCounters) +
                   " RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY"};
    }
    auto fields = netlink::GetNested(e, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY");
    if (!fields) return Prefixed(where, fields.error());
    auto name = GetCounterName(*fields, where);
    if (!name) return name.error();
    if (!seen.insert(*name).second) {
      return Error{std::string(where) + ": counter \"" + *name + "\" twice"};
    }
    if (auto ok = each(std::move(*name), *fields); !ok) return ok.error();
  }
  return {};
}

Result<std::vector<HwCounter>> DecodeHwCounters(const Attribute& table, std::string_view where) {
  std::vector<HwCounter> counters;
  auto ok = ForEachEntry(table, where, [&](std::string name, const std::vector<Attribute>& fields) -> Status {
    const Attribute* value =
        netlink::FindAttribute(fields, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE);
    if (value == nullptr) {
      return Error{std::string(where) + ": counter \"" + name + "\" without _ENTRY_VALUE"};
    }
    auto v = netlink::GetU64(*value, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE");
    if (!v) return Prefixed(where, v.error());
    counters.push_back(HwCounter{std::move(name), *v});
    return {};
  });
  if (!ok) return ok.error();
  return counters;
}

Result<CounterMode> GetMode(const Attribute& a, std::string_view where) {
  auto v = netlink::GetU32(a, "RDMA_NLDEV_ATTR_STAT_MODE");
  if (!v) return Prefixed(where, v.error());
  if (*v >= RDMA_COUNTER_MODE_MAX) {
    return Error{std::string(where) + ": RDMA_NLDEV_ATTR_STAT_MODE " + std::to_string(*v) +
                 " is not none (0), auto (1) or manual (2)"};
  }
  return static_cast<CounterMode>(*v);
}

Result<std::vector<std::uint32_t>> DecodeQps(const Attribute& table, std::string_view where) {
  auto entries = netlink::GetNested(table, "RDMA_NLDEV_ATTR_RES_QP");
  if (!entries) return Prefixed(where, entries.error());
  std::vector<std::uint32_t> qps;
  for (const Attribute& e : *entries) {
    if (e.type != RDMA_NLDEV_ATTR_RES_QP_ENTRY) continue;
    if (qps.size() == kMaxBoundQps) {
      return Error{std::string(where) + ": more than " + std::to_string(kMaxBoundQps) +
                   " bound QPs"};
    }
    auto fields = netlink::GetNested(e, "RDMA_NLDEV_ATTR_RES_QP_ENTRY");
    if (!fields) return Prefixed(where, fields.error());
    const Attribute* lqpn = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_RES_LQPN);
    if (lqpn == nullptr) {
      return Error{std::string(where) + ": RDMA_NLDEV_ATTR_RES_QP_ENTRY without RES_LQPN"};
    }
    auto q = netlink::GetU32(*lqpn, "RDMA_NLDEV_ATTR_RES_LQPN");
    if (!q) return Prefixed(where, q.error());
    qps.push_back(*q);
  }
  return qps;
}

Result<BoundCounter> DecodeBoundCounter(const Attribute& entry, const DeviceHandle& device,
                                        std::string_view where) {
  auto fields = netlink::GetNested(entry, "RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY");
  if (!fields) return Prefixed(where, fields.error());
  BoundCounter counter;
  counter.device = device;
  auto port = GetPort(*fields, where);
  if (!port) return port.error();
  counter.port = *port;
  const Attribute* id = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_STAT_COUNTER_ID);
  if (id == nullptr) return Error{std::string(where) + ": no RDMA_NLDEV_ATTR_STAT_COUNTER_ID"};
  auto i = netlink::GetU32(*id, "RDMA_NLDEV_ATTR_STAT_COUNTER_ID");
  if (!i) return Prefixed(where, i.error());
  counter.id = *i;
  const std::string here = std::string(where) + ": counter " + std::to_string(counter.id);
  if (const Attribute* m = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_STAT_MODE)) {
    auto mode = GetMode(*m, here);
    if (!mode) return mode.error();
    counter.mode = *mode;
  }
  if (const Attribute* t = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_RES_TYPE)) {
    auto v = netlink::GetU8(*t, "RDMA_NLDEV_ATTR_RES_TYPE");
    if (!v) return Prefixed(here, v.error());
    counter.qp_type = *v;
  }
  if (const Attribute* p = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_RES_PID)) {
    auto v = netlink::GetU32(*p, "RDMA_NLDEV_ATTR_RES_PID");
    if (!v) return Prefixed(here, v.error());
    counter.pid = *v;
  }
  if (const Attribute* q = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_RES_QP)) {
    auto qps = DecodeQps(*q, here);
    if (!qps) return qps.error();
    counter.qps = std::move(*qps);
  }
  if (const Attribute* h = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS)) {
    auto counters = DecodeHwCounters(*h, here);
    if (!counters) return counters.error();
    counter.counters = std::move(*counters);
  }
  return counter;
}

}  // namespace

Result<PortCounters> DecodeStatReply(Bytes reply) {
  constexpr std::string_view kWhere = "rdma netlink STAT_GET reply";
  auto head = DecodePortReply(reply, RDMA_NLDEV_CMD_STAT_GET, kWhere);
  if (!head) return head.error();
  const std::vector<Attribute>& attributes = head->attributes;
  PortCounters out;
  out.device = std::move(head->device);
  out.port = head->port;
  const Attribute* table = netlink::FindAttribute(attributes, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  if (table == nullptr) return Error{std::string(kWhere) + ": no RDMA_NLDEV_ATTR_STAT_HWCOUNTERS"};
  auto counters = DecodeHwCounters(*table, kWhere);
  if (!counters) return counters.error();
  out.counters = std::move(*counters);
  return out;
}

Result<OptionalCounters> DecodeStatStatusReply(Bytes reply) {
  constexpr std::string_view kWhere = "rdma netlink STAT_GET_STATUS reply";
  auto head = DecodePortReply(reply, RDMA_NLDEV_CMD_STAT_GET_STATUS, kWhere);
  if (!head) return head.error();
  const std::vector<Attribute>& attributes = head->attributes;
  OptionalCounters out;
  out.device = std::move(head->device);
  out.port = head->port;
  const Attribute* table = netlink::FindAttribute(attributes, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  if (table == nullptr) return out;  // a driver without optional counters sends an empty nest
  auto ok = ForEachEntry(*table, kWhere, [&](std::string name, const std::vector<Attribute>& fields) -> Status {
    const Attribute* index = netlink::FindAttribute(fields, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX);
    const Attribute* dynamic =
        netlink::FindAttribute(fields, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC);
    if (index == nullptr || dynamic == nullptr) {
      return Error{std::string(kWhere) + ": counter \"" + name + "\" without " +
                   (index == nullptr ? "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX"
                                     : "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC")};
    }
    auto i = netlink::GetU32(*index, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX");
    if (!i) return Prefixed(kWhere, i.error());
    auto d = netlink::GetU8(*dynamic, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC");
    if (!d) return Prefixed(kWhere, d.error());
    out.counters.push_back(OptionalCounter{std::move(name), *i, *d != 0});
    return {};
  });
  if (!ok) return ok.error();
  return out;
}

std::string_view CounterModeName(CounterMode mode) {
  switch (mode) {
    case CounterMode::kNone:
      return "none";
    case CounterMode::kAuto:
      return "auto";
    case CounterMode::kManual:
      return "manual";
  }
  return "unknown";
}

Result<PortCounterMode> DecodeCounterModeReply(Bytes reply) {
  constexpr std::string_view kWhere = "rdma netlink STAT_GET qp mode reply";
  auto head = DecodePortReply(reply, RDMA_NLDEV_CMD_STAT_GET, kWhere);
  if (!head) return head.error();
  const std::vector<Attribute>& attributes = head->attributes;
  PortCounterMode out;
  out.device = std::move(head->device);
  out.port = head->port;
  const Attribute* mode = netlink::FindAttribute(attributes, RDMA_NLDEV_ATTR_STAT_MODE);
  if (mode == nullptr) return Error{std::string(kWhere) + ": no RDMA_NLDEV_ATTR_STAT_MODE"};
  auto m = GetMode(*mode, kWhere);
  if (!m) return m.error();
  out.mode = *m;
  if (const Attribute* mask =
          netlink::FindAttribute(attributes, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK)) {
    auto v = netlink::GetU32(*mask, "RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK");
    if (!v) return Prefixed(kWhere, v.error());
    out.auto_mask = *v;
  }
  if (out.mode != CounterMode::kAuto && out.auto_mask != 0) {
    return Error{std::string(kWhere) + ": an auto-mode mask in " +
                 std::string(CounterModeName(out.mode)) + " mode"};
  }
  return out;
}

Result<std::vector<BoundCounter>> DecodeBoundCountersDump(Bytes reply) {
  constexpr std::string_view kWhere = "rdma netlink STAT_GET qp dump";
  auto messages = netlink::ParseMessages(reply, kWhere);
  if (!messages) return messages.error();
  std::vector<BoundCounter> counters;
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;  // (device, counter id)
  bool done = false;
  for (const netlink::Message& m : *messages) {
    if (m.type == NLMSG_NOOP) continue;
    if (m.type == NLMSG_DONE) {
      done = true;
      break;
    }
    if (m.type == NLMSG_ERROR) {
      auto error = netlink::DecodeErrorMessage(m, kWhere);
      if (!error) return error.error();
      if (error->errno_value == 0) continue;
      std::string text =
          std::string(kWhere) + ": kernel answered " + netlink::DescribeErrno(error->errno_value);
      if (!error->extack.empty()) text += ": " + error->extack;
      return Error{std::move(text), error->errno_value};
    }
    if (m.type != MessageType(RDMA_NLDEV_CMD_STAT_GET)) {
      return Error{std::string(kWhere) + ": message of type " + std::to_string(m.type)};
    }
    auto attributes = netlink::ParseAttributes(m.payload, kWhere);
    if (!attributes) return attributes.error();
    auto handle = detail::GetHandle(*attributes, kWhere);
    if (!handle) return handle.error();
    const Attribute* table = netlink::FindAttribute(*attributes, RDMA_NLDEV_ATTR_STAT_COUNTER);
    if (table == nullptr) continue;  // a port without bound counters
    auto entries = netlink::GetNested(*table, "RDMA_NLDEV_ATTR_STAT_COUNTER");
    if (!entries) return Prefixed(kWhere, entries.error());
    for (const Attribute& e : *entries) {
      if (e.type != RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY) continue;
      if (counters.size() == kMaxHwCounters) {
        return Error{std::string(kWhere) + ": more than " + std::to_string(kMaxHwCounters) +
                     " bound counters"};
      }
      auto counter = DecodeBoundCounter(e, *handle, kWhere);
      if (!counter) return counter.error();
      if (!seen.insert({counter->device.index, counter->id}).second) {
        return Error{std::string(kWhere) + ": counter " + std::to_string(counter->id) + " twice"};
      }
      counters.push_back(std::move(*counter));
    }
  }
  if (!done) return Error{std::string(kWhere) + ": no NLMSG_DONE (truncated dump)"};
  return counters;
}

}  // namespace rocewatch::rdma_nl
