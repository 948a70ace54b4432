#pragma once

// KernelAnswers: the ioctl, netlink, verbs and lldpd calls the exporter makes
// (kernel/calls.h), as raw answers. Sources decode them with the pure decoders
// (ethtool/, netlink/, optics/); the transport never decodes. Three
// implementations: the live kernel, a recording wrapper (capture) and a replay
// of a capture directory, so a capture reproduces a node's /metrics through the
// same decoders.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exporter/kernel/calls.h"

namespace rocewatch::kernel {

// What one call answered: the buffer the kernel filled (ioctl) or the reply
// message it sent (netlink), or the errno it failed with.
struct Answer {
  std::vector<std::uint8_t> bytes;
  int error = 0;  // errno; 0 on success. ENODATA from a replay: not in the capture.
  bool ok() const { return error == 0; }
};

// The kernel's answers to the calls of kernel/calls.h: one virtual, Ask.
class KernelAnswers {
 public:
  virtual ~KernelAnswers() = default;
  // What the kernel answered `request` (a call of kernel/calls.h). A KernelAnswers that
  // does not serve a call answers ENODATA, as a replay answers a call its capture lacks.
  virtual Answer Ask(const Request& request) = 0;
  // Answers refused since start because they would lead out of where they are kept (a
  // replay's answer files that leave the capture or are not plain files:
  // roce_exporter_refused_paths_total{tree="kernel"}); 0 for a kernel that keeps no files.
  virtual std::uint64_t refused_answers() const { return 0; }
};

// Per-call timeout of the live netlink calls (ioctls cannot be interrupted).
struct LiveOptions {
  int netlink_timeout_ms = 2000;
};

// The running kernel, in the network namespace current when it is created.
std::unique_ptr<KernelAnswers> MakeLiveKernel(LiveOptions options = {});
// Answers from a capture directory's kernel/ folder (capture/replay/; with the
// capture's motion: capture/replay/replay.h).
std::unique_ptr<KernelAnswers> MakeReplayKernel(std::string capture_dir);
// Asks `inner` and writes every answer under `capture_dir`/kernel/ (capture/record/).
std::unique_ptr<KernelAnswers> MakeRecordingKernel(std::shared_ptr<KernelAnswers> inner,
                                                   std::string capture_dir);

}  // namespace rocewatch::kernel
