#include "exporter/capture/record/capture.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "exporter/capture/files/capture_metadata.h"
#include "exporter/collectors/registry.h"
#include "exporter/collectors/sysfs_values.h"
#include "exporter/fs/beneath.h"
#include "exporter/log.h"
#include "rocewatch/version.h"

namespace rocewatch::capture {
namespace {

namespace stdfs = std::filesystem;

// Reproduces `rel` of `tree` under `dest`: directories, the symlinks on the
// way (with their stored targets), and the file at the end (or its .errno).
class TreeCopier {
 public:
  TreeCopier(const fs::Tree& tree, std::string dest, CaptureResult& result)
      : tree_(tree), dest_(std::move(dest)), result_(result) {}

  // `kind`: 'f' copy the final component as a file, 'd' as a directory, 'l' only its links.
  void Copy(const std::string& rel, char kind) {
    std::string cur;
    std::string todo = rel;
    int hops = 0;
    while (!todo.empty()) {
      auto slash = todo.find('/');
      std::string part = todo.substr(0, slash);
      todo = slash == std::string::npos ? std::string() : todo.substr(slash + 1);
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        cur = std::string(fs::DirName(cur));
        continue;
      }
      std::string next = fs::Join(cur, part);
      struct stat st;
      if (const int err = tree_.LinkStat(next, st); err != 0) {
        if (todo.empty() && kind == 'f') CopyFile(next);  // keeps the errno of the read
        // A directory that could not be listed (debugfs without root: EACCES): the
        // replay's List answers the same errno.
        if (kind == 'd') {
          const std::string wanted = todo.empty() ? next : fs::Join(next, todo);
          const int recorded = err == ENOENT ? tree_.RecordedErrno(wanted) : err;
          if (recorded != ENOENT) RecordErrno(wanted, recorded);
        }
        return;
      }
      if (S_ISLNK(st.st_mode)) {
        if (++hops > 40) return;
        auto target = tree_.ReadLink(next);
        if (!target || target->empty()) return;
        // A link that leaves the tree (absolute, or climbing above the root: a hostile capture
        // being captured again) is never copied; the capture says so.
        auto resolved = target->front() == '/'
                            ? Result<std::string>(Error{"absolute target"})
                            : fs::Normalize(fs::Join(fs::DirName(next), *target));
        if (!resolved) {
          Refuse(next, *target);
          return;
        }
        MakeParents(next);
        stdfs::path link = stdfs::path(dest_) / next;
        std::error_code ec;
        if (!stdfs::is_symlink(link, ec)) {
          stdfs::create_symlink(*target, link, ec);
          if (!ec) ++result_.links;
        }
        // Continue through the link's target, which must exist in the copy too.
        if (todo.empty()) {
          todo = *resolved;
          cur.clear();
          if (kind == 'l') kind = 'd';
          continue;
        }
        todo = *resolved + "/" + todo;
        cur.clear();
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (todo.empty() && kind == 'd') {
          // There but not listable (mode 0700 and not root): recorded as the errno.
          auto listed = tree_.List(next);
          if (!listed) {
            const int err = listed.error().code;
            if (fs::IsRefusedPath(err)) {
              Refuse(next, "");
            } else if (err != ENOENT) {
              RecordErrno(next, err);
            }
            return;
          }
        }
        std::error_code ec;
        stdfs::create_directories(stdfs::path(dest_) / next, ec);
        cur = next;
        continue;
      }
      if (todo.empty() && kind == 'f') CopyFile(next);
      return;
    }
  }

 private:
  void Refuse(const std::string& rel, const std::string& target) {
    if (!refused_.insert(rel).second) return;
    ++result_.refused;
    log::Warn("capture: not copied, it leads out of the tree",
              {{"tree", tree_.name()}, {"path", tree_.Abs(rel)}, {"target", target}});
  }

  void RecordErrno(const std::string& rel, int err) {
    if (!copied_.insert(rel).second) return;
    MakeParents(rel);
    std::ofstream((stdfs::path(dest_) / rel).string() + ".errno") << err << " " << std::strerror(err) << "\n";
    ++result_.failed_reads;
  }

  void MakeParents(const std::string& rel) {
    std::error_code ec;
    stdfs::create_directories((stdfs::path(dest_) / rel).parent_path(), ec);
  }

  void CopyFile(const std::string& rel) {
    if (!copied_.insert(rel).second) return;
    MakeParents(rel);
    // Read without the transform and recorder: the node's own bytes, opened beneath the
    // tree's root like every read (a FIFO or device node of a replayed capture is refused).
    int fd = tree_.Open(rel);
    std::string content;
    int err = 0;
    if (fd < 0) {
      err = errno;
      // EPERM from a kernel file system is the node's answer, kept as its .errno; from a
      // replayed tree it is Tree::Open refusing a file that is not a plain file.
      if (err == EXDEV || err == ELOOP || (err == EPERM && !tree_.kernel_fs())) {
        Refuse(rel, "");
        return;
      }
    } else {
      char buf[4096];
      ssize_t n;
      while ((n = ::read(fd, buf, sizeof buf)) > 0) content.append(buf, static_cast<std::size_t>(n));
      if (n < 0) err = errno;
      ::close(fd);
    }
    stdfs::path out = stdfs::path(dest_) / rel;
    if ((err == ENOENT || err == ESRCH) && tree_.name() == "procfs") {
      // The process exited between the QP dump and this read (ESRCH: while its file was open):
      // the pass, and so the replay, serves its QPs without a comm and cgroup.
      const std::string pid = rel.substr(0, rel.find('/'));
      if (vanished_.insert(pid).second) {
        ++result_.vanished_processes;
        log::Warn("capture: a QP owner exited during the capture; its comm and cgroup are not kept",
                  {{"pid", pid}});
      }
    }
    // A GID slot nobody fills (all zeros, or an errno on newer kernels) is one the rdma source
    // skips: a port has 1,024 of them, so only the populated ones are kept. The replay lists the
    // populated ones and serves the same table.
    if (tree_.name() == "sysfs" && IsGidSlot(rel)) {
      if (err != 0) return;
      auto gid = collectors::ParseGid(content);
      if (gid && collectors::IsZeroGid(*gid)) return;
    }
    if (err != 0) {
      if (err == ENOENT) return;  // absent on the node: absent in the capture
      std::ofstream(out.string() + ".errno") << err << " " << std::strerror(err) << "\n";
      ++result_.failed_reads;
      return;
    }
    std::ofstream(out, std::ios::binary) << content;
    ++result_.files;
  }

