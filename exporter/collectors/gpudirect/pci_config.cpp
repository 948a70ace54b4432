#include "exporter/collectors/gpudirect/pci_config.h"

namespace rocewatch::collectors::gpudirect {
namespace {

constexpr std::size_t kHeader = 64;
constexpr std::size_t kConfigSize = 256;       // conventional config space
constexpr std::size_t kExtendedSize = 4096;    // PCIe extended config space
constexpr std::uint8_t kCapPcie = 0x10;
constexpr std::uint16_t kExtCapAcs = 0x000D;
constexpr std::uint16_t kExtCapAts = 0x000F;

std::uint8_t U8(std::string_view b, std::size_t off) { return static_cast<std::uint8_t>(b[off]); }
std::uint16_t U16(std::string_view b, std::size_t off) {
  return static_cast<std::uint16_t>(U8(b, off) | (U8(b, off + 1) << 8));
}
std::uint32_t U32(std::string_view b, std::size_t off) {
  return static_cast<std::uint32_t>(U16(b, off)) | (static_cast<std::uint32_t>(U16(b, off + 2)) << 16);
}

// The PCI Express capability's offset in the conventional list, 0 when none or unreadable.
std::size_t FindPcieCap(std::string_view b) {
  if (b.size() < kConfigSize) return 0;
  if ((U16(b, 0x06) & 0x10) == 0) return 0;  // Status: no capability list
  std::size_t off = U8(b, 0x34) & 0xFC;
  for (int hops = 0; off >= kHeader && off + 2 <= kConfigSize && hops < 48; ++hops) {
    if (U8(b, off) == kCapPcie) return off;
    off = U8(b, off + 1) & 0xFC;
  }
  return 0;
}

}  // namespace

DeviceControl DecodeDeviceControl(std::uint16_t devctl) {
  DeviceControl d;
  d.relaxed_ordering = (devctl & (1u << 4)) != 0;
  d.max_payload_bytes = 128u << ((devctl >> 5) & 0x7);
  d.max_read_request_bytes = 128u << ((devctl >> 12) & 0x7);
  return d;
}

PciConfig DecodePciConfig(std::string_view b) {
  PciConfig c;
  c.readable = b.size();
  if (const std::size_t pcie = FindPcieCap(b); pcie != 0 && pcie + 0x0A <= kConfigSize) {
    c.devctl_offset = pcie + 0x08;
    c.device_control = DecodeDeviceControl(U16(b, c.devctl_offset));
  }
  if (b.size() < kExtendedSize) return c;
  c.extended_readable = true;
  std::size_t off = 0x100;
  for (int hops = 0; off >= 0x100 && off + 8 <= kExtendedSize && hops < 1024; ++hops) {
    const std::uint32_t header = U32(b, off);
    if (header == 0 || header == 0xFFFFFFFFu) break;
    const std::uint16_t id = static_cast<std::uint16_t>(header & 0xFFFF);
    if (id == kExtCapAcs && !c.acs_control) {
      c.acs_control_offset = off + 6;
      c.acs_control = U16(b, c.acs_control_offset);
    }
    if (id == kExtCapAts && !c.ats_enabled) {
      c.ats_control_offset = off + 6;
      c.ats_enabled = AtsEnabled(U16(b, c.ats_control_offset));
    }
    const std::size_t next = (header >> 20) & 0xFFC;
    if (next <= off) break;  // the list only goes forward; anything else is a loop
    off = next;
  }
  return c;
}

}  // namespace rocewatch::collectors::gpudirect
