#include "exporter/capture/files/capture_files.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>

#include "exporter/fs/beneath.h"
#include "exporter/fs/errno_record.h"
#include "exporter/log.h"
#include "exporter/netlink/errno_name.h"
#include "rocewatch/strings.h"

namespace rocewatch::kernel {

namespace stdfs = std::filesystem;

namespace {

// A refused answer file (it leaves the capture, or is not a plain file) is logged once.
std::atomic<std::uint64_t> g_refused{0};

void LogRefused(const Error& error) {
  if (!fs::IsRefusedPath(error.code)) return;
  g_refused.fetch_add(1, std::memory_order_relaxed);
  static std::mutex mu;
  static std::set<std::string> logged;
  std::lock_guard<std::mutex> lock(mu);
  if (logged.size() < 1024 && logged.insert(error.message).second)
    log::Warn("replay: kernel answer refused, not served", {{"error", error.message}});
}

}  // namespace

std::uint64_t RefusedAnswers() { return g_refused.load(std::memory_order_relaxed); }

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
  bool recorded = false;
  return ReadAnswer(capture_dir, key, recorded);
}

Answer ReadAnswer(const std::string& capture_dir, const std::string& key, bool& recorded) {
  recorded = false;
  // Beneath the capture directory, like every read of a replay: a hostile capture's
  // kernel/<key> that links to a host file is refused (EXDEV), never served.
  const std::string rel = "kernel/" + key;
  // A replayed answer is a captured ethtool or netlink reply: kilobytes, never more than 16 MiB.
  auto data = fs::ReadFileBeneath(capture_dir, rel, 16u << 20);
  if (data) {
    Answer answer{std::vector<std::uint8_t>(data->size()), 0};
    std::memcpy(answer.bytes.data(), data->data(), data->size());
    recorded = true;
    return answer;
  }
  if (data.error().code != ENOENT) {
    LogRefused(data.error());
    return Answer{{}, data.error().code != 0 ? data.error().code : EIO};
  }
  // A call that failed on the captured node; anything but a missing .errno is that failure.
  auto err = fs::ReadFileBeneath(capture_dir, rel + ".errno", 4096);
  if (err) {
    recorded = true;
    return Answer{{}, fs::ParseErrnoRecord(*err)};
  }
  if (err.error().code != ENOENT) {
    LogRefused(err.error());
    return Answer{{}, EIO};
  }
  recorded = true;
  return Answer{{}, ENODATA};
}

}  // namespace rocewatch::kernel
