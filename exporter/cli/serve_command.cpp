#include "exporter/cli/serve_command.h"

#include <csignal>
#include <cstdio>
#include <pthread.h>

#include "exporter/cli/exporter_flags.h"
#include "exporter/endpoints/exporter_server.h"
#include "exporter/fs/fd_budget.h"
#include "exporter/log.h"
#include "exporter/pass/scrape_coalescer.h"
#include "http/http_log.h"
#include "http/web_config.h"
#include "rocewatch/version.h"

namespace rocewatch::cli {

int RunServe(int argc, const char* const* argv) {
  FlagSet flags = MakeExporterFlags();
  Status parsed = flags.Parse(argc, argv);
  if (!parsed.ok()) {
    std::fprintf(stderr, "roce_exporter: %s\nTry 'roce_exporter --help'.\n",
                 parsed.error().message.c_str());
    return 2;
  }
  if (flags.GetBool("help")) {
    std::printf(
        "usage: roce_exporter [flags]\n"
        "       roce_exporter capture DIR [flags]    write what this node's exporter reads to DIR\n"
        "       roce_exporter decode-eeprom FILE     decode a module EEPROM dump to JSON\n\n"
        "Prometheus exporter for RoCE/RDMA NICs: ports, counters, QoS, ECN/DCQCN, PCIe, optics.\n\n"
        "Flags:\n%s",
        flags.Usage().c_str());
    return 0;
  }
  if (flags.GetBool("version")) {
    std::printf("roce_exporter %s (revision %s)\n", kVersion, kRevision);
    return 0;
  }
  if (!flags.positional().empty()) {
    std::fprintf(stderr, "roce_exporter: unexpected argument %s\nTry 'roce_exporter --help'.\n",
                 flags.positional().front().c_str());
    return 2;
  }
  auto settings = SettingsFromFlags(flags);
  if (!settings) {
    std::fprintf(stderr, "roce_exporter: %s\n", settings.error().message.c_str());
    return 2;
  }
  log::Level level;
  if (!log::ParseLevel(settings->log_level, level)) {
    std::fprintf(stderr, "roce_exporter: --log.level=%s: expected debug, info, warn or error\n",
                 settings->log_level.c_str());
    return 2;
  }
  log::SetLevel(level);
  http::http_log::SetSink([](http::http_log::Level l, std::string_view msg,
                             const http::http_log::Fields& fields) {
    log::Write(static_cast<log::Level>(l), msg, fields);
  });

  // Block the stop signals in every thread (the HTTP server's included); this thread waits
  // for them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  fs::FdBudget::RaiseLimitAndSize();
  auto collector = PassRunner::Create(settings->collector);
  if (!collector) {
    std::fprintf(stderr, "roce_exporter: %s\n", collector.error().message.c_str());
    return 2;
  }
  auto coalescer = std::make_shared<ScrapeCoalescer>(
      std::move(*collector), settings->timeout_offset_seconds, settings->coalesce_window_seconds);
  auto server = endpoints::ExporterServer::Start(settings->server, coalescer);
  if (!server) {
    log::Error("cannot start", {{"error", server.error().message}});
    return 1;
  }
  std::string address = settings->server.listen.ToString();
  address = address.substr(0, address.rfind(':') + 1) + std::to_string((*server)->port());
  log::Fields listening = {{"address", address},
                           {"telemetry_path", settings->server.telemetry_path},
                           {"sysfs", settings->collector.sysfs_root},
                           {"version", kVersion},
                           {"tls", (*server)->tls() ? "true" : "false"}};
  if (!settings->replaying.empty()) listening.emplace_back("replaying", settings->replaying);
  if (settings->server.web_config) {
    auto web = settings->server.web_config->Current();
    listening.emplace_back("web_config", settings->server.web_config->path());
    listening.emplace_back("basic_auth", web->config.users.empty() ? "false" : "true");
    if (web->tls) {
      listening.emplace_back("client_auth", std::string(http::ClientAuthName(web->tls->client_auth())));
      listening.emplace_back("certificate", web->tls->summary());
    }
  }
  log::Info("listening", listening);
  int sig = 0;
  sigwait(&stop, &sig);
  log::Info("stopping", {{"signal", sig == SIGINT ? "SIGINT" : "SIGTERM"}});
  return 0;
}

}  // namespace rocewatch::cli
