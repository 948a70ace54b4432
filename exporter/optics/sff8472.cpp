// optics::DecodeSff8472: SFP/SFP+/SFP28 modules (SFF-8472 rev 12.4, "Management Interface for
// SFP+"). Identity lives at I2C address A0h (0x50), diagnostics at A2h (0x51). Offsets are
// decimal, as in the specification's tables.

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>

#include "exporter/optics/decode.h"
#include "exporter/optics/decode_common.h"
#include "exporter/optics/identifiers.h"

namespace rocewatch::optics {
namespace {

using detail::Bit;

constexpr PageId kA0{kI2cAddressA0, 0, 0};
constexpr PageId kA2{kI2cAddressA2, 0, 0};

// A0h, Table 4-1 (serial ID data fields).
constexpr unsigned kConnectorOffset = 2;
constexpr unsigned kTenGigEthernetCodesOffset = 3;  // Table 5-3, byte 3
constexpr unsigned kEthernetCodesOffset = 6;        // Table 5-3, byte 6
constexpr unsigned kCableTechnologyOffset = 8;      // Table 5-3, byte 8: SFP+ cable technology
constexpr unsigned kPassiveCableBit = 2;
constexpr unsigned kActiveCableBit = 3;
constexpr unsigned kVendorNameFirst = 20;
constexpr unsigned kVendorNameLast = 35;
constexpr unsigned kExtendedComplianceOffset = 36;  // SFF-8024 Table 4-4
constexpr unsigned kVendorOuiOffset = 37;
constexpr unsigned kVendorPartNumberFirst = 40;
constexpr unsigned kVendorPartNumberLast = 55;
constexpr unsigned kVendorRevisionFirst = 56;
constexpr unsigned kVendorRevisionLast = 59;
constexpr unsigned kWavelengthOffset = 60;  // u16, nm (optical modules only)
constexpr unsigned kOptionsOffset = 65;     // Table 8-3, byte 65
constexpr unsigned kRxLosImplementedBit = 1;
constexpr unsigned kRxLosInvertedBit = 2;
constexpr unsigned kTxFaultImplementedBit = 3;
constexpr unsigned kVendorSerialFirst = 68;
constexpr unsigned kVendorSerialLast = 83;
constexpr unsigned kDateCodeFirst = 84;
constexpr unsigned kDateCodeLast = 91;
constexpr unsigned kDiagnosticTypeOffset = 92;  // Table 8-5
constexpr unsigned kDdmImplementedBit = 6;
constexpr unsigned kExternallyCalibratedBit = 4;
constexpr unsigned kRxPowerAverageBit = 3;       // 0: OMA, 1: average power
constexpr unsigned kEnhancedOptionsOffset = 93;  // Table 8-6
constexpr unsigned kAlarmWarningFlagsBit = 7;    // flags and thresholds implemented
constexpr unsigned kComplianceOffset = 94;       // Table 8-8

// A2h, Table 4-2 / Table 9-5: alarm and warning thresholds, each four u16 (s16 for
// temperature) in the order high alarm, low alarm, high warning, low warning.
constexpr unsigned kTemperatureThresholdsOffset = 0;
constexpr unsigned kVoltageThresholdsOffset = 8;
constexpr unsigned kBiasThresholdsOffset = 16;
constexpr unsigned kTxPowerThresholdsOffset = 24;
constexpr unsigned kRxPowerThresholdsOffset = 32;
// A2h, Table 9-6: external calibration constants. Rx_PWR(4..0) are big-endian IEEE-754
// floats; slopes are unsigned 8.8 fixed point; offsets are s16 in the monitor's raw unit.
constexpr unsigned kRxPower4Offset = 56;
constexpr unsigned kRxPower3Offset = 60;
constexpr unsigned kRxPower2Offset = 64;
constexpr unsigned kRxPower1Offset = 68;
constexpr unsigned kRxPower0Offset = 72;
constexpr unsigned kBiasSlopeOffset = 76;
constexpr unsigned kBiasCalOffsetOffset = 78;
constexpr unsigned kTxPowerSlopeOffset = 80;
constexpr unsigned kTxPowerCalOffsetOffset = 82;
constexpr unsigned kTemperatureSlopeOffset = 84;
constexpr unsigned kTemperatureCalOffsetOffset = 86;
constexpr unsigned kVoltageSlopeOffset = 88;
constexpr unsigned kVoltageCalOffsetOffset = 90;
// A2h, Table 9-11: real-time diagnostics (A/D values) and status.
constexpr unsigned kTemperatureOffset = 96;
constexpr unsigned kVoltageOffset = 98;
constexpr unsigned kBiasOffset = 100;
constexpr unsigned kTxPowerOffset = 102;
constexpr unsigned kRxPowerOffset = 104;
constexpr unsigned kStatusControlOffset = 110;
constexpr unsigned kTxFaultStateBit = 2;
constexpr unsigned kRxLosStateBit = 1;
// A2h, Table 9-12: alarm flags (112-113) and warning flags (116-117), same bit layout.
constexpr unsigned kAlarmFlagsOffset = 112;
constexpr unsigned kWarningFlagsOffset = 116;

// Bits of flag bytes 112/116 (high flag; the low flag is the next lower bit) and 113/117.
struct FlagBits {
  unsigned byte;  // 0: 112/116, 1: 113/117
  unsigned high_bit;
};
constexpr FlagBits kTemperatureFlags{0, 7};
constexpr FlagBits kVoltageFlags{0, 5};
constexpr FlagBits kBiasFlags{0, 3};
constexpr FlagBits kTxPowerFlags{0, 1};
constexpr FlagBits kRxPowerFlags{1, 7};

enum class Quantity { kTemperature, kVoltage, kBias, kTxPower };

struct LinearCalibration {
  double slope = 1;
  double offset = 0;
};

// Turns A/D values (monitors and thresholds alike) into base units, applying the external
// calibration (section 9.3) where A0h byte 92 bit 4 asks for it.
class Converter {
 public:
  Converter(const EepromImage& image, bool external) : image_(image), external_(external) {
    if (!external_) return;
    temperature_ = Linear(kTemperatureSlopeOffset, kTemperatureCalOffsetOffset);
    voltage_ = Linear(kVoltageSlopeOffset, kVoltageCalOffsetOffset);
    bias_ = Linear(kBiasSlopeOffset, kBiasCalOffsetOffset);
    tx_power_ = Linear(kTxPowerSlopeOffset, kTxPowerCalOffsetOffset);
    const unsigned offsets[5] = {kRxPower0Offset, kRxPower1Offset, kRxPower2Offset, kRxPower3Offset,
                                 kRxPower4Offset};
    std::array<double, 5> coefficients{};
    for (unsigned i = 0; i < 5; ++i) {
      auto bits = image_.U32(kA2, offsets[i]);
      if (!bits) return;
      coefficients[i] = static_cast<double>(std::bit_cast<float>(*bits));
      if (!std::isfinite(coefficients[i])) {
        char buf[96];
        std::snprintf(buf, sizeof buf,
                      "A2h calibration constant Rx_PWR(%u) at bytes %u-%u is not a finite number",
                      i, offsets[i], offsets[i] + 3);
        warning_ = buf;
        return;
      }
    }
    rx_power_ = coefficients;
  }

