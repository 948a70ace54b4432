#include "exporter/cli/exporter_flags.h"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <regex>

#include "exporter/capture/replay/replay.h"
#include "exporter/collectors/registry.h"
#include "rocewatch/duration.h"
#include "rocewatch/strings.h"

namespace rocewatch::cli {
namespace {

Result<std::optional<std::regex>> CompileRegex(const FlagSet& flags, const std::string& name) {
  const std::string& text = flags.Get(name);
  if (text.empty()) return std::optional<std::regex>{};
  try {
    return std::optional<std::regex>{std::regex(text, std::regex::ECMAScript | std::regex::optimize)};
  } catch (const std::regex_error& ex) {
    return Error{"--" + name + "=" + text + ": invalid regular expression: " + ex.what()};
  }
}

Status CheckDirectory(const std::string& flag, const std::string& path, bool required) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (!required && errno == ENOENT) return {};
    return Error{"--" + flag + "=" + path + ": " + std::strerror(errno)};
  }
  if (!S_ISDIR(st.st_mode)) return Error{"--" + flag + "=" + path + ": not a directory"};
  return {};
}

}  // namespace

FlagSet MakeExporterFlags() {
  FlagSet f("roce_exporter");
  f.AddString("web.listen-address", ":9879", "address to serve metrics on", "HOST:PORT");
  f.AddString("web.telemetry-path", "/metrics", "path under which to expose metrics", "PATH");
  f.AddString("web.max-threads", "4",
              "threads that run collections for scrapes (connections are served by one event loop)", "N");
  f.AddString("web.max-connections", "1024",
              "connections open at once; when full, the one waiting longest for its client is "
              "closed (lowered to fit the descriptor limit)", "N");
  f.AddString("web.max-connections-per-client", "256",
              "connections open at once from one client address, the same way", "N");
  f.AddString("web.header-timeout", "10s",
              "time a client has to send a whole request head (and a TLS handshake)", "DURATION");
  f.AddString("web.config.file", "",
              "TLS and basic authentication configuration, in the format of Prometheus's "
              "exporter-toolkit (see docs/security.md)",
              "FILE");
  f.AddString("web.scrape-timeout-offset", "500ms",
              "time kept free of the scrape timeout Prometheus announces, to render and send", "DURATION");
  f.AddString("web.coalesce-window", "200ms",
              "scrapes arriving this soon after a collection finished share its result (0 to disable)",
              "DURATION");
  f.AddString("collector.timeout", "10s",
              "longest wait for a collector when the scrape announces no timeout", "DURATION");
  f.AddString("path.sysfs", "/sys", "sysfs mount point", "DIR");
  f.AddString("path.configfs", "/sys/kernel/config", "configfs mount point", "DIR");
  f.AddString("path.debugfs", "/sys/kernel/debug", "debugfs mount point", "DIR");
  f.AddString("path.procfs", "/proc",
              "procfs mount point (the host's: --collector.rdma.per-process reads /proc/PID/cgroup)",
              "DIR");
  f.AddString("replay", "", "serve a capture directory instead of this node (sets the four paths)",
              "DIR");
  f.AddString("device-include", "", "regex of RDMA device names to read (default: all)", "REGEX");
  f.AddString("device-exclude", "", "regex of RDMA device names to skip", "REGEX");
  f.AddString("netdev-include", "",
              "regex of extra netdevs without an RDMA device to read (bonds, veth for tests)", "REGEX");
  for (const auto& s : collectors::AllCollectors()) {
    f.AddBool("collector." + std::string(s.name), s.enabled_by_default,
              "enable the " + std::string(s.name) + " collector: " + std::string(s.help));
    for (const auto& opt : s.options) {
      f.AddString("collector." + std::string(s.name) + "." + std::string(opt.name),
                  std::string(opt.default_value), std::string(opt.help));
    }
  }
  f.AddString("log.level", "info", "one of debug, info, warn, error", "LEVEL");
  f.AddBool("help", false, "show this help and exit");
  f.AddBool("version", false, "show the version and exit");
  return f;
}

