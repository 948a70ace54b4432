#include "exporter/endpoints/exporter_server.h"

#include "exporter/endpoints/metrics_response.h"
#include "http/scrape_timeout.h"
#include "http/server.h"

namespace rocewatch::endpoints {

std::string LandingPage(const std::string& telemetry_path) {
  return std::string("<!DOCTYPE html>\n<html><head><title>roce_exporter</title></head><body>\n") +
         "<h1>roce_exporter</h1>\n<p>RoCE and RDMA NIC metrics: ports, counters, PFC, ECN/DCQCN, "
         "PCIe, optics.</p>\n<p><a href=\"" + telemetry_path + "\">Metrics</a></p>\n</body></html>\n";
}

Result<std::unique_ptr<ExporterServer>> ExporterServer::Start(
    const ServerOptions& options, std::shared_ptr<ScrapeCoalescer> metrics) {
  http::ServerConfig config;
  config.listen = options.listen;
  config.web_config = options.web_config;
  config.limits = options.limits;
  config.limits.work_threads = options.threads;

  http::RouteSpec telemetry;
  telemetry.path = options.telemetry_path;
  telemetry.offload = true;
  telemetry.compress = true;
  telemetry.head_headers = {{"Content-Type", std::string(kMetricsContentType)}};
  telemetry.handler = [metrics](const http::RequestHead& request) {
    const std::string* timeout = request.Header("x-prometheus-scrape-timeout-seconds");
    return MetricsResponse(*metrics, timeout != nullptr ? http::ParseScrapeTimeout(*timeout) : std::nullopt);
  };
  config.router.Add(std::move(telemetry));

  http::RouteSpec landing;
  landing.path = "/";
  landing.handler = [page = LandingPage(options.telemetry_path)](const http::RequestHead&) {
    return http::HttpResponse{200, {{"Content-Type", "text/html; charset=utf-8"}}, page, nullptr, nullptr};
  };
  config.router.Add(std::move(landing));

  auto server = http::Server::Start(std::move(config));
  if (!server)
    return Error{std::string("cannot start ") + (options.web_config && options.web_config->tls() ? "HTTPS" : "HTTP") +
                 " server on " + options.listen.ToString() + ": " + server.error().message};
  std::unique_ptr<ExporterServer> out(new ExporterServer());
  out->server_ = std::move(*server);
  return out;
}

ExporterServer::~ExporterServer() = default;

int ExporterServer::port() const { return server_->port(); }
bool ExporterServer::tls() const { return server_->tls(); }

}  // namespace rocewatch::endpoints
