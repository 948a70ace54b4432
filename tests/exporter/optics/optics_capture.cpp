#include "exporter/optics/optics_capture.h"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include "exporter/capture/files/capture_files.h"
#include "exporter/netlink/ethtool_genl.h"
#include "exporter/netlink/message_builder.h"
#include "exporter/optics/identifiers.h"
#include "exporter/optics/ioctl_layout.h"
#include "exporter/optics/pages_to_read.h"
#include "exporter/optics/images.h"

namespace rocewatch::optics::testing {
namespace {

// The port the replies are addressed to (netlink_unicast to the requester), as in the replies
// captured from a real kernel in tests/exporter/netlink.
constexpr std::uint32_t kRequesterPort = 15338;

// Page views that can be edited: the halves of an image, copied out and written back.
class EditablePages {
 public:
  explicit EditablePages(const EepromImage& image) {
    for (std::uint8_t address : image.LowerAddresses()) {
      auto half = image.Lower(address);
      lower_[address].assign(half->begin(), half->end());
    }
    for (PageId id : image.UpperPages()) {
      auto half = image.Upper(id);
      upper_[id].assign(half->begin(), half->end());
    }
  }

  EepromImage Build() const {
    EepromImage image;
    for (const auto& [address, bytes] : lower_) image.SetLower(address, bytes);
    for (const auto& [id, bytes] : upper_) image.SetUpper(id, bytes);
    return image;
  }

  // Byte `offset` (0-255) of window `id`, nullptr when that half was not read or is short.
  std::uint8_t* Byte(PageId id, unsigned offset) {
    std::vector<std::uint8_t>* half = nullptr;
    if (offset < kHalfPageSize) {
      auto it = lower_.find(id.i2c_address);
      if (it != lower_.end()) half = &it->second;
    } else {
      auto it = upper_.find(id);
      if (it != upper_.end()) half = &it->second;
    }
    const unsigned index = offset % kHalfPageSize;
    return half != nullptr && index < half->size() ? half->data() + index : nullptr;
  }
  std::optional<std::uint16_t> U16(PageId id, unsigned offset) {
    std::uint8_t* hi = Byte(id, offset);
    std::uint8_t* lo = Byte(id, offset + 1);
    if (hi == nullptr || lo == nullptr) return std::nullopt;
    return static_cast<std::uint16_t>(*hi << 8 | *lo);
  }
  void SetU16(PageId id, unsigned offset, std::uint16_t value) {
    if (std::uint8_t* hi = Byte(id, offset)) *hi = static_cast<std::uint8_t>(value >> 8);
    if (std::uint8_t* lo = Byte(id, offset + 1)) *lo = static_cast<std::uint8_t>(value & 0xff);
  }
  void SetBit(PageId id, unsigned offset, unsigned bit, bool on) {
    std::uint8_t* b = Byte(id, offset);
    if (b == nullptr) return;
    const auto mask = static_cast<std::uint8_t>(1u << bit);
    *b = on ? static_cast<std::uint8_t>(*b | mask) : static_cast<std::uint8_t>(*b & ~mask);
  }
  std::vector<PageId> UpperPages() const {
    std::vector<PageId> ids;
    for (const auto& [id, bytes] : upper_) ids.push_back(id);
    return ids;
  }

