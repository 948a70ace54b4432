#include "rocewatch/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rocewatch {

Result<std::string> ReadFileCapped(const std::string& path, std::size_t max_bytes) {
  const bool is_stdin = (path == "-");
  int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    return Error{"cannot open " + path + ": " + std::strerror(err), err};
  }
  std::string data;
  struct stat st {};
  if (!is_stdin && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    data.reserve(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), max_bytes));
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      if (!is_stdin) ::close(fd);
      return Error{"cannot read " + path + ": " + std::strerror(err), err};
    }
    if (n == 0) break;
    if (data.size() + static_cast<std::size_t>(n) > max_bytes) {
      if (!is_stdin) ::close(fd);
      return Error{path + " is larger than the limit of " + std::to_string(max_bytes) + " bytes",
                   EFBIG};
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  if (!is_stdin) ::close(fd);
  return data;
}

}  // namespace rocewatch
