#include "exporter/collectors/kernel_reader.h"

#include <cerrno>

#include "exporter/log.h"
#include "exporter/netlink/errno_name.h"

namespace rocewatch::collectors {

KernelReader::Outcome KernelReader::Classify(int errno_value) {
  switch (errno_value) {
    case 0:
      return Outcome::kOk;
    case ENODEV:
    case ENXIO:
      return Outcome::kGone;
    case EOPNOTSUPP:
#if ENOTSUP != EOPNOTSUPP
    case ENOTSUP:
#endif
    case ENODATA:  // replay: the capture does not hold this call
    case ENOSYS:
    case 524:  // ENOTSUPP, the kernel-internal "not supported" some drivers leak
      return Outcome::kUnsupported;
    default:
      return Outcome::kFailed;
  }
}

KernelReader::Outcome KernelReader::Check(const kernel::Answer& answer, std::string_view call,
                                          std::string_view subject, SourceStatus& status) {
  Outcome o = Classify(answer.error);
  if (o == Outcome::kFailed) {
    status.success = false;
    status.errors.push_back(std::string(subject) + ": " + std::string(call) + ": " +
                            netlink::DescribeErrno(answer.error));
  }
  return o;
}

KernelReader::Outcome KernelReader::CheckDecoded(const Error& error, std::string_view call,
                                                 std::string_view subject, SourceStatus& status) {
  // An Error without an errno is an answer that does not decode: always a failure.
  Outcome o = error.code == 0 ? Outcome::kFailed : Classify(error.code);
  if (o == Outcome::kOk) o = Outcome::kFailed;
  if (o == Outcome::kFailed) {
    status.success = false;
    status.errors.push_back(std::string(subject) + ": " + std::string(call) + ": " + error.message);
  }
  return o;
}

void KernelReader::Fail(std::string_view subject, const std::string& message,
                        SourceStatus& status) {
  status.success = false;
  status.errors.push_back(std::string(subject) + ": " + message);
}

void KernelReader::Vanished(std::string_view subject, SourceStatus& status) {
  vanished_total_ += 1;
  status.rediscover = true;
  status.errors.push_back(std::string(subject) + " vanished during collection");
}

bool KernelReader::NetdevGone(const fs::Tree& sysfs, const NetdevRef& ref, std::string_view call,
                              SourceStatus& status) {
  if (!sysfs.IsDirectory(ref.dir)) {
    Vanished("netdev " + ref.name, status);
    return true;
  }
  status.unavailable_values += 1;
  if (logged_.insert(ref.name + " " + std::string(call)).second) {
    log::Info("the driver answered ENODEV for a netdev that is still there; that value is left out",
              {{"netdev", ref.name}, {"call", std::string(call)}});
  }
  return false;
}

void KernelReader::Finish(SourceStatus& status) const { status.vanished_total = vanished_total_; }

}  // namespace rocewatch::collectors