  // A quantity at A2h `offset`.
  std::optional<double> Value(Quantity q, unsigned offset) const {
    if (q == Quantity::kTemperature) {
      auto raw = image_.S16(kA2, offset);
      if (!raw) return std::nullopt;
      return Apply(temperature_, *raw, detail::kCelsiusPerUnit);
    }
    auto raw = image_.U16(kA2, offset);
    if (!raw) return std::nullopt;
    switch (q) {
      case Quantity::kVoltage:
        return Apply(voltage_, *raw, detail::kVoltsPerUnit);
      case Quantity::kBias:
        return Apply(bias_, *raw, detail::kAmperesPerUnit);
      case Quantity::kTxPower:
        return Apply(tx_power_, *raw, detail::kWattsPerUnit);
      case Quantity::kTemperature:
        break;
    }
    return std::nullopt;
  }

  // Received power at A2h `offset`: internally calibrated it is the value in 0.1 uW;
  // externally calibrated it is Rx_PWR(4)*x^4 + Rx_PWR(3)*x^3 + ... + Rx_PWR(0), x the A/D
  // value.
  std::optional<double> RxPower(unsigned offset) const {
    auto raw = image_.U16(kA2, offset);
    if (!raw) return std::nullopt;
    if (!external_) return *raw * detail::kWattsPerUnit;
    if (!rx_power_) return std::nullopt;
    const double x = *raw;
    double sum = 0;
    for (unsigned i = 5; i-- > 0;) sum = sum * x + (*rx_power_)[i];  // Horner
    return sum * detail::kWattsPerUnit;
  }

