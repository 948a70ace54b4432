#pragma once

// The exporter's HTTP side: the telemetry path and a small landing page at "/" on the one
// HTTP/HTTPS server of the project (http/server.h: event loop, router, limits), with
// --web.config.file's TLS and basic auth. A scrape's collection runs on the server's work
// pool through the ScrapeCoalescer (concurrent scrapes share one pass), with the scrape's
// announced timeout passed as a parameter.

#include <memory>
#include <string>

#include "exporter/pass/scrape_coalescer.h"
#include "http/listen_address.h"
#include "http/server_limits.h"
#include "http/web_config_reloader.h"
#include "rocewatch/result.h"

namespace rocewatch::http {
class Server;
}

namespace rocewatch::endpoints {

struct ServerOptions {
  http::ListenAddress listen;
  std::string telemetry_path = "/metrics";
  int threads = 4;  // --web.max-threads: the work pool that runs collections
  http::ServerLimits limits;
  // --web.config.file, loaded; null without the flag (plain HTTP, no authentication).
  std::shared_ptr<http::WebConfigReloader> web_config;
};

class ExporterServer {
 public:
  static Result<std::unique_ptr<ExporterServer>> Start(const ServerOptions& options,
                                                       std::shared_ptr<ScrapeCoalescer> metrics);
  ~ExporterServer();
  // The port actually bound (useful with port 0).
  int port() const;
  // Whether this server speaks TLS (the web config has a tls_server_config).
  bool tls() const;

 private:
  ExporterServer() = default;
  std::unique_ptr<http::Server> server_;
};

// The landing page's HTML for a telemetry path. It names neither the version nor the git
// revision (docs/security.md: what an unauthenticated client may learn); the version is the
// roce_exporter_build_info series, behind the same authentication as every metric.
std::string LandingPage(const std::string& telemetry_path);

}  // namespace rocewatch::endpoints
