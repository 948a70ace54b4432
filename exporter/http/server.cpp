#include "http/server.h"

#include <CivetServer.h>
#include <civetweb.h>

#include <cstring>
#include <exception>
#include <prometheus/exposer.h>

#include "http/scrape_timeout.h"
#include "rocewatch/version.h"

namespace rocewatch::http {
namespace {

// civetweb calls begin_request before its handlers; returning non-zero means we
// answered. The landing page path is fixed to "/", the telemetry path is
// handled by the Exposer, anything else gets civetweb's 404.
std::string* g_landing_page = nullptr;

int BeginRequest(mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  if (info == nullptr || info->local_uri == nullptr) return 0;
  const char* timeout = mg_get_header(conn, "X-Prometheus-Scrape-Timeout-Seconds");
  SetCurrentScrapeTimeout(timeout != nullptr ? ParseScrapeTimeout(timeout) : std::nullopt);
  if (std::strcmp(info->local_uri, "/") != 0) return 0;
  const std::string& body = *g_landing_page;
  mg_printf(conn,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
            "Content-Length: %zu\r\nConnection: close\r\n\r\n",
            body.size());
  if (std::strcmp(info->request_method, "HEAD") != 0) mg_write(conn, body.data(), body.size());
  return 200;
}

}  // namespace

std::string LandingPage(const std::string& telemetry_path) {
  return std::string("<!DOCTYPE html>\n<html><head><title>roce_exporter</title></head><body>\n") +
         "<h1>roce_exporter</h1>\n<p>RoCE and RDMA NIC metrics: ports, counters, PFC, ECN/DCQCN, "
         "PCIe, optics.</p>\n<p><a href=\"" + telemetry_path + "\">Metrics</a></p>\n" +
         "<p>Version " + kVersion + " (" + kRevision + ")</p>\n</body></html>\n";
}

Result<std::unique_ptr<Server>> Server::Start(const ServerOptions& options,
                                              std::shared_ptr<prometheus::Collectable> metrics) {
  Status probe = ProbeListen(options.listen);
  if (!probe.ok()) return probe.error();
  static std::string landing;
  landing = LandingPage(options.telemetry_path);
  g_landing_page = &landing;

  static CivetCallbacks callbacks;  // CivetCallbacks' constructor zeroes every callback
  callbacks.begin_request = &BeginRequest;

  std::unique_ptr<Server> server(new Server());
  server->metrics_ = std::move(metrics);
  std::vector<std::string> civet_options = {
      "listening_ports", options.listen.CivetSpec(),
      "num_threads", std::to_string(options.threads),
      "enable_directory_listing", "no",
      "request_timeout_ms", "30000",
      "enable_keep_alive", "yes",
  };
  try {
    server->exposer_ = std::make_unique<prometheus::Exposer>(civet_options, &callbacks);
  } catch (const std::exception& ex) {
    return Error{"cannot start HTTP server on " + options.listen.ToString() + ": " + ex.what()};
  }
  server->exposer_->RegisterCollectable(server->metrics_, options.telemetry_path);
  return server;
}

Server::~Server() = default;

int Server::port() const {
  auto ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

}  // namespace rocewatch::http
