#pragma once

// The HTTP side: prometheus-cpp's Exposer (civetweb) serving the telemetry
// path, a small landing page at "/", and nothing else (no document root, no
// directory listings).

#include <memory>
#include <string>

#include <prometheus/collectable.h>

#include "http/listen_address.h"
#include "rocewatch/result.h"

namespace prometheus {
class Exposer;
}

namespace rocewatch::http {

struct ServerOptions {
  ListenAddress listen;
  std::string telemetry_path = "/metrics";
  int threads = 4;
};

class Server {
 public:
  static Result<std::unique_ptr<Server>> Start(const ServerOptions& options,
                                               std::shared_ptr<prometheus::Collectable> metrics);
  ~Server();
  // The port actually bound (useful with port 0).
  int port() const;

 private:
  Server() = default;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::shared_ptr<prometheus::Collectable> metrics_;
};

// The landing page's HTML for a telemetry path.
std::string LandingPage(const std::string& telemetry_path);

}  // namespace rocewatch::http
