#pragma once

// Test-only: builds netlink replies the way the kernel does (include/net/netlink.h,
// net/netlink/af_netlink.c), so decoders are tested against kernel-shaped bytes and not
// against our own request builder. Mirrors:
//   nlmsg_put            header + NLMSG_ALIGN(payload) zeroed
//   nla_put              header + payload, padded to NLA_ALIGN with zeros
//   nla_nest_start       nest header with NLA_F_NESTED; nla_nest_start_noflag without
//   nla_nest_end         nla_len = tail - start
//   nla_put_u64_64bit    a zero-length pad attribute first when the u64 would be misaligned
//                        (only on architectures without efficient unaligned access: `pad64`)
//   nlmsg_end            nlmsg_len = tail - start
//   netlink_ack          NLMSG_ERROR {-errno, request (whole, or header only if capped)}
//                        [+ NLMSGERR_ATTR_MSG / NLMSGERR_ATTR_OFFS with NLM_F_ACK_TLVS]

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace rocewatch::testing {

class KernelSkb {
 public:
  // nlmsg_put; returns the message start for NlmsgEnd.
  std::size_t NlmsgPut(std::uint32_t portid, std::uint32_t seq, std::uint16_t type,
                       std::size_t payload, std::uint16_t flags) {
    const std::size_t start = bytes_.size();
    nlmsghdr h{};
    h.nlmsg_len = static_cast<std::uint32_t>(NLMSG_LENGTH(payload));
    h.nlmsg_type = type;
    h.nlmsg_flags = flags;
    h.nlmsg_seq = seq;
    h.nlmsg_pid = portid;
    Append(&h, sizeof(h));
    bytes_.resize(bytes_.size() + NLMSG_ALIGN(payload), 0);
    return start;
  }
  // Writes a family header into the payload nlmsg_put reserved.
  template <class T>
  void SetFamilyHeader(std::size_t message_start, const T& header) {
    std::memcpy(bytes_.data() + message_start + NLMSG_HDRLEN, &header, sizeof(T));
  }
  // genlmsg_put: nlmsg_put + struct genlmsghdr.
  std::size_t GenlmsgPut(std::uint32_t portid, std::uint32_t seq, std::uint16_t family_id,
                         std::uint8_t cmd, std::uint8_t version, std::uint16_t flags = 0) {
    const std::size_t start = NlmsgPut(portid, seq, family_id, GENL_HDRLEN, flags);
    genlmsghdr g{};
    g.cmd = cmd;
    g.version = version;
    SetFamilyHeader(start, g);
    return start;
  }

  void NlaPut(std::uint16_t type, const void* data, std::size_t len) {
    nlattr a{};
    a.nla_len = static_cast<std::uint16_t>(NLA_HDRLEN + len);
    a.nla_type = type;
    Append(&a, sizeof(a));
    Append(data, len);
    bytes_.resize(bytes_.size() + (NLA_ALIGN(len) - len), 0);
  }
  void NlaPutU8(std::uint16_t type, std::uint8_t v) { NlaPut(type, &v, sizeof(v)); }
  void NlaPutU16(std::uint16_t type, std::uint16_t v) { NlaPut(type, &v, sizeof(v)); }
  void NlaPutU32(std::uint16_t type, std::uint32_t v) { NlaPut(type, &v, sizeof(v)); }
  void NlaPutString(std::uint16_t type, std::string_view s) {
    std::vector<char> z(s.begin(), s.end());
    z.push_back('\0');
    NlaPut(type, z.data(), z.size());
  }
  template <class T>
  void NlaPutStruct(std::uint16_t type, const T& value) {
    NlaPut(type, &value, sizeof(T));
  }
  void NlaPutU64With64BitPad(std::uint16_t type, std::uint64_t v, std::uint16_t padattr,
                             bool pad64) {
    // nla_need_padding_for_64bit: the tail is 8-aligned, so the payload would not be.
    if (pad64 && bytes_.size() % 8 == 0) NlaPut(padattr, nullptr, 0);
    NlaPut(type, &v, sizeof(v));
  }

  std::size_t NestStart(std::uint16_t type) {
    return StartNest(static_cast<std::uint16_t>(type | NLA_F_NESTED));
  }
  std::size_t NestStartNoflag(std::uint16_t type) { return StartNest(type); }
  void NestEnd(std::size_t start) {
    const auto len = static_cast<std::uint16_t>(bytes_.size() - start);
    std::memcpy(bytes_.data() + start, &len, sizeof(len));
  }
  void NlmsgEnd(std::size_t start) {
    const auto len = static_cast<std::uint32_t>(bytes_.size() - start);
    std::memcpy(bytes_.data() + start, &len, sizeof(len));
  }

  // netlink_ack for `request` with -errno, sent to the requester's port `portid`.
  // `capped`: NETLINK_CAP_ACK; `extack`: the text and offset of NETLINK_EXT_ACK.
  void Ack(std::span<const std::uint8_t> request, int errno_value, bool capped = false,
           std::string_view extack = {}, std::uint32_t extack_offset = 0,
           std::uint32_t portid = 15338) {
    nlmsghdr req{};
    std::memcpy(&req, request.data(), sizeof(req));
    const std::size_t echoed = capped ? sizeof(nlmsghdr) : req.nlmsg_len;
    std::uint16_t flags = 0;
    if (capped) flags |= NLM_F_CAPPED;
    if (!extack.empty()) flags |= NLM_F_ACK_TLVS;
    const std::size_t start =
        NlmsgPut(portid, req.nlmsg_seq, NLMSG_ERROR, sizeof(int) + echoed, flags);
    const std::int32_t error = -errno_value;
    std::memcpy(bytes_.data() + start + NLMSG_HDRLEN, &error, sizeof(error));
    std::memcpy(bytes_.data() + start + NLMSG_HDRLEN + sizeof(error), request.data(), echoed);
    if (!extack.empty()) {
      NlaPutString(NLMSGERR_ATTR_MSG, extack);
      NlaPutU32(NLMSGERR_ATTR_OFFS, extack_offset);
    }
    NlmsgEnd(start);
  }

  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::vector<std::uint8_t>& mutable_bytes() { return bytes_; }

 private:
  void Append(const void* data, std::size_t len) {
    if (len == 0) return;
    const auto* p = static_cast<const std::uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + len);
  }
  std::size_t StartNest(std::uint16_t raw_type) {
    const std::size_t start = bytes_.size();
    nlattr a{};
    a.nla_len = NLA_HDRLEN;
    a.nla_type = raw_type;
    Append(&a, sizeof(a));
    return start;
  }

  std::vector<std::uint8_t> bytes_;
};

}  // namespace rocewatch::testing
