#include "lint/cli/observe_flags.h"

namespace rocewatch::lint::cli {

const std::vector<FlagSpec>& ObserveFlagSpecs() {
  static const std::vector<FlagSpec> kSpecs = {
      {"--metrics-dir", "", true, "saved /metrics files, DIR/<node>.prom (CI, offline)", "DIR"},
      {"--previous-metrics-dir", "", true, "an earlier set of files, for the counter checks", "DIR"},
      {"--prometheus", "", true,
       "a Prometheus-compatible query API (Prometheus, Thanos, Mimir,\n"
       "VictoriaMetrics; docs/operations.md \"Large clusters\")",
       "URL"},
      {"--window", "", true,
       "counter window: with --prometheus how far back to compare\n"
       "(default 5m), with --previous-metrics-dir how far apart\nthe files were taken",
       "DURATION"},
      {"--counter-window", "", true,
       "scrape twice this far apart for the counter checks\n(default 0: no counter checks)",
       "DURATION"},
      {"--timeout", "", true, "per scrape (default 5s) or query (default 60s)", "DURATION"},
      {"--concurrency", "", true, "scrapes at a time (default 32)", "N"},
      {"--max-bytes", "", true,
       "largest /metrics body, metrics file or query answer accepted,\n"
       "enforced while it arrives (default 32MiB; 1024 to 16GiB;\nsuffixes KiB, MiB, GiB)",
       "SIZE"},
      {"--scheme", "", true, "how to reach the exporters (default http)", "http|https"},
      {"--ca-file", "", true, "CA certificates for exporters behind --web.config.file TLS", "FILE"},
      {"--cert-file", "", true, "client certificate for those exporters", "FILE"},
      {"--key-file", "", true, "its private key", "FILE"},
      {"--username", "", true, "basic auth user for those exporters", "NAME"},
      {"--password-file", "", true, "basic auth password, read from FILE", "FILE"},
      {"--prometheus.header", "", true,
       "an HTTP header on every query, repeatable\n"
       "(X-Scope-OrgID for Mimir/Cortex tenants, Authorization)",
       "'NAME: VALUE'"},
      {"--prometheus.node-label", "", true,
       "the label naming a node: instance (default: the plan's\n"
       "exporter address) or a label holding the node name (node)",
       "LABEL"},
      {"--prometheus.batch", "", true,
       "at most N nodes per query (default 100; fewer when the\n"
       "answers seen say a batch would pass --max-bytes / 2)",
       "N"},
      {"--prometheus.concurrency", "", true, "queries at a time (default 4)", "N"},
      {"--prometheus.retries", "", true,
       "retries of a query with no answer, 429 or 5xx (default 3)", "N"},
      {"--prometheus.time", "", true, "evaluate at unix time T (default now)", "T"},
      {"--prometheus.stats", "", false, "print what the queries cost to standard error"},
  };
  return kSpecs;
}

const std::string& ObserveFlagsHelp() {
  static const std::string kHelp =
      "Where the metrics come from (default: scrape every node's exporter named in the plan):\n" +
      FlagUsage(ObserveFlagSpecs());
  return kHelp;
}

const char* const kObserveFlagsHelp = ObserveFlagsHelp().c_str();

}  // namespace rocewatch::lint::cli
