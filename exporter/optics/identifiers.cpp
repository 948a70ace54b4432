#include "exporter/optics/identifiers.h"

#include <cstdio>

namespace rocewatch::optics {
namespace {

std::string WithCode(const char* what, unsigned code) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s (0x%02x)", what, code);
  return buf;
}

struct CodeName {
  std::uint8_t code;
  const char* name;
};

// SFF-8024 Table 4-1: identifiers.
constexpr CodeName kIdentifiers[] = {
    {0x00, "Unknown"},     {0x01, "GBIC"},        {0x02, "Soldered"},     {0x03, "SFP"},
    {0x04, "300-pin XBI"}, {0x05, "XENPAK"},      {0x06, "XFP"},          {0x07, "XFF"},
    {0x08, "XFP-E"},       {0x09, "XPAK"},        {0x0A, "X2"},           {0x0B, "DWDM-SFP"},
    {0x0C, "QSFP"},        {0x0D, "QSFP+"},       {0x0E, "CXP"},          {0x0F, "HD4X"},
    {0x10, "HD8X"},        {0x11, "QSFP28"},      {0x12, "CXP2"},         {0x13, "CDFP"},
    {0x14, "HD4X fanout"}, {0x15, "HD8X fanout"}, {0x16, "CDFP style 3"}, {0x17, "microQSFP"},
    {0x18, "QSFP-DD"},     {0x19, "OSFP"},        {0x1A, "SFP-DD"},       {0x1B, "DSFP"},
    {0x1C, "MiniLink x4"}, {0x1D, "MiniLink x8"}, {0x1E, "QSFP+ CMIS"},   {0x1F, "SFP-DD CMIS"},
    {0x20, "SFP+ CMIS"},
};

// SFF-8024 Table 4-3: connector types.
constexpr CodeName kConnectors[] = {
    {0x00, "Unknown"},
    {0x01, "SC"},
    {0x02, "FC Style 1 copper"},
    {0x03, "FC Style 2 copper"},
    {0x04, "BNC/TNC"},
    {0x05, "FC coax headers"},
    {0x06, "Fiber Jack"},
    {0x07, "LC"},
    {0x08, "MT-RJ"},
    {0x09, "MU"},
    {0x0A, "SG"},
    {0x0B, "Optical pigtail"},
    {0x0C, "MPO 1x12"},
    {0x0D, "MPO 2x16"},
    {0x20, "HSSDC II"},
    {0x21, "Copper pigtail"},
    {0x22, "RJ45"},
    {0x23, "No separable connector"},
    {0x24, "MXC 2x16"},
    {0x25, "CS optical connector"},
    {0x26, "SN optical connector"},
    {0x27, "MPO 2x12"},
    {0x28, "MPO 1x16"},
};

// SFF-8024 Table 4-4: extended specification compliance codes.
constexpr CodeName kExtendedCompliance[] = {
    {0x01, "100G AOC or 25GAUI C2M AOC (BER 5e-5)"},
    {0x02, "100GBASE-SR4 or 25GBASE-SR"},
    {0x03, "100GBASE-LR4 or 25GBASE-LR"},
    {0x04, "100GBASE-ER4 or 25GBASE-ER"},
    {0x05, "100GBASE-SR10"},
    {0x06, "100G CWDM4"},
    {0x07, "100G PSM4"},
    {0x08, "100G ACC or 25GAUI C2M ACC (BER 5e-5)"},
    {0x09, "100G CWDM4 (no FEC)"},
    {0x0B, "100GBASE-CR4 or 25GBASE-CR CA-L"},
    {0x0C, "25GBASE-CR CA-S"},
    {0x0D, "25GBASE-CR CA-N"},
    {0x10, "40GBASE-ER4"},
    {0x11, "4 x 10GBASE-SR"},
    {0x12, "40G PSM4"},
    {0x16, "10GBASE-T with SFI"},
    {0x17, "100G CLR4"},
    {0x18, "100G AOC or 25GAUI C2M AOC (BER 1e-12)"},
    {0x19, "100G ACC or 25GAUI C2M ACC (BER 1e-12)"},
    {0x1A, "100GE-DWDM2"},
    {0x1B, "100G 1550 nm WDM"},
    {0x1C, "10GBASE-T Short Reach"},
    {0x1D, "5GBASE-T"},
    {0x1E, "2.5GBASE-T"},
    {0x1F, "40G SWDM4"},
    {0x20, "100G SWDM4"},
    {0x21, "100G PAM4 BiDi"},
    {0x25, "100GBASE-DR"},
    {0x26, "100G-FR or 100GBASE-FR1"},
    {0x27, "100G-LR or 100GBASE-LR1"},
    {0x40, "50GBASE-CR, 100GBASE-CR2 or 200GBASE-CR4"},
    {0x41, "50GBASE-SR, 100GBASE-SR2 or 200GBASE-SR4"},
    {0x42, "50GBASE-FR or 200GBASE-DR4"},
    {0x43, "200GBASE-FR4"},
    {0x44, "200G 1550 nm PSM4"},
    {0x45, "50GBASE-LR"},
    {0x46, "200GBASE-LR4"},
};

// Transmitter technology: SFF-8636 page 00h byte 147 bits 7-4, CMIS page 00h byte 212.
constexpr CodeName kTransmitterTechnologies[] = {
    {0x00, "850 nm VCSEL"},
    {0x01, "1310 nm VCSEL"},
    {0x02, "1550 nm VCSEL"},
    {0x03, "1310 nm FP"},
    {0x04, "1310 nm DFB"},
    {0x05, "1550 nm DFB"},
    {0x06, "1310 nm EML"},
    {0x07, "1550 nm EML"},
    {0x08, "Others"},
    {0x09, "1490 nm DFB"},
    {0x0A, "Copper cable, unequalized"},
    {0x0B, "Copper cable, passive equalized"},
    {0x0C, "Copper cable, near and far end limiting active equalizers"},
    {0x0D, "Copper cable, far end limiting active equalizers"},
    {0x0E, "Copper cable, near end limiting active equalizers"},
    {0x0F, "Copper cable, linear active equalizers"},
    {0x10, "C-band tunable laser"},
    {0x11, "L-band tunable laser"},
    {0x12, "Copper cable, near and far end linear active equalizers"},
    {0x13, "Copper cable, far end linear active equalizers"},
    {0x14, "Copper cable, near end linear active equalizers"},
};

template <std::size_t N>
std::string Lookup(const CodeName (&table)[N], std::uint8_t code, const char* unknown) {
  for (const CodeName& entry : table) {
    if (entry.code == code) return entry.name;
  }
  return WithCode(unknown, code);
}

}  // namespace