  std::optional<Thresholds> ThresholdsAt(Quantity q, unsigned offset) const {
    auto high_alarm = Value(q, offset);
    auto low_alarm = Value(q, offset + 2);
    auto high_warning = Value(q, offset + 4);
    auto low_warning = Value(q, offset + 6);
    if (!high_alarm || !low_alarm || !high_warning || !low_warning) return std::nullopt;
    return Thresholds{*high_alarm, *low_alarm, *high_warning, *low_warning};
  }

  std::optional<Thresholds> RxPowerThresholds() const {
    auto high_alarm = RxPower(kRxPowerThresholdsOffset);
    auto low_alarm = RxPower(kRxPowerThresholdsOffset + 2);
    auto high_warning = RxPower(kRxPowerThresholdsOffset + 4);
    auto low_warning = RxPower(kRxPowerThresholdsOffset + 6);
    if (!high_alarm || !low_alarm || !high_warning || !low_warning) return std::nullopt;
    return Thresholds{*high_alarm, *low_alarm, *high_warning, *low_warning};
  }

  const std::string& warning() const { return warning_; }

 private:
  std::optional<LinearCalibration> Linear(unsigned slope_offset, unsigned offset_offset) const {
    auto slope = image_.U16(kA2, slope_offset);
    auto offset = image_.S16(kA2, offset_offset);
    if (!slope || !offset) return std::nullopt;
    return LinearCalibration{*slope / 256.0, static_cast<double>(*offset)};
  }

  std::optional<double> Apply(const std::optional<LinearCalibration>& cal, double raw,
                              double unit) const {
    if (!external_) return raw * unit;
    if (!cal) return std::nullopt;
    return (cal->slope * raw + cal->offset) * unit;
  }

