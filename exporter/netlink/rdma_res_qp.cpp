#include "exporter/netlink/rdma_res_qp.h"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <string>

#include "exporter/netlink/messages.h"

namespace rocewatch::rdma_nl {
namespace {

using detail::Prefixed;
using netlink::Attribute;

// An optional integer attribute of an entry, read with `get` when present.
template <class T, class Get>
Status ReadOptional(const std::vector<Attribute>& fields, std::uint16_t type,
                    std::string_view name, std::string_view where, Get get,
                    std::optional<T>& out) {
  const Attribute* a = netlink::FindAttribute(fields, type);
  if (a == nullptr) return {};
  auto v = get(*a, name);
  if (!v) return Prefixed(where, v.error());
  out = *v;
  return {};
}

Result<ResourceQp> DecodeEntry(const Attribute& entry, std::string_view where) {
  auto fields = netlink::GetNested(entry, "RDMA_NLDEV_ATTR_RES_QP_ENTRY");
  if (!fields) return Prefixed(where, fields.error());
  ResourceQp qp;
  const Attribute* lqpn = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_RES_LQPN);
  if (lqpn == nullptr) {
    return Error{std::string(where) + ": RDMA_NLDEV_ATTR_RES_QP_ENTRY without RES_LQPN"};
  }
  auto n = netlink::GetU32(*lqpn, "RDMA_NLDEV_ATTR_RES_LQPN");
  if (!n) return Prefixed(where, n.error());
  qp.lqpn = *n;
  const std::string here = std::string(where) + ": QP " + std::to_string(qp.lqpn);
  Status ok = ReadOptional(*fields, RDMA_NLDEV_ATTR_PORT_INDEX, "RDMA_NLDEV_ATTR_PORT_INDEX",
                           here, netlink::GetU32, qp.port);
  if (ok) {
    ok = ReadOptional(*fields, RDMA_NLDEV_ATTR_RES_PID, "RDMA_NLDEV_ATTR_RES_PID", here,
                      netlink::GetU32, qp.pid);
  }
  if (ok) {
    ok = ReadOptional(*fields, RDMA_NLDEV_ATTR_RES_TYPE, "RDMA_NLDEV_ATTR_RES_TYPE", here,
                      netlink::GetU8, qp.type);
  }
  if (ok) {
    ok = ReadOptional(*fields, RDMA_NLDEV_ATTR_RES_STATE, "RDMA_NLDEV_ATTR_RES_STATE", here,
                      netlink::GetU8, qp.state);
  }
  if (!ok) return ok.error();
  if (qp.port && *qp.port == 0) {
    return Error{here + ": RDMA_NLDEV_ATTR_PORT_INDEX 0 (ports start at 1)"};
  }
  if (const Attribute* k = netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_RES_KERN_NAME)) {
    if (qp.pid) return Error{here + ": both RDMA_NLDEV_ATTR_RES_PID and _RES_KERN_NAME"};
    auto name = netlink::GetString(*k, "RDMA_NLDEV_ATTR_RES_KERN_NAME");
    if (!name) return Prefixed(here, name.error());
    if (auto valid = detail::CheckName(*name, here + ": RDMA_NLDEV_ATTR_RES_KERN_NAME"); !valid) {
      return valid.error();
    }
    qp.kernel_owner = std::move(*name);
  }
  return qp;
}

}  // namespace

Result<ResourceQps> DecodeResourceQpDump(netlink::Bytes reply) {
  constexpr std::string_view kWhere = "rdma netlink RES_QP_GET dump";
  auto messages = detail::DumpMessages(reply, RDMA_NLDEV_CMD_RES_QP_GET, kWhere);
  if (!messages) return messages.error();
  ResourceQps out;
  bool first = true;
  for (const netlink::Message& m : *messages) {
    auto attributes = netlink::ParseAttributes(m.payload, kWhere);
    if (!attributes) return attributes.error();
    auto handle = detail::GetHandle(*attributes, kWhere);
    if (!handle) return handle.error();
    if (first) {
      out.device = std::move(*handle);
      first = false;
    } else if (handle->index != out.device.index || handle->name != out.device.name) {
      return Error{std::string(kWhere) + ": messages about " + out.device.name + " and " +
                   handle->name};
    }
    const Attribute* table = netlink::FindAttribute(*attributes, RDMA_NLDEV_ATTR_RES_QP);
    if (table == nullptr) continue;
    auto entries = netlink::GetNested(*table, "RDMA_NLDEV_ATTR_RES_QP");
    if (!entries) return Prefixed(kWhere, entries.error());
    for (const Attribute& e : *entries) {
      if (e.type != RDMA_NLDEV_ATTR_RES_QP_ENTRY) continue;
      if (out.qps.size() == kMaxResourceQps) {
        return Error{std::string(kWhere) + ": more than " + std::to_string(kMaxResourceQps) +
                     " QPs"};
      }
      auto qp = DecodeEntry(e, kWhere);
      if (!qp) return qp.error();
      out.qps.push_back(std::move(*qp));
    }
  }
  return out;
}

}  // namespace rocewatch::rdma_nl
