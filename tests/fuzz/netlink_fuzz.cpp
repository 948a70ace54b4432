// The generic netlink walker: a recv() buffer split into messages (ParseMessages), NLMSG_ERROR
// payloads (DecodeErrorMessage), the reply pickers (ExpectReply, ExpectDataReply), and every
// payload walked as attributes, nests included, with each typed getter tried on each attribute.

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cstddef>
#include <cstdint>

#include "exporter/netlink/attributes.h"
#include "exporter/netlink/messages.h"
#include "fuzz_check.h"

namespace {

using namespace rocewatch;

// Every attribute's payload lies inside `data`, in order, without overlap.
void CheckWithin(const std::vector<netlink::Attribute>& attributes, netlink::Bytes data) {
  const std::uint8_t* previous_end = data.data();
  for (const auto& a : attributes) {
    FUZZ_CHECK(a.payload.data() >= previous_end);
    FUZZ_CHECK(a.payload.data() + a.payload.size() <= data.data() + data.size());
    FUZZ_CHECK((a.type & ~NLA_TYPE_MASK) == 0);
    previous_end = a.payload.data() + a.payload.size();
  }
}

void Walk(netlink::Bytes data, int depth) {
  auto attributes = netlink::ParseAttributes(data, "fuzz");
  if (!attributes.ok()) return;
  CheckWithin(*attributes, data);
  for (const auto& a : *attributes) {
    FUZZ_CHECK(netlink::FindAttribute(*attributes, a.type) != nullptr);
    if (auto v = netlink::GetU8(a, "u8"); v.ok()) FUZZ_CHECK(a.payload.size() == 1);
    if (auto v = netlink::GetU16(a, "u16"); v.ok()) FUZZ_CHECK(a.payload.size() == 2);
    if (auto v = netlink::GetU32(a, "u32"); v.ok()) FUZZ_CHECK(a.payload.size() == 4);
    if (auto v = netlink::GetU64(a, "u64"); v.ok()) FUZZ_CHECK(a.payload.size() == 8);
    if (auto s = netlink::GetString(a, "string"); s.ok()) {
      FUZZ_CHECK(s->size() < a.payload.size());
      FUZZ_CHECK(s->find('\0') == std::string::npos);
    }
    if (depth < 8) {
      if (auto nested = netlink::GetNested(a, "nest"); nested.ok()) {
        CheckWithin(*nested, a.payload);
        Walk(a.payload, depth + 1);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto buffer = fuzz::Bytes(data, size);
  auto messages = netlink::ParseMessages(buffer, "fuzz");
  if (messages.ok()) {
    FUZZ_CHECK(messages->size() <= size / NLMSG_HDRLEN);
    for (const auto& m : *messages) {
      FUZZ_CHECK(m.payload.data() >= buffer.data());
      FUZZ_CHECK(m.payload.data() + m.payload.size() <= buffer.data() + buffer.size());
      if (m.type == NLMSG_ERROR) {
        auto error = netlink::DecodeErrorMessage(m, "fuzz");
        if (error.ok()) FUZZ_CHECK(error->errno_value >= 0);
      }
      // rtnetlink families put a 4-byte header first (struct dcbmsg), genetlink too
      // (struct genlmsghdr); walk both readings.
      Walk(m.payload, 0);
      if (m.payload.size() >= GENL_HDRLEN) Walk(m.payload.subspan(GENL_HDRLEN), 0);
    }
  }
  auto reply = netlink::ExpectReply(buffer, 0x4e /* RTM_GETDCB */, "fuzz");
  if (!reply.ok()) FUZZ_CHECK(reply.error().code >= 0);
  auto data_reply = netlink::ExpectDataReply(buffer, "fuzz");
  if (data_reply.ok()) FUZZ_CHECK(data_reply->type >= NLMSG_MIN_TYPE);
  // The walker alone, on the raw bytes.
  Walk(buffer, 0);
  return 0;
}