  const EepromImage& image_;
  bool external_;
  std::optional<LinearCalibration> temperature_, voltage_, bias_, tx_power_;
  std::optional<std::array<double, 5>> rx_power_;  // Rx_PWR(0) .. Rx_PWR(4)
  std::string warning_;
};

Flags ReadFlags(const EepromImage& image, FlagBits bits) {
  Flags flags;
  flags.high_alarm = Bit(image, kA2, kAlarmFlagsOffset + bits.byte, bits.high_bit);
  flags.low_alarm = Bit(image, kA2, kAlarmFlagsOffset + bits.byte, bits.high_bit - 1);
  flags.high_warning = Bit(image, kA2, kWarningFlagsOffset + bits.byte, bits.high_bit);
  flags.low_warning = Bit(image, kA2, kWarningFlagsOffset + bits.byte, bits.high_bit - 1);
  return flags;
}

std::string RevisionName(std::uint8_t code) {
  switch (code) {
    case 0x01:
      return "9.3";
    case 0x02:
      return "9.5";
    case 0x03:
      return "10.2";
    case 0x04:
      return "10.4";
    case 0x05:
      return "11.0";
    case 0x06:
      return "11.3";
    case 0x07:
      return "11.4";
    case 0x08:
      return "12.3";
    case 0x09:
      return "12.4";
    default:
      return "";
  }
}

void AddComplianceCodes(const EepromImage& image, ModuleInfo& info) {
  static constexpr const char* kTenGig[8] = {"InfiniBand 1X copper passive",
                                             "InfiniBand 1X copper active",
                                             "InfiniBand 1X LX",
                                             "InfiniBand 1X SX",
                                             "10GBASE-SR",
                                             "10GBASE-LR",
                                             "10GBASE-LRM",
                                             "10GBASE-ER"};
  static constexpr const char* kEthernet[8] = {"1000BASE-SX", "1000BASE-LX",     "1000BASE-CX",
                                               "1000BASE-T",  "100BASE-LX/LX10", "100BASE-FX",
                                               "BASE-BX10",   "BASE-PX"};
  for (unsigned bit = 8; bit-- > 0;) {
    if (Bit(image, kA0, kTenGigEthernetCodesOffset, bit).value_or(false)) {
      info.compliance.emplace_back(kTenGig[bit]);
    }
  }
  for (unsigned bit = 8; bit-- > 0;) {
    if (Bit(image, kA0, kEthernetCodesOffset, bit).value_or(false)) {
      info.compliance.emplace_back(kEthernet[bit]);
    }
  }
  if (Bit(image, kA0, kCableTechnologyOffset, kActiveCableBit).value_or(false)) {
    info.compliance.emplace_back("Active cable");
  }
  if (Bit(image, kA0, kCableTechnologyOffset, kPassiveCableBit).value_or(false)) {
    info.compliance.emplace_back("Passive cable");
  }
  const std::string extended =
      ExtendedComplianceName(image.Byte(kA0, kExtendedComplianceOffset).value_or(0));
  if (!extended.empty()) info.compliance.push_back(extended);
}

bool AcceptsSff8472(std::uint8_t identifier) { return FamilyOf(identifier) == Family::kSff8472; }

}  // namespace

Result<ModuleInfo> DecodeSff8472(const EepromImage& image) {
  auto identifier = detail::CheckLowerPage(image, "SFF-8472 (SFP)", AcceptsSff8472);
  if (!identifier.ok()) return identifier.error();

  ModuleInfo info;
  detail::SetIdentifier(info, *identifier);
  info.standard = Standard::kSff8472;
  info.spec_revision_code = image.Byte(kA0, kComplianceOffset).value_or(0);
  info.spec_revision = RevisionName(info.spec_revision_code);
  info.spec = info.spec_revision.empty() ? "SFF-8472" : "SFF-8472 rev " + info.spec_revision;

  info.vendor_name = detail::Ascii(image, kA0, kVendorNameFirst, kVendorNameLast);
  info.vendor_oui = detail::Oui(image, kA0, kVendorOuiOffset);
  info.part_number = detail::Ascii(image, kA0, kVendorPartNumberFirst, kVendorPartNumberLast);
  info.revision = detail::Ascii(image, kA0, kVendorRevisionFirst, kVendorRevisionLast);
  info.serial_number = detail::Ascii(image, kA0, kVendorSerialFirst, kVendorSerialLast);
  info.date_code = detail::Ascii(image, kA0, kDateCodeFirst, kDateCodeLast);
  info.manufacture_date = detail::ManufactureDate(info.date_code);
  info.connector = image.Byte(kA0, kConnectorOffset).value_or(0);
  info.connector_name = ConnectorName(info.connector);
  AddComplianceCodes(image, info);
  const bool cable = Bit(image, kA0, kCableTechnologyOffset, kPassiveCableBit).value_or(false) ||
                     Bit(image, kA0, kCableTechnologyOffset, kActiveCableBit).value_or(false);
  if (auto nm = image.U16(kA0, kWavelengthOffset); nm && *nm != 0 && !cable) {
    info.wavelength_meters = *nm * detail::kMetersPerNanometer;
  }

  const std::uint8_t diagnostic_type = image.Byte(kA0, kDiagnosticTypeOffset).value_or(0);
  info.rx_power_measurement = (diagnostic_type >> kRxPowerAverageBit) & 1u
                                  ? RxPowerMeasurement::kAverage
                                  : RxPowerMeasurement::kOma;
  if (!((diagnostic_type >> kDdmImplementedBit) & 1u)) return info;
  const bool external = (diagnostic_type >> kExternallyCalibratedBit) & 1u;
  info.calibration = external ? Calibration::kExternal : Calibration::kInternal;

  auto a2 = image.Lower(kI2cAddressA2);
  if (!a2) {
    info.warnings.push_back(
        "A0h byte 92 says diagnostics are implemented, but A2h (I2C address 0x51) was not read");
    return info;
  }
  if (a2->size() < kHalfPageSize) {
    info.warnings.push_back("A2h lower page is truncated: " + std::to_string(a2->size()) + " of " +
                            std::to_string(kHalfPageSize) + " bytes");
  }
  info.diagnostics = true;

  const Converter convert(image, external);
  if (!convert.warning().empty()) info.warnings.push_back(convert.warning());
  info.temperature_celsius.value = convert.Value(Quantity::kTemperature, kTemperatureOffset);
  info.supply_voltage_volts.value = convert.Value(Quantity::kVoltage, kVoltageOffset);
  Lane lane;
  lane.number = 1;
  lane.tx_bias_amperes.value = convert.Value(Quantity::kBias, kBiasOffset);
  lane.tx_power_watts.value = convert.Value(Quantity::kTxPower, kTxPowerOffset);
  lane.rx_power_watts.value = convert.RxPower(kRxPowerOffset);

  const std::uint8_t options = image.Byte(kA0, kOptionsOffset).value_or(0);
  if ((options >> kRxLosImplementedBit) & 1u) {
    auto state = Bit(image, kA2, kStatusControlOffset, kRxLosStateBit);
    // Option bit 2: the RX_LOS signal is inverted (high when the signal is present).
    if (state && ((options >> kRxLosInvertedBit) & 1u)) state = !*state;
    lane.rx_loss_of_signal = state;
  }
  if ((options >> kTxFaultImplementedBit) & 1u) {
    lane.tx_fault = Bit(image, kA2, kStatusControlOffset, kTxFaultStateBit);
  }

  const bool alarms =
      Bit(image, kA0, kEnhancedOptionsOffset, kAlarmWarningFlagsBit).value_or(false);
  if (alarms) {
    info.temperature_celsius.thresholds =
        convert.ThresholdsAt(Quantity::kTemperature, kTemperatureThresholdsOffset);
    info.supply_voltage_volts.thresholds =
        convert.ThresholdsAt(Quantity::kVoltage, kVoltageThresholdsOffset);
    lane.tx_bias_amperes.thresholds = convert.ThresholdsAt(Quantity::kBias, kBiasThresholdsOffset);
    lane.tx_power_watts.thresholds =
        convert.ThresholdsAt(Quantity::kTxPower, kTxPowerThresholdsOffset);
    lane.rx_power_watts.thresholds = convert.RxPowerThresholds();
    info.temperature_celsius.flags = ReadFlags(image, kTemperatureFlags);
    info.supply_voltage_volts.flags = ReadFlags(image, kVoltageFlags);
    lane.tx_bias_amperes.flags = ReadFlags(image, kBiasFlags);
    lane.tx_power_watts.flags = ReadFlags(image, kTxPowerFlags);
    lane.rx_power_watts.flags = ReadFlags(image, kRxPowerFlags);
  }
  info.lanes.push_back(std::move(lane));
  return info;
}

}  // namespace rocewatch::optics
