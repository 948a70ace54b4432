#include <string>

#include "exporter/collectors/fec/collector.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;

const MetricSpec kActive{
    "roce_fec_active_info",
    T::kGauge,
    "The FEC encoding the link runs (ethtool --show-fec \"Active FEC encoding\"): off, rs, "
    "baser, llrs, none; always 1.",
    {"netdev", "mode"}};
const MetricSpec kConfigured{
    "roce_fec_configured_info",
    T::kGauge,
    "Each FEC encoding the port is configured to use (ethtool --show-fec \"Configured FEC "
    "encodings\"), auto when the driver chooses; always 1.",
    {"netdev", "mode"}};
const MetricSpec kCorrected{
    "roce_fec_corrected_blocks_total",
    T::kCounter,
    "FEC codewords (blocks) received with errors that FEC corrected, all lanes.",
    {"netdev"}};
const MetricSpec kUncorrectable{
    "roce_fec_uncorrectable_blocks_total",
    T::kCounter,
    "FEC codewords (blocks) received with errors FEC could not correct (frames lost), all lanes.",
    {"netdev"}};
const MetricSpec kCorrectedBits{"roce_fec_corrected_bits_total",
                                T::kCounter,
                                "Bits FEC corrected, all lanes: the pre-FEC bit errors.",
                                {"netdev"}};
const MetricSpec kLaneCorrected{
    "roce_fec_lane_corrected_blocks_total",
    T::kCounter,
    "FEC codewords corrected on one lane, where the driver counts per lane.",
    {"netdev", "lane"}};
const MetricSpec kLaneUncorrectable{
    "roce_fec_lane_uncorrectable_blocks_total",
    T::kCounter,
    "FEC codewords not correctable on one lane, where the driver counts per lane.",
    {"netdev", "lane"}};
const MetricSpec kLaneCorrectedBits{
    "roce_fec_lane_corrected_bits_total",
    T::kCounter,
    "Bits FEC corrected on one lane, where the driver counts per lane.",
    {"netdev", "lane"}};
const MetricSpec kHistogram{
    "roce_fec_histogram_codewords_total",
    T::kCounter,
    "FEC codewords received with low to high (inclusive) symbol errors (IEEE 802.3ck FEC "
    "histogram bin, kernels from 6.18 with drivers that report it).",
    {"netdev", "low", "high"}};

void AddCounter(MetricSink& out, const MetricSpec& total, const MetricSpec& lane,
                const std::string& netdev, const std::optional<FecCounterSnapshot>& counter) {
  if (!counter) return;
  out.Add(total, {netdev}, counter->total);
  for (std::size_t i = 0; i < counter->lanes.size(); ++i) {
    out.Add(lane, {netdev, std::to_string(i)}, counter->lanes[i]);
  }
}

}  // namespace

const SpecList& FecSpecs() {
  static const SpecList kSpecs = {
      &kActive,        &kConfigured,        &kCorrected,         &kUncorrectable, &kCorrectedBits,
      &kLaneCorrected, &kLaneUncorrectable, &kLaneCorrectedBits, &kHistogram};
  return kSpecs;
}

void RenderFec(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& f : snap.fec) {
    const std::string& n = f.netdev;
    out.Add(kActive, {n, f.active.empty() ? std::string_view("none") : f.active}, 1);
    if (f.auto_mode) out.Add(kConfigured, {n, "auto"}, 1);
    for (const auto& mode : f.configured) out.Add(kConfigured, {n, mode}, 1);
    AddCounter(out, kCorrected, kLaneCorrected, n, f.corrected_blocks);
    AddCounter(out, kUncorrectable, kLaneUncorrectable, n, f.uncorrectable_blocks);
    AddCounter(out, kCorrectedBits, kLaneCorrectedBits, n, f.corrected_bits);
    for (const auto& bin : f.histogram) {
      out.Add(kHistogram, {n, std::to_string(bin.low), std::to_string(bin.high)}, bin.codewords);
    }
  }
}

}  // namespace rocewatch::collectors
