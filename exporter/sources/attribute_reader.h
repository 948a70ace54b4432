#pragma once

// Shared bookkeeping for sources that read sysfs attributes: turns read and
// parse failures into SourceStatus entries, logs each broken attribute once,
// and tells "the device went away" apart from "the read failed".

#include <set>
#include <string>

#include "fs/attribute.h"
#include "model/snapshot.h"

namespace rocewatch::sources {

class AttributeReader {
 public:
  enum class Outcome { kOk, kGone, kUnavailable, kFailed };

  // Reads `attr` into `text`. Gone (ENODEV/ENOENT) is reported as kGone and is
  // not an error; any other failure is recorded in `status` and fails the source.
  Outcome Read(fs::Attribute& attr, std::string& text, SourceStatus& status);
  // Same for an attribute where some errno values are a normal answer (reading
  // `carrier` or `speed` of a netdev that is down gives EINVAL): those give
  // kUnavailable without failing the source.
  Outcome ReadTolerating(fs::Attribute& attr, std::string& text, SourceStatus& status,
                         int tolerated_errno);
  // For counters: kernels before 6.x print "N/A (no PMA)" for a counter the
  // device cannot give, newer ones fail the read (EINVAL, EOPNOTSUPP, ENOSYS,
  // ENODATA). Both are counted as unavailable, neither fails the source.
  Outcome ReadCounter(fs::Attribute& attr, std::string& text, SourceStatus& status);

  // Records a value that did not parse: counted, and logged once per attribute.
  void ParseError(const std::string& where, const std::string& message);
  // A value the kernel marked unavailable ("N/A (no PMA)").
  void Unavailable(SourceStatus& status) { status.unavailable_values += 1; }
  // A device or netdev disappeared: counted, and the inventory is rebuilt next time.
  void Vanished(SourceStatus& status) {
    vanished_total_ += 1;
    status.rediscover = true;
  }

  // Copies the cumulative counters into this collection's status.
  void Finish(SourceStatus& status) const;

 private:
  double parse_errors_total_ = 0;
  double vanished_total_ = 0;
  std::set<std::string> logged_;
};

}  // namespace rocewatch::sources
