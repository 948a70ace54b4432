// The Prometheus text exposition parser (lint/observe/exposition.h) that reads every
// exporter's /metrics: never more samples than lines, every index in range, lookups agreeing
// with the samples, and each series printed by SeriesString parsing back to itself.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_check.h"
#include "lint/observe/exposition.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::lint::observe;
  rocewatch::lint::observe::ParseOptions options;
  options.max_errors = 50;
  auto parsed = Exposition::Parse(std::string(rocewatch::fuzz::Text(data, size)), options);
  if (!parsed.ok()) return 0;
  const Exposition& x = *parsed;
  FUZZ_CHECK(x.samples().size() <= x.line_count());
  FUZZ_CHECK(x.families().size() <= x.line_count());
  FUZZ_CHECK(x.errors().size() <= options.max_errors);
  FUZZ_CHECK(x.errors().size() <= x.error_count());
  FUZZ_CHECK(x.error_count() <= x.line_count());
  for (const LineError& e : x.errors()) FUZZ_CHECK(e.line >= 1 && e.line <= x.line_count());

  std::size_t checked = 0;
  for (std::uint32_t i = 0; i < x.samples().size(); ++i) {
    const Sample& s = x.samples()[i];
    FUZZ_CHECK(s.line >= 1 && s.line <= x.line_count());
    const auto name = x.MetricName(s);
    FUZZ_CHECK(!name.empty());
    const auto labels = x.LabelsOf(s);
    // Label values end up in roce-lint's JSON and SARIF reports and in Alertmanager alerts;
    // nlohmann's dump() throws on invalid UTF-8 (and the text format requires UTF-8).
    for (const Label& label : labels) {
      bool utf8 = true;
      try {
        (void)nlohmann::json(std::string(label.value)).dump();
      } catch (const nlohmann::json::exception&) {
        utf8 = false;
      }
      FUZZ_CHECK(utf8);
    }
    for (std::size_t k = 1; k < labels.size(); ++k) {
      FUZZ_CHECK(x.Name(labels[k - 1].name) < x.Name(labels[k].name));  // sorted, unique
    }
    const auto of_metric = x.SamplesOf(name);
    FUZZ_CHECK(std::find(of_metric.begin(), of_metric.end(), i) != of_metric.end());
    if (!labels.empty()) {
      const auto label_name = x.Name(labels[0].name);
      FUZZ_CHECK(x.LabelValue(s, label_name) == labels[0].value);
      const auto found = x.Find(name, label_name, labels[0].value);
      FUZZ_CHECK(std::find(found.begin(), found.end(), i) != found.end());
    }
    (void)x.FamilyOf(name);
    // The first few series, printed and parsed again, are the same series.
    if (checked++ < 8) {
      const std::string series = x.SeriesString(s);
      auto again = Exposition::Parse(series + " 1\n");
      FUZZ_CHECK(again.ok());
      if (again->samples().size() != 1) {
        std::fprintf(stderr, "SeriesString %s does not parse back\n", series.c_str());
      }
      FUZZ_CHECK(again->samples().size() == 1);
      const Sample& t = again->samples()[0];
      FUZZ_CHECK(again->MetricName(t) == name);
      const auto labels2 = again->LabelsOf(t);
      FUZZ_CHECK(labels2.size() == labels.size());
      for (std::size_t k = 0; k < labels.size(); ++k) {
        FUZZ_CHECK(again->Name(labels2[k].name) == x.Name(labels[k].name));
        FUZZ_CHECK(labels2[k].value == labels[k].value);
      }
    }
  }
  return 0;
}
