#pragma once

// Shared bookkeeping for the sources that read ioctl, netlink and verbs answers
// (KernelAnswers): the AttributeReader of the kernel calls. It sorts each answer
// into what the source does with it:
//
//   kOk           decode it
//   kGone         ENODEV / ENXIO: the netdev or device went away (counted as vanished,
//                 the inventory is rebuilt next time); not an error
//   kUnsupported  EOPNOTSUPP (the driver lacks the operation), ENODATA (a replayed
//                 capture does not hold the call), and the like: no series, not an error
//   kFailed       anything else (and answers that do not decode): recorded in the status
//                 with the netdev and the call named, and the source reports success 0
//
// Netlink calls can fail twice over: at the transport (Answer::error) and in the reply
// (an NLMSG_ERROR, which the decoders return as an Error whose code is the errno), so
// both Check() and CheckDecoded() apply the same rules.

#include <set>
#include <string>
#include <string_view>

#include "exporter/fs/tree.h"
#include "exporter/inventory/inventory.h"
#include "exporter/kernel/answers.h"
#include "exporter/model/snapshot.h"
#include "rocewatch/result.h"

namespace rocewatch::collectors {

class KernelReader {
 public:
  enum class Outcome { kOk, kGone, kUnsupported, kFailed };

  // A transport answer for `call` ("ethtool GSTATS") on `subject` ("netdev ens1f0np0").
  Outcome Check(const kernel::Answer& answer, std::string_view call, std::string_view subject,
                SourceStatus& status);
  // A decoder's Error for the answer of `call` on `subject`.
  Outcome CheckDecoded(const Error& error, std::string_view call, std::string_view subject,
                       SourceStatus& status);
  // A failure that is not an errno (an answer that contradicts an earlier one).
  void Fail(std::string_view subject, const std::string& message, SourceStatus& status);

  // `subject` disappeared while being read: counted, and the inventory is rebuilt.
  void Vanished(std::string_view subject, SourceStatus& status);

  // A call on netdev `ref` answered kGone (ENODEV/ENXIO). The netdev vanished only when
  // its own sysfs directory is gone too (then: Vanished, true). Otherwise a driver said
  // ENODEV about one thing (an empty module cage, a missing PHY): that answer is one value
  // absent, counted in unavailable_values and logged once, and false is returned so the
  // source serves what it has of the netdev.
  bool NetdevGone(const fs::Tree& sysfs, const NetdevRef& ref, std::string_view call,
                  SourceStatus& status);

  // Copies the cumulative counters into this collection's status.
  void Finish(SourceStatus& status) const;

  // How an errno answer is sorted (exposed for tests).
  static Outcome Classify(int errno_value);

 private:
  double vanished_total_ = 0;
  std::set<std::string> logged_;
};

}  // namespace rocewatch::collectors
