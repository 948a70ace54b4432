#pragma once

// The HTTP side: the telemetry path, a small landing page at "/", and nothing else (no
// document root, no directory listings; http/routes.h decides for both transports).
//
// Plain HTTP is prometheus-cpp's Exposer (civetweb). With a --web.config.file that has a
// tls_server_config, the TLS listener (http/tls_listener.h) is the only listener instead:
// civetweb's TLS crashes with OpenSSL 3 on Debian 12. Basic auth (basic_auth_users)
// applies to both.

#include <memory>
#include <string>

#include <prometheus/collectable.h>

#include "http/basic_auth.h"
#include "collect/scrape_coalescer.h"
#include "http/listen_address.h"
#include "http/web_config_reloader.h"
#include "rocewatch/result.h"

namespace prometheus {
class Exposer;
}

namespace rocewatch::http {

struct ServerOptions {
  ListenAddress listen;
  std::string telemetry_path = "/metrics";
  int threads = 4;
  // --web.config.file, loaded; null without the flag (plain HTTP, no authentication).
  std::shared_ptr<WebConfigReloader> web_config;
};

class TlsListener;

class Server {
 public:
  static Result<std::unique_ptr<Server>> Start(const ServerOptions& options,
                                               std::shared_ptr<ScrapeCoalescer> metrics);
  ~Server();
  // The port actually bound (useful with port 0).
  int port() const;
  // Whether this server speaks TLS (the web config has a tls_server_config).
  bool tls() const { return tls_ != nullptr; }

 private:
  Server() = default;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::unique_ptr<TlsListener> tls_;
  std::shared_ptr<BasicAuthenticator> auth_;
  std::shared_ptr<ScrapeCoalescer> metrics_;
};

// The landing page's HTML for a telemetry path.
std::string LandingPage(const std::string& telemetry_path);

}  // namespace rocewatch::http
