#pragma once

// The web config in force, re-read when it changes. exporter-toolkit re-reads the file (and
// the certificate and key) on every request and connection, so certificates rotate without
// a restart; we do the same, cheaper: a watcher thread of the reloader stats the web config
// and the files it names (once a second), and re-reads and rebuilds only when one of them
// changed (size, mtime, ctime, inode: an edit, a rename over it, or a swapped symlink as
// Kubernetes and cert-manager do). The server's event loop only takes the configuration in
// force (Current), so a file that is slow or never answers cannot stall it; and only regular
// files are read (ReadSmallFile), so a FIFO or a device in their place is an error.
//
// A change that does not load (a key written before its certificate, a typo) keeps the
// previous configuration in force and is logged once; exporter-toolkit would instead fail
// every request until the files agree again. Switching TLS on or off needs a restart (the
// listener is one or the other), and is refused the same way; so is a change that removes
// every basic_auth_users entry (an emptied file would otherwise turn authentication off).

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "http/tls_context.h"
#include "http/web_config.h"
#include "rocewatch/result.h"

namespace rocewatch::http {

struct ActiveWebConfig {
  WebConfig config;
  std::shared_ptr<TlsContext> tls;  // null without tls_server_config
};

// Reads `path` and builds its TLS context: the check behind --web.config.file at startup
// (an error names the file and what is wrong).
Result<std::shared_ptr<const ActiveWebConfig>> LoadWebConfig(const std::string& path);

class WebConfigReloader {
 public:
  // With a zero interval no watcher runs: CheckNow alone reloads (for tests).
  static Result<std::shared_ptr<WebConfigReloader>> Open(
      const std::string& path, std::chrono::milliseconds check_interval = std::chrono::seconds(1));
  ~WebConfigReloader();
  WebConfigReloader(const WebConfigReloader&) = delete;
  WebConfigReloader& operator=(const WebConfigReloader&) = delete;

  // The configuration in force, for a new connection or request: never reads a file.
  std::shared_ptr<const ActiveWebConfig> Current() const;
  // Checks the files now, whatever the interval; true when a new configuration was loaded.
  bool CheckNow();

  const std::string& path() const { return path_; }
  bool tls() const { return tls_; }
  std::uint64_t reloads() const;

 private:
  struct Stamp {
    std::string file;
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    std::int64_t mtime_ns = 0, ctime_ns = 0;
    bool operator==(const Stamp&) const = default;
  };
  static Stamp StampOf(const std::string& file);
  std::vector<Stamp> StampsFor(const ActiveWebConfig& c) const;
  bool CheckLocked();
  void Watch();

  WebConfigReloader(std::string path, std::chrono::milliseconds interval)
      : path_(std::move(path)), interval_(interval) {}
  std::string path_;
  std::chrono::milliseconds interval_;
  bool tls_ = false;
  mutable std::mutex mu_;  // current_, reloads_: held for a pointer copy, never for a read
  std::shared_ptr<const ActiveWebConfig> current_;
  std::uint64_t reloads_ = 0;
  std::mutex check_mu_;  // one check at a time: stamps_, last_error_
  std::vector<Stamp> stamps_;
  std::string last_error_;
  std::mutex watch_mu_;
  std::condition_variable watch_cv_;
  bool stopping_ = false;
  std::thread watcher_;
};

}  // namespace rocewatch::http
