#include "exporter/fs/errno_record.h"

#include <cerrno>

#include "rocewatch/strings.h"

namespace rocewatch::fs {

int ParseErrnoRecord(std::string_view text) {
  text = Trim(text);
  const std::size_t end = text.find_first_of(" \t\n");
  auto number = ParseU64(text.substr(0, end));
  if (number && *number >= 1 && *number <= 4095) return static_cast<int>(*number);
  return EIO;
}

}  // namespace rocewatch::fs