Family FamilyOf(std::uint8_t identifier) {
  switch (identifier) {
    case 0x01:  // GBIC
    case 0x02:  // module soldered to motherboard
    case 0x03:  // SFP/SFP+/SFP28
    case 0x0B:  // DWDM-SFP/SFP+
      return Family::kSff8472;
    case 0x0C:  // QSFP
    case 0x0D:  // QSFP+ or later (SFF-8436/SFF-8636)
    case 0x11:  // QSFP28 or later (SFF-8636)
      return Family::kSff8636;
    case 0x18:  // QSFP-DD
    case 0x19:  // OSFP
    case 0x1B:  // DSFP
    case 0x1E:  // QSFP+ or later with CMIS
    case 0x1F:  // SFP-DD with CMIS
    case 0x20:  // SFP+ and later with CMIS
      return Family::kCmis;
    default:
      return Family::kUnknown;
  }
}

std::string IdentifierName(std::uint8_t identifier) {
  return Lookup(kIdentifiers, identifier, identifier >= 0x80 ? "vendor specific" : "reserved");
}

std::string ConnectorName(std::uint8_t connector) {
  return Lookup(kConnectors, connector, connector >= 0x80 ? "vendor specific" : "reserved");
}

std::string ExtendedComplianceName(std::uint8_t code) {
  if (code == 0x00) return "";  // unspecified
  return Lookup(kExtendedCompliance, code, "extended compliance");
}

std::string TransmitterTechnologyName(std::uint8_t code) {
  return Lookup(kTransmitterTechnologies, code, "reserved");
}

bool IsCopperTechnology(std::uint8_t code) {
  return (code >= 0x0A && code <= 0x0F) || (code >= 0x12 && code <= 0x14);
}

}  // namespace rocewatch::optics
