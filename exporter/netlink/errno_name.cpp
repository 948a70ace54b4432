#include "exporter/netlink/errno_name.h"

#include <cerrno>
#include <string>

namespace rocewatch::netlink {
namespace {

struct ErrnoEntry {
  int value;
  std::string_view name;
  std::string_view description;
};

// ENOTSUPP (524) is kernel-internal but leaks to userspace from some handlers
// (dcbnl_setfeatcfg, a few drivers); it has no libc macro.
constexpr int kKernelEnotsupp = 524;

constexpr ErrnoEntry kErrnos[] = {
    {EPERM, "EPERM", "operation not permitted"},
    {ENOENT, "ENOENT", "no such file or directory"},
    {ESRCH, "ESRCH", "no such process"},
    {EINTR, "EINTR", "interrupted system call"},
    {EIO, "EIO", "input/output error"},
    {ENXIO, "ENXIO", "no such device or address"},
    {E2BIG, "E2BIG", "argument list too long"},
    {EBADF, "EBADF", "bad file descriptor"},
    {EAGAIN, "EAGAIN", "resource temporarily unavailable"},
    {ENOMEM, "ENOMEM", "cannot allocate memory"},
    {EACCES, "EACCES", "permission denied"},
    {EFAULT, "EFAULT", "bad address"},
    {EBUSY, "EBUSY", "device or resource busy"},
    {EEXIST, "EEXIST", "file exists"},
    {ENODEV, "ENODEV", "no such device"},
    {EINVAL, "EINVAL", "invalid argument"},
    {ENOSPC, "ENOSPC", "no space left on device"},
    {ERANGE, "ERANGE", "numerical result out of range"},
    {ENOSYS, "ENOSYS", "function not implemented"},
    {ENODATA, "ENODATA", "no data available"},
    {ETIME, "ETIME", "timer expired"},
    {EPROTO, "EPROTO", "protocol error"},
    {EOVERFLOW, "EOVERFLOW", "value too large for defined data type"},
    {EMSGSIZE, "EMSGSIZE", "message too long"},
    {EPROTONOSUPPORT, "EPROTONOSUPPORT", "protocol not supported"},
    {EOPNOTSUPP, "EOPNOTSUPP", "operation not supported"},
    {EAFNOSUPPORT, "EAFNOSUPPORT", "address family not supported by protocol"},
    {ENETDOWN, "ENETDOWN", "network is down"},
    {ENOBUFS, "ENOBUFS", "no buffer space available"},
    {ETIMEDOUT, "ETIMEDOUT", "connection timed out"},
    {EREMOTEIO, "EREMOTEIO", "remote I/O error"},
    {kKernelEnotsupp, "ENOTSUPP", "operation not supported (kernel-internal code)"},
};

}  // namespace

std::string_view ErrnoName(int errno_value) {
  for (const ErrnoEntry& e : kErrnos) {
    if (e.value == errno_value) return e.name;
  }
  return {};
}

std::string DescribeErrno(int errno_value) {
  for (const ErrnoEntry& e : kErrnos) {
    if (e.value == errno_value) {
      return std::string(e.name) + " (" + std::string(e.description) + ")";
    }
  }
  return "errno " + std::to_string(errno_value);
}

}  // namespace rocewatch::netlink
