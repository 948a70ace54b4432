#pragma once

// Test and fixture support: the kernel answers a real node gives for a transceiver module,
// written into a capture directory (CAPTURE/kernel/<key>, the call keys of
// exporter/kernel/calls.h and the file format of exporter/capture/files/capture_files.cpp),
// so the optics source runs on them through the real replay kernel. The module images come
// from images.h, the one source of truth for optics bytes.
//
// Answers are built the way the kernel builds them:
//   - ethtool netlink MODULE_EEPROM_GET, one reply per page PagesToRead needs (asked again
//     until it stops growing, as the source does): nlmsghdr (type = the "ethtool" family id,
//     no flags, the request's seq, the requester's port), genlmsghdr
//     {ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, ETHTOOL_GENL_VERSION}, the nested
//     ETHTOOL_A_MODULE_EEPROM_HEADER {DEV_INDEX, DEV_NAME} (ethnl_fill_reply_header), then
//     ETHTOOL_A_MODULE_EEPROM_DATA (eeprom_fill_reply);
//   - errors as netlink_ack builds them: NLMSG_ERROR {-errno, the whole request echoed};
//   - the ioctls: struct ethtool_modinfo {ETHTOOL_GMODULEINFO, type, eeprom_len} and struct
//     ethtool_eeprom {ETHTOOL_GMODULEEEPROM, 0, 0, len} followed by the flat bytes (the
//     layout `ethtool -m DEV raw on` prints), read at offset 0 for eeprom_len bytes.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/kernel/answers.h"
#include "exporter/optics/eeprom_image.h"
#include "rocewatch/result.h"

namespace rocewatch::optics::testing {

// The genetlink id of "ethtool" the replies carry (what GETFAMILY gave on the kernel the
// captured replies in tests/exporter/netlink came from).
inline constexpr std::uint16_t kEthtoolFamilyId = 21;

// What an empty cage answers on netlink (mlx5; see exporter/collectors/optics/source.cpp).
enum class EmptyCageAnswer {
  kNoData,  // kernels before 6.18: a successful reply with an empty ETHTOOL_A_MODULE_EEPROM_DATA
  kEio,     // 6.18 and the stable kernels with the fix: NLMSG_ERROR -EIO
};

struct CaptureOptions {
  std::uint32_t ifindex = 2;  // the netdev's ifindex in the reply headers
  // Multiplies every lane's raw RX power word (and sets the RX power alarm/warning flags the
  // module would raise for the new value against its own thresholds), for seeded faults.
  std::optional<double> rx_power_scale;
};

// The images of images.h by name ("qsfp28", "qsfp_dd_8_lane" ...); nullopt for other names.
std::vector<std::string> ImageNames();
std::optional<EepromImage> ImageByName(const std::string& name);

// The image with every lane's RX power word scaled by `scale` (clamped to 0..65535) and the
// RX power flags recomputed from the module's thresholds where it has them.
Result<EepromImage> ScaleRxPower(const EepromImage& image, double scale);

// The reads the optics source makes for `image`, in order: PagesToRead until it stops growing.
std::vector<kernel::ModulePage> NetlinkReads(const EepromImage& image);

// One MODULE_EEPROM_GET reply carrying `data` (may be empty: the mlx5 empty-cage answer).
std::vector<std::uint8_t> ModuleEepromReply(const std::string& netdev, std::uint32_t ifindex,
                                            std::uint32_t seq,
                                            const std::vector<std::uint8_t>& data);
// The NLMSG_ERROR the kernel sends when MODULE_EEPROM_GET for `page` fails with `errno_value`.
std::vector<std::uint8_t> ModuleEepromError(const std::string& netdev,
                                            const kernel::ModulePage& page, std::uint32_t seq,
                                            int errno_value);
// The GMODULEINFO answer for `image` (type and length by its identifier, as drivers report
// them) and the flat bytes GMODULEEEPROM answers with.
struct IoctlModule {
  std::uint32_t type = 0;  // ETH_MODULE_SFF_*
  std::vector<std::uint8_t> raw;
};
IoctlModule IoctlLayout(const EepromImage& image);

// Writers: each writes under `capture_dir`/kernel/ and names the file in its error.
// Every answer of a plugged module: the netlink pages and the ioctl answers.
Status WriteModule(const std::string& capture_dir, const std::string& netdev,
                   const EepromImage& image, const CaptureOptions& options = {});
// Only the netlink pages.
Status WriteNetlinkPages(const std::string& capture_dir, const std::string& netdev,
                         const EepromImage& image, const CaptureOptions& options = {});
// Only the ioctl answers.
Status WriteIoctl(const std::string& capture_dir, const std::string& netdev,
                  const EepromImage& image);
// A netlink error for one page read (NLMSG_ERROR).
Status WriteNetlinkError(const std::string& capture_dir, const std::string& netdev,
                         const kernel::ModulePage& page, int errno_value);
// The ioctl GMODULEINFO failing with `errno_value`.
Status WriteIoctlError(const std::string& capture_dir, const std::string& netdev, int errno_value);
// An empty cage: the netlink lower page as `answer` says, GMODULEINFO EIO.
Status WriteEmptyCage(const std::string& capture_dir, const std::string& netdev,
                      EmptyCageAnswer answer = EmptyCageAnswer::kNoData,
                      const CaptureOptions& options = {});
// A netdev without module interface (veth, virtio): EOPNOTSUPP from netlink and the ioctl.
Status WriteNoModuleInterface(const std::string& capture_dir, const std::string& netdev);
// Reading without CAP_NET_ADMIN: EPERM from netlink and the ioctl.
Status WritePermissionDenied(const std::string& capture_dir, const std::string& netdev);

// The lower page read (A0h, offset 0, 128 bytes), the first the source makes.
kernel::ModulePage LowerPage();

}  // namespace rocewatch::optics::testing
