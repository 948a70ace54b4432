#pragma once

// SFF-8024 code tables shared by the SFF-8472, SFF-8636 and CMIS decoders: module identifiers
// (byte 0), connector types, extended specification compliance codes and transmitter
// technologies. Names are short and stable: they end up in metric labels.

#include <cstdint>
#include <string>

namespace rocewatch::optics {

// The management specification a module with a given identifier follows.
enum class Family { kSff8472, kSff8636, kCmis, kUnknown };

// SFF-8024 rev 4.11 Table 4-1. kUnknown for identifiers no decoder here understands.
Family FamilyOf(std::uint8_t identifier);
// "SFP", "QSFP28", "QSFP-DD", "OSFP", "QSFP+ CMIS" ...; "reserved (0x42)" when unassigned.
std::string IdentifierName(std::uint8_t identifier);
// SFF-8024 Table 4-3: "LC", "MPO 1x12", "No separable connector" ...
std::string ConnectorName(std::uint8_t connector);
// SFF-8024 Table 4-4 (SFF-8472 A0h byte 36, SFF-8636 page 00h byte 192); empty for 0x00
// (unspecified).
std::string ExtendedComplianceName(std::uint8_t code);
// SFF-8636 page 00h byte 147 bits 7-4 and CMIS page 00h byte 212: "850 nm VCSEL",
// "1310 nm EML", "Copper cable, unequalized" ...
std::string TransmitterTechnologyName(std::uint8_t code);
// Transmitter technology codes from 0x0A to 0x0F and from 0x12 up are copper cables, which
// have no wavelength.
bool IsCopperTechnology(std::uint8_t code);

}  // namespace rocewatch::optics
