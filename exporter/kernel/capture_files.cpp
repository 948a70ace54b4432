#include "kernel/capture_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fs/errno_record.h"
#include "netlink/errno_name.h"
#include "rocewatch/read_file.h"
#include "rocewatch/strings.h"

namespace rocewatch::kernel {

namespace stdfs = std::filesystem;

Status WriteAnswer(const std::string& capture_dir, const std::string& key, const Answer& answer) {
  stdfs::path path = stdfs::path(capture_dir) / "kernel" / key;
  std::error_code ec;
  stdfs::create_directories(path.parent_path(), ec);
  if (ec) return Error{"cannot create " + path.parent_path().string() + ": " + ec.message()};
  if (answer.ok()) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(answer.bytes.data()),
              static_cast<std::streamsize>(answer.bytes.size()));
    if (!out) return Error{"cannot write " + path.string()};
  } else {
    std::ofstream out(path.string() + ".errno", std::ios::trunc);
    out << answer.error << " " << netlink::ErrnoName(answer.error) << "\n";
    if (!out) return Error{"cannot write " + path.string() + ".errno"};
  }
  return {};
}

Answer ReadAnswer(const std::string& capture_dir, const std::string& key) {
  stdfs::path path = stdfs::path(capture_dir) / "kernel" / key;
  // A replayed answer is a captured ethtool or netlink reply: kilobytes, never more than 16 MiB.
  auto data = ReadFileCapped(path.string(), 16u << 20);
  if (data) {
    Answer answer{std::vector<std::uint8_t>(data->size()), 0};
    std::memcpy(answer.bytes.data(), data->data(), data->size());
    return answer;
  }
  if (data.error().code != ENOENT) return Answer{{}, data.error().code != 0 ? data.error().code : EIO};
  // A call that failed on the captured node; anything but a missing .errno is that failure.
  auto err = ReadFileCapped(path.string() + ".errno", 4096);
  if (err) return Answer{{}, fs::ParseErrnoRecord(*err)};
  if (err.error().code != ENOENT) return Answer{{}, EIO};
  return Answer{{}, ENODATA};
}

}  // namespace rocewatch::kernel