  // ".../ports/N/gids/INDEX".
  static bool IsGidSlot(const std::string& rel) {
    const auto slash = rel.rfind('/');
    if (slash == std::string::npos || slash + 1 == rel.size()) return false;
    if (rel.find_first_not_of("0123456789", slash + 1) != std::string::npos) return false;
    return std::string_view(rel).substr(0, slash).ends_with("/gids");
  }

  const fs::Tree& tree_;
  std::string dest_;
  CaptureResult& result_;
  std::set<std::string> copied_, refused_, vanished_;
};

// Collects what each tree saw, by tree name (sources run on several threads). A procfs file
// (a QP owner's comm and cgroup) is copied at once, in the pass that reads the owners: a
// process that exits before the pass ends would otherwise be replayed without them.
class PathRecorder final : public fs::Recorder {
 public:
  explicit PathRecorder(TreeCopier* procfs) : procfs_(procfs) {}

  void OnRead(std::string_view tree, std::string_view rel) override {
    std::lock_guard<std::mutex> lock(mu_);
    reads_[std::string(tree)].emplace(rel);
    if (procfs_ != nullptr && tree == "procfs") procfs_->Copy(std::string(rel), 'f');
  }
  void OnList(std::string_view tree, std::string_view rel) override {
    std::lock_guard<std::mutex> lock(mu_);
    lists_[std::string(tree)].emplace(rel);
  }
  void OnLink(std::string_view tree, std::string_view rel) override {
    std::lock_guard<std::mutex> lock(mu_);
    links_[std::string(tree)].emplace(rel);
  }
  std::mutex mu_;
  std::map<std::string, std::set<std::string>> reads_, lists_, links_;

 private:
  TreeCopier* procfs_;
};

std::string TreeDir(const std::string& tree_name) {
  if (tree_name == "sysfs") return "sys";
  if (tree_name == "procfs") return "proc";
  return tree_name;  // configfs, debugfs
}

}  // namespace

Result<CaptureResult> Capture(PassConfig config, const std::string& dir,
                              const std::string& description) {
  std::error_code ec;
  if (stdfs::exists(dir, ec) && !stdfs::is_empty(dir, ec))
    return Error{"capture: " + dir + " is not empty; choose a new directory"};
  stdfs::create_directories(dir, ec);
  if (ec) return Error{"capture: cannot create " + dir + ": " + ec.message()};

  // Record what the node answers; when the config replays a capture already,
  // record the replay (a capture of a capture keeps only what is read).
  std::shared_ptr<kernel::KernelAnswers> inner =
      config.kernel ? config.kernel : kernel::MakeLiveKernel();
  config.kernel = kernel::MakeRecordingKernel(inner, dir);
  // A capture keeps everything the node has whatever the serving flags: an option that decides
  // what a source reads (the rdma counter trims) says what a capture reads with.
  for (const auto& source : collectors::AllCollectors())
    for (const auto& option : source.options)
      if (!option.capture_value.empty())
        config.collector_options[std::string(source.name)][std::string(option.name)] = std::string(option.capture_value);
  auto collector = PassRunner::Create(config);
  if (!collector) return collector.error();
  CaptureResult result;
  std::map<std::string, std::unique_ptr<TreeCopier>> copiers;
  for (const fs::Tree* tree : (*collector)->trees()) {
    copiers[tree->name()] =
        std::make_unique<TreeCopier>(*tree, (stdfs::path(dir) / TreeDir(tree->name())).string(), result);
  }
  PathRecorder recorder(copiers.count("procfs") ? copiers["procfs"].get() : nullptr);
  (*collector)->SetRecorder(&recorder);
  (*collector)->Collect();
  (*collector)->SetRecorder(nullptr);
  result.timed_out = (*collector)->timed_out();

  for (const fs::Tree* tree : (*collector)->trees()) {
    TreeCopier& copier = *copiers[tree->name()];
    for (const auto& rel : recorder.links_[tree->name()]) copier.Copy(rel, 'l');
    for (const auto& rel : recorder.lists_[tree->name()]) copier.Copy(rel, 'd');
    for (const auto& rel : recorder.reads_[tree->name()]) copier.Copy(rel, 'f');
  }

  utsname uts{};
  ::uname(&uts);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  replay::CaptureMetadata meta;
  meta.hostname = host;
  meta.kernel = uts.release;
  meta.created_by = std::string("roce_exporter capture ") + kVersion + " (" + kRevision + ")";
  meta.created_unix = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  meta.description = description;
  meta.collectors = config.enabled_collectors;
  const stdfs::path meta_path = stdfs::path(dir) / "capture.json";
  std::ofstream out(meta_path, std::ios::trunc);
  out << meta.ToJson();
  out.close();
  if (!out) return Error{"capture: cannot write " + meta_path.string()};
  return result;
}

}  // namespace rocewatch::capture
