#include "sources/attribute_reader.h"

#include <cerrno>

#include "util/log.h"

namespace rocewatch::sources {

AttributeReader::Outcome AttributeReader::Read(fs::Attribute& attr, std::string& text,
                                               SourceStatus& status) {
  Status s = attr.Read(text);
  if (s.ok()) return Outcome::kOk;
  if (fs::IsGone(s.error().code)) return Outcome::kGone;
  status.success = false;
  status.errors.push_back(s.error().message);
  return Outcome::kFailed;
}

AttributeReader::Outcome AttributeReader::ReadTolerating(fs::Attribute& attr, std::string& text,
                                                         SourceStatus& status,
                                                         int tolerated_errno) {
  Status s = attr.Read(text);
  if (s.ok()) return Outcome::kOk;
  if (fs::IsGone(s.error().code)) return Outcome::kGone;
  if (s.error().code == tolerated_errno) return Outcome::kUnavailable;
  status.success = false;
  status.errors.push_back(s.error().message);
  return Outcome::kFailed;
}

AttributeReader::Outcome AttributeReader::ReadCounter(fs::Attribute& attr, std::string& text,
                                                      SourceStatus& status) {
  Status s = attr.Read(text);
  if (s.ok()) return Outcome::kOk;
  int err = s.error().code;
  if (fs::IsGone(err)) return Outcome::kGone;
  if (err == EINVAL || err == EOPNOTSUPP || err == ENOSYS || err == ENODATA) {
    Unavailable(status);
    return Outcome::kUnavailable;
  }
  status.success = false;
  status.errors.push_back(s.error().message);
  return Outcome::kFailed;
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

}  // namespace rocewatch::sources
