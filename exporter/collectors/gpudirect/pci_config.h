#pragma once

// Decodes the bytes of a PCI function's sysfs `config` file (no I/O). The kernel serves the
// first 64 bytes (the header) to every reader and the rest only to CAP_SYS_ADMIN
// (drivers/pci/pci-sysfs.c, pci_read_config): an unprivileged read is 64 bytes long, and every
// value below that lives past them is absent, never guessed (docs/security.md#gpudirect).

#include <cstdint>
#include <optional>
#include <string_view>

namespace rocewatch::collectors::gpudirect {

// The ACS Control register's bits (PCIe Base spec 7.7.11.3, lspci's ACSCtl words).
enum AcsBit : std::uint16_t {
  kAcsSrcValid = 1u << 0,
  kAcsTransBlk = 1u << 1,
  kAcsReqRedir = 1u << 2,
  kAcsCmpltRedir = 1u << 3,
  kAcsUpstreamFwd = 1u << 4,
  kAcsEgressCtrl = 1u << 5,
  kAcsDirectTrans = 1u << 6,
};

struct AcsBitName {
  AcsBit bit;
  std::string_view label;  // the metric's label value
  std::string_view lspci;  // lspci -vvv's word
};
inline constexpr AcsBitName kAcsBits[] = {
    {kAcsSrcValid, "src_valid", "SrcValid"},       {kAcsTransBlk, "trans_blk", "TransBlk"},
    {kAcsReqRedir, "req_redir", "ReqRedir"},       {kAcsCmpltRedir, "cmplt_redir", "CmpltRedir"},
    {kAcsUpstreamFwd, "upstream_fwd", "UpstreamFwd"}, {kAcsEgressCtrl, "egress_ctrl", "EgressCtrl"},
    {kAcsDirectTrans, "direct_trans", "DirectTrans"},
};

// The PCI Express capability's Device Control register, decoded.
struct DeviceControl {
  std::uint32_t max_payload_bytes = 128, max_read_request_bytes = 512;
  bool relaxed_ordering = false;
};
DeviceControl DecodeDeviceControl(std::uint16_t devctl);
// The ATS Control register's Enable bit.
inline bool AtsEnabled(std::uint16_t ats_control) { return (ats_control & 0x8000u) != 0; }

struct PciConfig {
  std::size_t readable = 0;  // bytes the file gave
  // Where the registers live (0: no such capability, or not readable): a source finds them
  // once and reads the registers alone afterwards (two bytes each).
  std::size_t devctl_offset = 0, acs_control_offset = 0, ats_control_offset = 0;
  // PCI Express capability (ID 0x10), Device Control register: absent when not readable.
  std::optional<DeviceControl> device_control;
  // Extended capabilities (from 0x100; need the full 4096 bytes).
  bool extended_readable = false;
  std::optional<std::uint16_t> acs_control;  // present when the ACS capability is
  std::optional<bool> ats_enabled;           // present when the ATS capability is
};

// Decodes what `bytes` holds; a malformed capability list (a loop, a pointer out of range)
// ends the walk, keeping what was found before it.
PciConfig DecodePciConfig(std::string_view bytes);

}  // namespace rocewatch::collectors::gpudirect
