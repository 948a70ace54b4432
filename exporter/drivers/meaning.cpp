#include "exporter/drivers/meaning.h"

namespace rocewatch::drivers {

std::string_view DirectionName(Direction direction) {
  return direction == Direction::kRx ? "rx" : "tx";
}

std::string_view PriorityKindName(PriorityKind kind) {
  using K = PriorityKind;
  switch (kind) {
    case K::kPauseFrames: return "pause_frames";
    case K::kPauseDurationSeconds: return "pause_duration_seconds";
    case K::kPauseTransitions: return "pause_transitions";
    case K::kPfcFrames: return "pfc_frames";
    case K::kBytes: return "bytes";
    case K::kPackets: return "packets";
    case K::kDiscards: return "discards";
    case K::kBufferDiscards: return "buffer_discards";
    case K::kCongestionDiscards: return "congestion_discards";
    case K::kEcnMarked: return "ecn_marked";
  }
  return "unknown";
}

bool IsPfcPause(PriorityKind kind) {
  using K = PriorityKind;
  return kind == K::kPauseFrames || kind == K::kPauseDurationSeconds || kind == K::kPauseTransitions;
}

std::string_view TransportEventName(TransportEvent event) {
  using E = TransportEvent;
  switch (event) {
    case E::kCnpSent: return "cnp_sent";
    case E::kCnpHandled: return "cnp_handled";
    case E::kCnpIgnored: return "cnp_ignored";
    case E::kEcnMarked: return "ecn_marked";
    case E::kOutOfSequence: return "out_of_sequence";
    case E::kDuplicateRequest: return "duplicate_request";
    case E::kSequenceErrorNak: return "sequence_error_nak";
    case E::kLocalAckTimeout: return "local_ack_timeout";
    case E::kRetransmits: return "retransmits";
    case E::kRetryExceeded: return "retry_exceeded";
    case E::kRnrNakReceived: return "rnr_nak_received";
    case E::kRnrRetryExceeded: return "rnr_retry_exceeded";
    case E::kImpliedNakSequenceError: return "implied_nak_sequence_error";
  }
  return "unknown";
}

}  // namespace rocewatch::drivers
