#include "exporter/collectors/attribute_reader.h"

#include <cerrno>

#include "exporter/fs/beneath.h"
#include "exporter/log.h"
#include "exporter/netlink/errno_name.h"

namespace rocewatch::collectors {

bool AttributeReader::ExpectedAbsence(int err) {
  switch (err) {
    case ENOENT:      // the file does not exist on this kernel/driver (lid on OPA, counters/ on irdma)
    case ENODEV:      // the attribute's backing is gone but its object is still here
    case ENXIO:
    case EINVAL:      // speed/carrier of a down netdev; bnxt_re port_rcv_data
    case EOPNOTSUPP:  // counters a device cannot give (kernels >= 6.x)
#if ENOTSUP != EOPNOTSUPP
    case ENOTSUP:
#endif
    case ENOSYS:
    case ENODATA:
    case EAGAIN:
    case EBUSY:
    case 524:  // ENOTSUPP, the kernel-internal "not supported" some drivers leak
      return true;
    default:
      return false;
  }
}

AttributeReader::Outcome AttributeReader::Read(fs::Attribute& attr, std::string_view object_dir,
                                               std::string& text, SourceStatus& status) {
  Status s = attr.Read(text);
  if (s.ok()) return Outcome::kOk;
  int err = s.error().code;
  // Absent since the inventory was built (fs/attribute.h): unavailable as before, without
  // asking the tree whether the object's directory is still there.
  if (attr.absent()) {
    Unavailable(status);
    return Outcome::kUnavailable;
  }
  // Only the object's own directory going away means the object left.
  if (fs::IsGone(err) && !attr.tree()->IsDirectory(object_dir)) return Outcome::kGone;
  Unavailable(status);
  // A path the tree refused to open (a capture's link out of its tree, fs/beneath.h) is a
  // value unavailable too, never a failed source: one hostile file must not fail a scrape.
  if (!ExpectedAbsence(err) && !fs::IsRefusedPath(err)) {
    status.success = false;
    status.errors.push_back(s.error().message);
  }
  if (logged_.insert(attr.tree()->Abs(attr.rel())).second) {
    log::Info("attribute unavailable; its value is left out",
              {{"attribute", attr.tree()->Abs(attr.rel())}, {"error", netlink::DescribeErrno(err)}});
  }
  return Outcome::kUnavailable;
}

void AttributeReader::ParseError(const std::string& where, const std::string& message) {
  parse_errors_total_ += 1;
  if (logged_.insert(where).second) {
    log::Warn("value does not parse", {{"attribute", where}, {"error", message}});
  }
}

void AttributeReader::Finish(SourceStatus& status) const {
  status.parse_errors_total = parse_errors_total_;
  status.vanished_total = vanished_total_;
}

}  // namespace rocewatch::collectors
