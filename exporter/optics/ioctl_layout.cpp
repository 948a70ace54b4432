#include "exporter/optics/ioctl_layout.h"

#include <linux/ethtool.h>

#include "exporter/optics/identifiers.h"

namespace rocewatch::optics {

IoctlModule IoctlModuleLayout(const EepromImage& image) {
  IoctlModule out;
  out.raw = ToRaw(image);
  if (out.raw.empty()) return out;
  const std::uint8_t identifier = out.raw[0];
  switch (FamilyOf(identifier)) {
    case Family::kSff8472:
      // Without A2h diagnostics drivers report SFF-8079 (A0h only).
      out.type =
          out.raw.size() > ETH_MODULE_SFF_8079_LEN ? ETH_MODULE_SFF_8472 : ETH_MODULE_SFF_8079;
      break;
    case Family::kSff8636:
      // As mlx5e_get_module_info: QSFP, and QSFP+ before revision 3, are SFF-8436.
      out.type = identifier == 0x0C || (identifier == 0x0D && out.raw.size() > 1 && out.raw[1] < 3)
                     ? ETH_MODULE_SFF_8436
                     : ETH_MODULE_SFF_8636;
      break;
    case Family::kCmis:
    case Family::kUnknown:
      // There is no CMIS type in the uapi; drivers that read CMIS modules over the ioctl say
      // SFF-8636 and ethtool dispatches on the identifier byte.
      out.type = ETH_MODULE_SFF_8636;
      break;
  }
  return out;
}

}  // namespace rocewatch::optics
