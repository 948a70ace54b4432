#pragma once

// Shared bookkeeping for sources that read sysfs attributes, and the one place
// the rule "absent is not vanished" (docs/design.md#absent-is-not-vanished) lives:
//
//   kOk           the value was read
//   kGone         the read failed with ENODEV/ENOENT/ENXIO *and* the object's own
//                 directory (device, port, netdev, PCI function, configfs group) is
//                 no longer there: the object left; the source drops it from this
//                 pass and the inventory is rebuilt (Vanished)
//   kUnavailable  anything else: that one value is absent. Counted in the status's
//                 unavailable_values, logged once per attribute, and the rest of the
//                 object is served. Expected answers (a missing file, EINVAL from a
//                 down netdev's `speed`, bnxt_re's `port_rcv_data`, EOPNOTSUPP, ...)
//                 leave the source's success alone; unexpected ones (EIO, EACCES)
//                 also record an error, so the source reports success 0.

#include <set>
#include <string>
#include <string_view>

#include "exporter/fs/attribute.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

class AttributeReader {
 public:
  enum class Outcome { kOk, kGone, kUnavailable };

  // Reads `attr`, which belongs to the object whose directory is `object_dir`
  // (relative to the attribute's tree), into `text`.
  Outcome Read(fs::Attribute& attr, std::string_view object_dir, std::string& text,
               SourceStatus& status);

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
  double parse_errors_total() const { return parse_errors_total_; }

  // True for the errno values that only mean "this value is absent here" (a
  // missing file, EINVAL and the "not supported" family): no source failure.
  static bool ExpectedAbsence(int err);

 private:
  double parse_errors_total_ = 0;
  double vanished_total_ = 0;
  std::set<std::string> logged_;
};

}  // namespace rocewatch::collectors
