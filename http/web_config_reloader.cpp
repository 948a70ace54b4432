#include "http/web_config_reloader.h"

#include <sys/stat.h>

#include "http/http_log.h"

namespace rocewatch::http {

Result<std::shared_ptr<const ActiveWebConfig>> LoadWebConfig(const std::string& path) {
  auto config = ReadWebConfigFile(path);
  if (!config) return config.error();
  auto active = std::make_shared<ActiveWebConfig>();
  if (config->tls) {
    auto tls = TlsContext::Create(*config->tls, path);
    if (!tls) return tls.error();
    active->tls = *tls;
  }
  active->config = std::move(*config);
  return std::shared_ptr<const ActiveWebConfig>(std::move(active));
}

WebConfigReloader::Stamp WebConfigReloader::StampOf(const std::string& file) {
  Stamp s;
  s.file = file;
  struct stat st;
  if (::stat(file.c_str(), &st) != 0) return s;
  s.exists = true;
  s.dev = st.st_dev;
  s.ino = st.st_ino;
  s.size = st.st_size;
  s.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  s.ctime_ns = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  return s;
}

std::vector<WebConfigReloader::Stamp> WebConfigReloader::StampsFor(const ActiveWebConfig& c) const {
  std::vector<Stamp> out;
  if (!c.tls) return out;
  for (const auto& f : c.tls->files()) out.push_back(StampOf(f));
  return out;
}

Result<std::shared_ptr<WebConfigReloader>> WebConfigReloader::Open(
    const std::string& path, std::chrono::milliseconds check_interval) {
  std::shared_ptr<WebConfigReloader> r(new WebConfigReloader(path, check_interval));
  Stamp own = StampOf(path);
  auto loaded = LoadWebConfig(path);
  if (!loaded) return loaded.error();
  r->current_ = *loaded;
  r->tls_ = (*loaded)->tls != nullptr;
  r->stamps_ = {own};
  for (auto& s : r->StampsFor(**loaded)) r->stamps_.push_back(std::move(s));
  for (const auto& w : (*loaded)->tls ? (*loaded)->tls->warnings() : std::vector<std::string>{})
    http_log::Warn("web config", {{"file", path}, {"warning", w}});
  if (check_interval.count() > 0) r->watcher_ = std::thread([raw = r.get()] { raw->Watch(); });
  return r;
}

WebConfigReloader::~WebConfigReloader() {
  {
    std::lock_guard<std::mutex> lock(watch_mu_);
    stopping_ = true;
  }
  watch_cv_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

void WebConfigReloader::Watch() {
  std::unique_lock<std::mutex> lock(watch_mu_);
  while (!watch_cv_.wait_for(lock, interval_, [&] { return stopping_; })) {
    lock.unlock();
    CheckNow();
    lock.lock();
  }
}

std::shared_ptr<const ActiveWebConfig> WebConfigReloader::Current() const {
  std::lock_guard<std::mutex> lock(mu_);
  return current_;
}

bool WebConfigReloader::CheckNow() {
  std::lock_guard<std::mutex> lock(check_mu_);
  return CheckLocked();
}

std::uint64_t WebConfigReloader::reloads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reloads_;
}

bool WebConfigReloader::CheckLocked() {
  bool changed = false;
  for (const auto& s : stamps_) changed = changed || StampOf(s.file) != s;
  if (!changed) return false;
  // Stamps first, then the reads: a change during the reads shows at the next check.
  Stamp own = StampOf(path_);
  auto loaded = LoadWebConfig(path_);
  std::string error;
  if (!loaded) {
    error = loaded.error().message;
  } else if (((*loaded)->tls != nullptr) != tls_) {
    error = path_ + ": switching TLS " + std::string(tls_ ? "off" : "on") +
            " needs a restart of roce_exporter";
  } else if ((*loaded)->config.users.empty() && !Current()->config.users.empty()) {
    error = path_ +
            ": basic_auth_users is empty now; removing every user would turn authentication "
            "off, which needs a restart of roce_exporter";
  }
  if (!error.empty()) {
    // Keep what is in force; look again when a file changes once more.
    std::vector<Stamp> stamps = {own};
    if (loaded) {
      for (auto& s : StampsFor(**loaded)) stamps.push_back(std::move(s));
    } else {
      for (std::size_t i = 1; i < stamps_.size(); ++i) stamps.push_back(StampOf(stamps_[i].file));
    }
    stamps_ = std::move(stamps);
    if (error != last_error_) {
      http_log::Error("web config not reloaded; the previous one stays in force",
                      {{"file", path_}, {"error", error}});
      last_error_ = error;
    }
    return false;
  }
  stamps_ = {own};
  for (auto& s : StampsFor(**loaded)) stamps_.push_back(std::move(s));
  const std::shared_ptr<const ActiveWebConfig> now = *loaded;
  {
    std::lock_guard<std::mutex> lock(mu_);
    current_ = now;
    ++reloads_;
  }
  last_error_.clear();
  http_log::Fields fields = {{"file", path_}};
  if (now->tls) fields.emplace_back("certificate", now->tls->summary());
  http_log::Info("web config reloaded", fields);
  if (now->tls) {
    for (const auto& w : now->tls->warnings())
      http_log::Warn("web config", {{"file", path_}, {"warning", w}});
  }
  return true;
}

}  // namespace rocewatch::http
