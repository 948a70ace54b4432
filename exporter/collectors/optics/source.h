#pragma once

#include <memory>

#include "exporter/collectors/clock.h"
#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// Transceiver module EEPROM (SFF-8472, SFF-8636, CMIS) of every inventory netdev: identity,
// DOM, thresholds, flags. Each module is read at most once per --collector.optics.interval
// (option "interval", a Prometheus duration; "0s" reads on every collection) through
// KernelAnswers: ethtool netlink MODULE_EEPROM_GET page by page (the pages PagesToRead asks
// for), or, where netlink answers EOPNOTSUPP, the ioctls GMODULEINFO + GMODULEEEPROM. How
// kernel answers map to states (OpticsSnapshot::State):
//   - data: decoded (a decode error is a parse error of that netdev alone);
//   - EOPNOTSUPP from both: no module interface (veth, virtio), not an error;
//   - EIO, or a reply with no data bytes, for the first (lower page) read: an empty cage
//     (mlx5 answers both ways for a cage without a module, depending on the kernel);
//   - EPERM/EACCES: reading needs CAP_NET_ADMIN (netlink and ioctl alike); the module is
//     reported unavailable, logged once per netdev, and the source stays successful;
//   - ENODEV: the netdev went away: no series for it, counted as vanished;
//   - anything else: the read failed, the source reports success 0 for this collection.
Result<std::unique_ptr<Source>> MakeOpticsSource(const SourceEnv& env);
Result<std::unique_ptr<Source>> MakeOpticsSource(const SourceEnv& env, SourceClock clock);

}  // namespace rocewatch::collectors
