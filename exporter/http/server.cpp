#include "http/server.h"

#include <CivetServer.h>
#include <civetweb.h>

#include <cstring>
#include <exception>
#include <prometheus/exposer.h>

#include "http/metrics_response.h"
#include "http/routes.h"
#include "http/scrape_timeout.h"
#include "http/tls_listener.h"
#include "rocewatch/version.h"

namespace rocewatch::http {
namespace {

// What civetweb's begin_request needs (civetweb keeps its user data for CivetServer itself).
struct PlainState {
  std::string landing_page;
  std::string telemetry_path;
  std::shared_ptr<WebConfigReloader> web_config;  // null: no --web.config.file
  std::shared_ptr<BasicAuthenticator> auth;
  std::shared_ptr<ScrapeCoalescer> metrics;
};
PlainState* g_plain = nullptr;

// civetweb calls begin_request before its handlers, for every request; returning non-zero
// means we answered and civetweb does nothing more. So every request is answered here:
// basic auth first, then GET/HEAD only, then the two paths. The metrics are the coalesced
// pass's text (http/metrics_response.h); prometheus-cpp's handler, which would rebuild
// MetricFamily objects and serialize them on every scrape, only stands behind it
// (docs/performance.md). (prometheus-cpp's RegisterAuth is not used: it guards one path
// only, cannot follow a reloaded web config, and its 401 lacks the configured headers.)
int BeginRequest(mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  if (info == nullptr || info->local_uri == nullptr || info->request_method == nullptr) return 0;
  const PlainState& st = *g_plain;
  std::shared_ptr<const ActiveWebConfig> config = st.web_config ? st.web_config->Current() : nullptr;
  const bool authorized =
      config == nullptr || st.auth->Allows(config->config.users, mg_get_header(conn, "Authorization"));
  const Route route = RouteRequest(info->request_method, info->local_uri, st.telemetry_path, authorized);
  const bool head_only = std::strcmp(info->request_method, "HEAD") == 0;
  HttpResponse r;
  std::optional<std::size_t> length;
  if (route == Route::kMetrics && !head_only) {
    const char* timeout = mg_get_header(conn, "X-Prometheus-Scrape-Timeout-Seconds");
    SetCurrentScrapeTimeout(timeout != nullptr ? ParseScrapeTimeout(timeout) : std::nullopt);
    const char* accept = mg_get_header(conn, "Accept-Encoding");
    r = MetricsResponse(*st.metrics, accept != nullptr ? std::optional<std::string_view>(accept)
                                                       : std::nullopt);
    SetCurrentScrapeTimeout(std::nullopt);
    length = r.Body().size();
  } else if (route == Route::kMetrics) {
    // HEAD: the headers a GET would carry, without running a collection for it.
    r.headers.emplace_back("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  } else {
    r = RouteResponse(route, st.landing_page);
    length = r.body.size();
  }
  static const std::vector<std::pair<std::string, std::string>> kNone;
  const std::string head = ResponseHead(r, length, false, config ? config->config.headers : kNone);
  mg_write(conn, head.data(), head.size());
  if (!head_only) mg_write(conn, r.Body().data(), r.Body().size());
  return r.status;
}

}  // namespace

std::string LandingPage(const std::string& telemetry_path) {
  return std::string("<!DOCTYPE html>\n<html><head><title>roce_exporter</title></head><body>\n") +
         "<h1>roce_exporter</h1>\n<p>RoCE and RDMA NIC metrics: ports, counters, PFC, ECN/DCQCN, "
         "PCIe, optics.</p>\n<p><a href=\"" + telemetry_path + "\">Metrics</a></p>\n" +
         "<p>Version " + kVersion + " (" + kRevision + ")</p>\n</body></html>\n";
}

Result<std::unique_ptr<Server>> Server::Start(const ServerOptions& options,
                                              std::shared_ptr<ScrapeCoalescer> metrics) {
  Status probe = ProbeListen(options.listen);
  if (!probe.ok()) return probe.error();
  std::unique_ptr<Server> server(new Server());
  server->metrics_ = std::move(metrics);
  server->auth_ = std::make_shared<BasicAuthenticator>();

  if (options.web_config && options.web_config->tls()) {
    TlsListenerOptions tls;
    tls.listen = options.listen;
    tls.telemetry_path = options.telemetry_path;
    tls.landing_page = LandingPage(options.telemetry_path);
    tls.max_connections = 16 * options.threads;
    auto listener = TlsListener::Start(tls, options.web_config, server->auth_, server->metrics_);
    if (!listener) return Error{"cannot start HTTPS server on " + options.listen.ToString() + ": " +
                                listener.error().message};
    server->tls_ = std::move(*listener);
    return server;
  }

  static PlainState plain;
  plain = PlainState{LandingPage(options.telemetry_path), options.telemetry_path, options.web_config,
                     server->auth_, server->metrics_};
  g_plain = &plain;

  static CivetCallbacks callbacks;  // CivetCallbacks' constructor zeroes every callback
  callbacks.begin_request = &BeginRequest;

  std::vector<std::string> civet_options = {
      "listening_ports", options.listen.CivetSpec(),
      "num_threads", std::to_string(options.threads),
      "enable_directory_listing", "no",
      "request_timeout_ms", "30000",
      "enable_keep_alive", "yes",
      // Request line and headers together (civetweb answers larger heads with an error).
      "max_request_size", "16384",
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
  if (tls_) return tls_->port();
  auto ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

}  // namespace rocewatch::http
