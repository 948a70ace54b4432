#include "exporter/metrics/exporter_metrics.h"

#include "exporter/metrics/label_value.h"
#include "rocewatch/version.h"

namespace rocewatch::metrics {
namespace {

using T = MetricType;

const MetricSpec kBuildInfo{"roce_exporter_build_info", T::kGauge,
    "Version and revision of roce_exporter; always 1.", {"version", "revision"}};
const MetricSpec kSuccess{"roce_exporter_collector_success", T::kGauge,
    "1 when the collector read what it should in this scrape, 0 when it failed.", {"collector"}};
const MetricSpec kDuration{"roce_exporter_collector_duration_seconds", T::kGauge,
    "How long the collector took in this scrape.", {"collector"}};
const MetricSpec kParseErrors{"roce_exporter_parse_errors_total", T::kCounter,
    "Values the collector read but could not parse, since start.", {"collector"}};
const MetricSpec kUnavailable{"roce_exporter_unavailable_values", T::kGauge,
    "Values not served in this scrape while their object is still there: marked unavailable "
    "(N/A (no PMA)), absent on this kernel or driver, or refused (EINVAL, EOPNOTSUPP).",
    {"collector"}};
const MetricSpec kVanished{"roce_exporter_vanished_total", T::kCounter,
    "Devices or netdevs that disappeared while the collector read them, since start.", {"collector"}};
const MetricSpec kCollections{"roce_exporter_collections_total", T::kCounter,
    "Collection passes run since start.", {}};
const MetricSpec kCoalesced{"roce_exporter_coalesced_scrapes_total", T::kCounter,
    "Scrapes answered from a collection pass that a concurrent scrape had started.", {}};
const MetricSpec kDiscoveries{"roce_exporter_discoveries_total", T::kCounter,
    "Times the device inventory was walked (start, device changes, vanished devices).", {}};
const MetricSpec kOpenAttributes{"roce_exporter_open_attributes", T::kGauge,
    "Attribute descriptors held open for fast re-reads.", {}};
const MetricSpec kAttributeBudget{"roce_exporter_attribute_budget", T::kGauge,
    "Attribute descriptors the exporter may hold (from RLIMIT_NOFILE).", {}};
const MetricSpec kCollectionDuration{"roce_exporter_collection_duration_seconds", T::kGauge,
    "How long the whole collection pass behind this scrape took.", {}};

const MetricSpec kRefusedPaths{"roce_exporter_refused_paths_total", T::kCounter,
    "Paths not read because they lead out of their root (a symlink leaving the tree, a /proc magic link) or are not plain files, since start.",
    {"tree"}};
const MetricSpec kRepairedLabels{"roce_exporter_label_values_repaired_total", T::kCounter,
    "Label values that were not valid UTF-8 (or held NUL) and were served with U+FFFD in their place, since start.",
    {}};

}  // namespace

const SpecList& ExporterSpecs() {
  static const SpecList kSpecs = {&kBuildInfo,   &kSuccess,     &kDuration,        &kParseErrors,
                                  &kUnavailable, &kVanished,    &kCollections,     &kCoalesced,
                                  &kDiscoveries, &kOpenAttributes, &kAttributeBudget,
                                  &kCollectionDuration, &kRefusedPaths, &kRepairedLabels};
  return kSpecs;
}

void RenderExporter(const NodeSnapshot& snap, const CollectorStats& stats, MetricSink& out) {
  out.Add(kBuildInfo, {kVersion, kRevision}, 1);
  for (const auto& s : snap.sources) {
    out.Add(kSuccess, {s.name}, s.success ? 1 : 0);
    out.Add(kDuration, {s.name}, s.duration_seconds);
    out.Add(kParseErrors, {s.name}, s.parse_errors_total);
    out.Add(kUnavailable, {s.name}, s.unavailable_values);
    out.Add(kVanished, {s.name}, s.vanished_total);
  }
  out.Add(kCollections, {}, stats.collections_total);
  out.Add(kCoalesced, {}, stats.coalesced_total);
  out.Add(kDiscoveries, {}, stats.discoveries_total);
  out.Add(kOpenAttributes, {}, stats.open_attributes);
  out.Add(kAttributeBudget, {}, stats.attribute_budget);
  out.Add(kCollectionDuration, {}, snap.collection_seconds);
  for (const auto& [tree, refused] : stats.refused_paths) out.Add(kRefusedPaths, {tree}, refused);
  // Last on the page, so that it counts the repairs of this page too.
  out.Add(kRepairedLabels, {}, static_cast<double>(RepairedLabelValuesTotal()));
}

}  // namespace rocewatch::metrics