Result<ExporterSettings> SettingsFromFlags(const FlagSet& flags) {
  ExporterSettings s;
  PassConfig& c = s.collector;
  const std::string& replay = flags.Get("replay");
  if (!replay.empty()) {
    auto node = replay::OpenReplay(replay);
    if (!node) return node.error();
    c.sysfs_root = node->sysfs_root;
    c.configfs_root = node->configfs_root;
    c.debugfs_root = node->debugfs_root;
    c.procfs_root = node->procfs_root;
    c.sysfs_transform = std::move(node->sysfs_transform);
    c.kernel = std::move(node->kernel);
    s.replaying = std::move(node->summary);
  } else {
    c.sysfs_root = flags.Get("path.sysfs");
    c.configfs_root = flags.Get("path.configfs");
    c.debugfs_root = flags.Get("path.debugfs");
    c.procfs_root = flags.Get("path.procfs");
    Status sys = CheckDirectory("path.sysfs", c.sysfs_root, true);
    if (!sys.ok()) return sys.error();
    struct stat st;
    if (::stat((c.sysfs_root + "/class").c_str(), &st) != 0)
      return Error{"--path.sysfs=" + c.sysfs_root + ": does not look like sysfs (no class/ inside)"};
    for (const char* name : {"path.configfs", "path.debugfs", "path.procfs"}) {
      Status ok = CheckDirectory(name, flags.Get(name), false);
      if (!ok.ok()) return ok.error();
    }
  }

  auto include = CompileRegex(flags, "device-include");
  if (!include) return include.error();
  auto exclude = CompileRegex(flags, "device-exclude");
  if (!exclude) return exclude.error();
  auto extra = CompileRegex(flags, "netdev-include");
  if (!extra) return extra.error();
  c.discover.devices.include = *include;
  c.discover.devices.exclude = *exclude;
  c.discover.extra_netdevs = *extra;

  for (const auto& src : collectors::AllCollectors()) {
    std::string name(src.name);
    if (!flags.GetBool("collector." + name)) continue;
    c.enabled_collectors.push_back(name);
    for (const auto& opt : src.options) {
      c.collector_options[name][std::string(opt.name)] =
          flags.Get("collector." + name + "." + std::string(opt.name));
    }
  }

  auto listen = http::ParseListenAddress(flags.Get("web.listen-address"));
  if (!listen) return listen.error();
  s.server.listen = *listen;
  s.server.telemetry_path = flags.Get("web.telemetry-path");
  if (s.server.telemetry_path.empty() || s.server.telemetry_path.front() != '/' ||
      s.server.telemetry_path == "/")
    return Error{"--web.telemetry-path=" + s.server.telemetry_path +
                 ": must start with / and not be / (the landing page)"};
  auto threads = ParseU64(flags.Get("web.max-threads"));
  if (!threads || *threads == 0 || *threads > 256)
    return Error{"--web.max-threads=" + flags.Get("web.max-threads") + ": expected 1 to 256"};
  s.server.threads = static_cast<int>(*threads);
  for (const char* name : {"web.max-connections", "web.max-connections-per-client"}) {
    auto n = ParseU64(flags.Get(name));
    if (!n || *n == 0 || *n > 1000000)
      return Error{std::string("--") + name + "=" + flags.Get(name) + ": expected 1 to 1000000"};
    (std::string_view(name) == "web.max-connections" ? s.server.limits.max_connections
                                                     : s.server.limits.max_connections_per_client) =
        static_cast<std::size_t>(*n);
  }
  auto header_timeout = ParseDuration(flags.Get("web.header-timeout"));
  if (!header_timeout || *header_timeout < 0.1 || *header_timeout > 3600)
    return Error{"--web.header-timeout=" + flags.Get("web.header-timeout") +
                 ": expected a duration from 100ms to 1h"};
  s.server.limits.header_timeout = s.server.limits.handshake_timeout =
      std::chrono::milliseconds(static_cast<long long>(*header_timeout * 1000));
  if (const std::string& web_config = flags.Get("web.config.file"); !web_config.empty()) {
    auto reloader = http::WebConfigReloader::Open(web_config);
    if (!reloader) return Error{"--web.config.file: " + reloader.error().message};
    s.server.web_config = *reloader;
  }
  auto offset = ParseDuration(flags.Get("web.scrape-timeout-offset"));
  if (!offset) return Error{"--web.scrape-timeout-offset: " + offset.error().message};
  s.timeout_offset_seconds = *offset;
  auto window = ParseDuration(flags.Get("web.coalesce-window"));
  if (!window || *window > 60)
    return Error{"--web.coalesce-window: " + (window ? std::string("at most 60s") : window.error().message)};
  s.coalesce_window_seconds = *window;
  auto timeout = ParseDuration(flags.Get("collector.timeout"));
  if (!timeout || *timeout <= 0)
    return Error{"--collector.timeout: " + (timeout ? std::string("must be positive") : timeout.error().message)};
  c.source_timeout_seconds = *timeout;
  s.log_level = flags.Get("log.level");
  return s;
}

}  // namespace rocewatch::cli
