#pragma once

// `roce_exporter capture DIR`: runs one collection against this node with
// every tree and kernel call recorded, then writes what was read — the sysfs,
// configfs and debugfs subset (symlinks kept), the kernel answers and a
// capture.json — as a directory that `--replay DIR` serves through the same
// parsers (docs/capture.md).

#include <string>
#include <vector>

#include "exporter/pass/runner.h"
#include "rocewatch/result.h"

namespace rocewatch::capture {

struct CaptureResult {
  std::size_t files = 0, links = 0, failed_reads = 0;
  // Symlinks and files not copied because they lead out of their tree or are not plain files
  // (a hostile capture captured again): each is logged.
  std::size_t refused = 0;
  // QP owners that exited during the pass: their comm and cgroup could not be kept (each
  // logged).
  std::size_t vanished_processes = 0;
  // Collectors that had not finished at --collector.timeout: the capture lacks what they had
  // not read by then, so it is incomplete (the command says so and exits 1).
  std::vector<std::string> timed_out;
};

// `config` says what to read (roots, filters, collectors); its kernel is
// replaced by a recording one. DIR must not exist or be empty.
Result<CaptureResult> Capture(PassConfig config, const std::string& dir,
                              const std::string& description);

}  // namespace rocewatch::capture
