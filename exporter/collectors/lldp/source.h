#pragma once

#include "exporter/collectors/clock.h"
#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// LLDP neighbours of the inventory netdevs, from lldpd through KernelAnswers::LldpNeighbors
// (liblldpctl live, kernel/lldp/neighbors.json in a replay), decoded by
// lldp::DecodeNeighborsJson. lldpd is asked at most once per --collector.lldp.interval (option
// "interval", default 30s, lldpd's own default tx interval; "0s" asks on every collection) on
// --collector.lldp.socket (option "socket", "" = liblldpctl's default /run/lldpd.socket). Read
// only. How answers map to the snapshot and the status:
//   - data: the neighbours of inventory netdevs; daemon_reachable; an answer that does not
//     decode is a parse error (counted, logged once), no neighbours;
//   - ENOENT/ECONNREFUSED (no lldpd): no neighbours, daemon_reachable false, not a failure;
//   - EACCES/EPERM (the socket is root:_lldpd 0770): unavailable, logged once, not a failure;
//   - ENODATA (a replay without LLDP answers): no section at all;
//   - anything else: success 0 for the collection, served from nothing.
// The clock is exporter/collectors/clock.h's (Unix and monotonic seconds).
Result<std::unique_ptr<Source>> MakeLldpSource(const SourceEnv& env);
Result<std::unique_ptr<Source>> MakeLldpSource(const SourceEnv& env, SourceClock clock);

}  // namespace rocewatch::collectors