 private:
  std::map<std::uint8_t, std::vector<std::uint8_t>> lower_;
  std::map<PageId, std::vector<std::uint8_t>> upper_;
};

// Raw thresholds in the order the specifications store them: high alarm, low alarm, high
// warning, low warning (each a u16 in the monitor's own encoding).
struct RawThresholds {
  std::uint16_t high_alarm, low_alarm, high_warning, low_warning;
};
std::optional<RawThresholds> ReadThresholds(EditablePages& pages, PageId id, unsigned offset) {
  auto ha = pages.U16(id, offset);
  auto la = pages.U16(id, offset + 2);
  auto hw = pages.U16(id, offset + 4);
  auto lw = pages.U16(id, offset + 6);
  if (!ha || !la || !hw || !lw) return std::nullopt;
  return RawThresholds{*ha, *la, *hw, *lw};
}

std::uint16_t Scale(std::uint16_t raw, double scale) {
  const double v = std::round(raw * scale);
  return static_cast<std::uint16_t>(std::clamp(v, 0.0, 65535.0));
}

// SFF-8472 rev 12.4: A2h 104-105 RX power (Table 9-11), thresholds at A2h 32-39 (Table 9-5),
// flags A2h 113 bits 7/6 (alarms) and 117 bits 7/6 (warnings) (Table 9-12).
void ScaleSff8472(EditablePages& pages, double scale) {
  const PageId a2{kI2cAddressA2, 0, 0};
  auto raw = pages.U16(a2, 104);
  if (!raw) return;
  const std::uint16_t value = Scale(*raw, scale);
  pages.SetU16(a2, 104, value);
  if (auto t = ReadThresholds(pages, a2, 32)) {
    pages.SetBit(a2, 113, 7, value > t->high_alarm);
    pages.SetBit(a2, 113, 6, value < t->low_alarm);
    pages.SetBit(a2, 117, 7, value > t->high_warning);
    pages.SetBit(a2, 117, 6, value < t->low_warning);
  }
}

// SFF-8636 rev 2.10a: lower page 34-41 RX power lanes 1-4 (Table 6-8), page 03h 176-183
// thresholds (Table 6-26), lower page bytes 9-10 flags: lane 1 bits 7-4 of byte 9 (HA, LA, HW,
// LW), lane 2 bits 3-0, lanes 3-4 likewise in byte 10 (Table 6-6).
void ScaleSff8636(EditablePages& pages, double scale) {
  const PageId page00{kI2cAddressA0, 0, 0};
  const auto thresholds = ReadThresholds(pages, {kI2cAddressA0, 0, 0x03}, 176);
  for (unsigned lane = 0; lane < 4; ++lane) {
    auto raw = pages.U16(page00, 34 + 2 * lane);
    if (!raw) continue;
    const std::uint16_t value = Scale(*raw, scale);
    pages.SetU16(page00, 34 + 2 * lane, value);
    if (!thresholds) continue;
    const unsigned byte = 9 + lane / 2;
    const unsigned top = lane % 2 == 0 ? 7 : 3;
    pages.SetBit(page00, byte, top, value > thresholds->high_alarm);
    pages.SetBit(page00, byte, top - 1, value < thresholds->low_alarm);
    pages.SetBit(page00, byte, top - 2, value > thresholds->high_warning);
    pages.SetBit(page00, byte, top - 3, value < thresholds->low_warning);
  }
}

// CMIS 5.2: page 11h 186-201 RX power lanes 1-8 of the bank (Table 8-83), page 02h 192-199
// thresholds (Table 8-60), page 11h 149-152 RX power HA, LA, HW, LW flags, bit n = lane n+1
// (Table 8-79).
void ScaleCmis(EditablePages& pages, double scale) {
  const auto thresholds = ReadThresholds(pages, {kI2cAddressA0, 0, 0x02}, 192);
  for (PageId id : pages.UpperPages()) {
    if (id.i2c_address != kI2cAddressA0 || id.page != 0x11) continue;
    for (unsigned lane = 0; lane < 8; ++lane) {
      auto raw = pages.U16(id, 186 + 2 * lane);
      if (!raw) continue;
      const std::uint16_t value = Scale(*raw, scale);
      pages.SetU16(id, 186 + 2 * lane, value);
      if (!thresholds) continue;
      pages.SetBit(id, 149, lane, value > thresholds->high_alarm);
      pages.SetBit(id, 150, lane, value < thresholds->low_alarm);
      pages.SetBit(id, 151, lane, value > thresholds->high_warning);
      pages.SetBit(id, 152, lane, value < thresholds->low_warning);
    }
  }
}

// The half a read addresses, if the image has it.
std::optional<std::span<const std::uint8_t>> HalfFor(const EepromImage& image,
                                                     const kernel::ModulePage& r) {
  if (r.offset == 0) return image.Lower(r.i2c_address);
  return image.Upper({r.i2c_address, r.bank, r.page});
}

std::string ErrorIn(const std::string& capture_dir, const Status& s) {
  return "optics capture " + capture_dir + ": " + s.error().message;
}

Status Write(const std::string& capture_dir, const std::string& key, kernel::Answer answer) {
  Status s = kernel::WriteAnswer(capture_dir, key, answer);
  if (!s) return Error{ErrorIn(capture_dir, s)};
  return {};
}

}  // namespace

std::vector<std::string> ImageNames() {
  std::vector<std::string> names;
  for (const auto& named : AllImages()) names.push_back(named.name);
  return names;
}

std::optional<EepromImage> ImageByName(const std::string& name) {
  for (auto& named : AllImages()) {
    if (named.name == name) return std::move(named.image);
  }
  return std::nullopt;
}

Result<EepromImage> ScaleRxPower(const EepromImage& image, double scale) {
  if (!std::isfinite(scale) || scale < 0) {
    return Error{"RX power scale must be a finite number >= 0, not " + std::to_string(scale)};
  }
  auto lower = image.Lower();
  if (!lower || lower->empty()) return Error{"the image has no lower page"};
  EditablePages pages(image);
  switch (FamilyOf((*lower)[0])) {
    case Family::kSff8472:
      ScaleSff8472(pages, scale);
      break;
    case Family::kSff8636:
      ScaleSff8636(pages, scale);
      break;
    case Family::kCmis:
      ScaleCmis(pages, scale);
      break;
    case Family::kUnknown:
      return Error{"identifier " + std::to_string((*lower)[0]) + " has no known RX power field"};
  }
  return pages.Build();
}

kernel::ModulePage LowerPage() { return kernel::ModulePage{kI2cAddressA0, 0, 0, 0, 128}; }

std::vector<kernel::ModulePage> NetlinkReads(const EepromImage& image) {
  // What the source knows grows with what it read, exactly as in the source.
  EepromImage known;
  std::vector<kernel::ModulePage> reads;
  std::set<std::tuple<std::uint8_t, std::uint8_t, std::uint8_t, std::uint32_t>> asked;
  for (int pass = 0; pass < 8; ++pass) {
    bool grew = false;
    for (const PageRequest& r : PagesToRead(known)) {
      kernel::ModulePage page{r.page.i2c_address, r.page.bank, r.page.page, r.offset, r.length};
      if (!asked.insert({page.i2c_address, page.bank, page.page, page.offset}).second) continue;
      reads.push_back(page);
      auto half = HalfFor(image, page);
      if (!half) continue;
      if (page.offset == 0) {
        known.SetLower(page.i2c_address, *half);
      } else {
        known.SetUpper(r.page, *half);
      }
      grew = true;
    }
    if (!grew) break;
  }
  return reads;
}

std::vector<std::uint8_t> ModuleEepromReply(const std::string& netdev, std::uint32_t ifindex,
                                            std::uint32_t seq,
                                            const std::vector<std::uint8_t>& data) {
  // genlmsg_put(skb, portid, seq, &ethtool_genl_family, 0, ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY)
  netlink::MessageBuilder builder(kEthtoolFamilyId, 0, seq);
  genlmsghdr genl{};
  genl.cmd = ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY;
  genl.version = ETHTOOL_GENL_VERSION;
  builder.PutFamilyHeader(genl);
  // ethnl_fill_reply_header: nla_nest_start (NLA_F_NESTED), DEV_INDEX, DEV_NAME.
  const std::size_t nest = builder.BeginNest(ETHTOOL_A_MODULE_EEPROM_HEADER);
  builder.PutU32(ETHTOOL_A_HEADER_DEV_INDEX, ifindex);
  builder.PutString(ETHTOOL_A_HEADER_DEV_NAME, netdev);
  builder.EndNest(nest);
  // eeprom_fill_reply: nla_put(ETHTOOL_A_MODULE_EEPROM_DATA, reply->length, reply->data).
  builder.PutBytes(ETHTOOL_A_MODULE_EEPROM_DATA, data);
  std::vector<std::uint8_t> bytes = std::move(builder).Finish();
  const std::uint32_t port = kRequesterPort;
  std::memcpy(bytes.data() + offsetof(nlmsghdr, nlmsg_pid), &port, sizeof port);
  return bytes;
}

std::vector<std::uint8_t> ModuleEepromError(const std::string& netdev,
                                            const kernel::ModulePage& page, std::uint32_t seq,
                                            int errno_value) {
  ethtool_nl::ModuleEepromRequest r;
  r.offset = page.offset;
  r.length = page.length;
  r.page = page.page;
  r.bank = page.bank;
  r.i2c_address = page.i2c_address;
  auto request = ethtool_nl::BuildModuleEepromRequest(kEthtoolFamilyId, netdev, r, seq);
  if (!request) return {};
  // netlink_ack without NETLINK_CAP_ACK or extended acks (the exporter's socket sets neither):
  // nlmsghdr, struct nlmsgerr {int error = -errno; the request's header}, the rest of the
  // request. The request is already 4-byte aligned.
  nlmsghdr header{};
  header.nlmsg_len =
      static_cast<std::uint32_t>(NLMSG_HDRLEN + sizeof(std::int32_t) + request->size());
  header.nlmsg_type = NLMSG_ERROR;
  header.nlmsg_flags = 0;
  header.nlmsg_seq = seq;
  header.nlmsg_pid = kRequesterPort;
  const std::int32_t error = -errno_value;
  std::vector<std::uint8_t> bytes(sizeof header + sizeof error);
  std::memcpy(bytes.data(), &header, sizeof header);
  std::memcpy(bytes.data() + sizeof header, &error, sizeof error);
  bytes.insert(bytes.end(), request->begin(), request->end());
  return bytes;
}

IoctlModule IoctlLayout(const EepromImage& image) {
  optics::IoctlModule layout = IoctlModuleLayout(image);
  return IoctlModule{layout.type, std::move(layout.raw)};
}

Status WriteNetlinkPages(const std::string& capture_dir, const std::string& netdev,
                         const EepromImage& image, const CaptureOptions& options) {
  EepromImage module = image;
  if (options.rx_power_scale) {
    auto scaled = ScaleRxPower(image, *options.rx_power_scale);
    if (!scaled) return Error{"optics capture: " + scaled.error().message};
    module = std::move(*scaled);
  }
  std::uint32_t seq = 1;
  for (const kernel::ModulePage& page : NetlinkReads(module)) {
    auto half = HalfFor(module, page);
    // A page the module advertises but the image lacks: the driver cannot address it.
    std::vector<std::uint8_t> bytes =
        half ? ModuleEepromReply(netdev, options.ifindex, seq,
                                 std::vector<std::uint8_t>(half->begin(), half->end()))
             : ModuleEepromError(netdev, page, seq, EINVAL);
    ++seq;
    if (Status s =
            Write(capture_dir, kernel::call::ModuleEepromPage{netdev, page}.Key(), {bytes, 0});
        !s)
      return s;
  }
  return {};
}

Status WriteIoctl(const std::string& capture_dir, const std::string& netdev,
                  const EepromImage& image) {
  const IoctlModule module = IoctlLayout(image);
  if (module.raw.empty()) return Error{"optics capture: the image has no lower page"};
  ethtool_modinfo info{};
  info.cmd = ETHTOOL_GMODULEINFO;
  info.type = module.type;
  info.eeprom_len = static_cast<std::uint32_t>(module.raw.size());
  std::vector<std::uint8_t> info_bytes(sizeof info);
  std::memcpy(info_bytes.data(), &info, sizeof info);
  if (Status s = Write(capture_dir, kernel::call::ModuleInfo{netdev}.Key(), {info_bytes, 0}); !s)
    return s;

  ethtool_eeprom header{};
  header.cmd = ETHTOOL_GMODULEEEPROM;
  header.offset = 0;
  header.len = info.eeprom_len;
  std::vector<std::uint8_t> eeprom_bytes(sizeof header);
  std::memcpy(eeprom_bytes.data(), &header, sizeof header);
  eeprom_bytes.insert(eeprom_bytes.end(), module.raw.begin(), module.raw.end());
  return Write(capture_dir, kernel::call::ModuleEeprom{netdev, 0, info.eeprom_len}.Key(),
               {eeprom_bytes, 0});
}

Status WriteModule(const std::string& capture_dir, const std::string& netdev,
                   const EepromImage& image, const CaptureOptions& options) {
  EepromImage module = image;
  if (options.rx_power_scale) {
    auto scaled = ScaleRxPower(image, *options.rx_power_scale);
    if (!scaled) return Error{"optics capture: " + scaled.error().message};
    module = std::move(*scaled);
  }
  CaptureOptions unscaled = options;
  unscaled.rx_power_scale.reset();
  if (Status s = WriteNetlinkPages(capture_dir, netdev, module, unscaled); !s) return s;
  return WriteIoctl(capture_dir, netdev, module);
}

Status WriteNetlinkError(const std::string& capture_dir, const std::string& netdev,
                         const kernel::ModulePage& page, int errno_value) {
  auto bytes = ModuleEepromError(netdev, page, 1, errno_value);
  if (bytes.empty()) return Error{"optics capture: cannot build a request for " + netdev};
  return Write(capture_dir, kernel::call::ModuleEepromPage{netdev, page}.Key(), {bytes, 0});
}

Status WriteIoctlError(const std::string& capture_dir, const std::string& netdev, int errno_value) {
  return Write(capture_dir, kernel::call::ModuleInfo{netdev}.Key(), {{}, errno_value});
}

Status WriteEmptyCage(const std::string& capture_dir, const std::string& netdev,
                      EmptyCageAnswer answer, const CaptureOptions& options) {
  Status s = answer == EmptyCageAnswer::kNoData
                 ? Write(capture_dir, kernel::call::ModuleEepromPage{netdev, LowerPage()}.Key(),
                         {ModuleEepromReply(netdev, options.ifindex, 1, {}), 0})
                 : WriteNetlinkError(capture_dir, netdev, LowerPage(), EIO);
  if (!s) return s;
  return WriteIoctlError(capture_dir, netdev, EIO);
}

Status WriteNoModuleInterface(const std::string& capture_dir, const std::string& netdev) {
  if (Status s = WriteNetlinkError(capture_dir, netdev, LowerPage(), EOPNOTSUPP); !s) return s;
  return WriteIoctlError(capture_dir, netdev, EOPNOTSUPP);
}

Status WritePermissionDenied(const std::string& capture_dir, const std::string& netdev) {
  if (Status s = WriteNetlinkError(capture_dir, netdev, LowerPage(), EPERM); !s) return s;
  return WriteIoctlError(capture_dir, netdev, EPERM);
}

}  // namespace rocewatch::optics::testing
