#pragma once

// What lint writes about PCI functions, for the checks' words (checks/gpudirect/) and for
// `roce-lint fix`'s scripts (fix/): which text is a PCI address, and the one command that sets a
// bridge's ACS redirect bits.

#include <string>
#include <string_view>

#include "rocewatch/escape.h"

namespace rocewatch::lint {

// Whether `text` is a PCI address as sysfs names it (DDDD:BB:DD.F, lower-case hex): what a
// label must be before it is written into a command.
bool IsPciAddress(std::string_view text);

// ACS Control's P2P Request Redirect and Completion Redirect bits (PCIe base spec, 7.7.8.3).
inline constexpr unsigned kAcsReqRedir = 0x4;
inline constexpr unsigned kAcsCmpltRedir = 0x8;

// pciutils' setpci on the ACS Control register (ECAP_ACS+6) of `bridge`, a PCI address: the two
// redirect bits set to `bits`, every other bit left as it is (setpci's value:mask).
inline std::string AcsRedirectCommand(std::string_view bridge, unsigned bits) {
  static constexpr char kHex[] = "0123456789abcdef";
  return "setpci -s " + escape::ShWord(bridge) + " ECAP_ACS+6.w=000" +
         kHex[bits & (kAcsReqRedir | kAcsCmpltRedir)] + ":000c";
}

}  // namespace rocewatch::lint
