#pragma once

// The meanings a driver's counters are sorted into: the vocabulary every driver table
// (exporter/drivers/<name>/) writes in and the collectors read, so that a collector asks
// "PFC pause frames on priority 3, received" and never for one vendor's spelling.

#include <cstdint>
#include <string_view>

namespace rocewatch::drivers {

enum class Direction : std::uint8_t { kRx, kTx };
std::string_view DirectionName(Direction direction);  // "rx", "tx"

// What a per-priority `ethtool -S` counter counts.
enum class PriorityKind : std::uint8_t {
  kPauseFrames,           // PFC pause frames that pause (XOFF: a non-zero time); never XON
  kPauseDurationSeconds,  // time paused; the drivers count microseconds, converted to seconds
  kPauseTransitions,      // pause episodes: XOFF <-> XON transitions (the driver says which edge)
  kPfcFrames,             // every PFC frame naming the priority, XOFF and XON alike (bnxt_en)
  kBytes,
  kPackets,
  kDiscards,            // dropped on this priority (any reason)
  kBufferDiscards,      // dropped for lack of receive buffer
  kCongestionDiscards,  // dropped by congestion control (WRED)
  kEcnMarked,           // ECN-marked (CE) packets
};
// "pause_frames", "pause_duration_seconds", "pause_transitions", "pfc_frames", "bytes",
// "packets", "discards", "buffer_discards", "congestion_discards", "ecn_marked".
std::string_view PriorityKindName(PriorityKind kind);
// The kinds that say a priority was paused: frames, time paused, transitions. kPfcFrames is
// not one (it counts XON frames too).
bool IsPfcPause(PriorityKind kind);

// The RDMA transport and congestion events of roce_transport_events_total{event}
// (docs/metrics.md "Drivers"): a fixed vocabulary; a driver that lacks one serves
// no series for it.
enum class TransportEvent : std::uint8_t {
  kCnpSent,
  kCnpHandled,
  kCnpIgnored,
  kEcnMarked,
  kOutOfSequence,
  kDuplicateRequest,
  kSequenceErrorNak,
  kLocalAckTimeout,
  kRetransmits,
  kRetryExceeded,
  kRnrNakReceived,
  kRnrRetryExceeded,
  kImpliedNakSequenceError,
};
inline constexpr std::size_t kTransportEventCount = 13;
// "cnp_sent", "cnp_handled", … as the `event` label writes them.
std::string_view TransportEventName(TransportEvent event);

}  // namespace rocewatch::drivers
