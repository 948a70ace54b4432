// The JSON answer of a Prometheus-compatible instant query (roce-lint --prometheus.url):
// SplitVectorAnswerByInstance, then the exposition parser on each instance's text, as
// QueryPrometheus does. One result item never becomes more than one sample. The same body is
// also read as a range query's matrix with a counter window (AnswerOptions::increase_over):
// each series at most one line, its value a growth that is never negative.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_check.h"
#include "lint/observe/exposition.h"
#include "lint/observe/prometheus_answer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::lint::observe;
  const auto body = rocewatch::fuzz::Text(data, size);
  {
    const CounterWindow window{.end = 1700000000, .length = 300};
    AnswerOptions o{.key_label = "instance", .metric_name = "c_total", .increase_over = &window};
    auto matrix = ParseVectorAnswer(body, "query http://prometheus", o);
    if (matrix.ok()) {
      for (const auto& [instance, text] : matrix->texts) {
        auto parsed = Exposition::Parse(text);
        FUZZ_CHECK(parsed.ok());
        for (const Sample& s : parsed->samples()) FUZZ_CHECK(s.value >= 0);  // a sum of finite growths
      }
    } else {
      FUZZ_CHECK(matrix.error().message.rfind("query http://prometheus: ", 0) == 0);
    }
  }
  auto split = SplitVectorAnswerByInstance(body, "query http://prometheus");
  if (!split.ok()) {
    FUZZ_CHECK(split.error().message.rfind("query http://prometheus: ", 0) == 0);
    return 0;
  }
  // It was accepted, so it is JSON with a result array.
  const auto doc = nlohmann::json::parse(body, nullptr, false);
  FUZZ_CHECK(doc.is_object() && doc.contains("data") && doc["data"].contains("result"));
  const std::size_t items = doc["data"]["result"].size();
  std::size_t lines = 0;
  for (const auto& [instance, text] : *split) {
    FUZZ_CHECK(!instance.empty());
    FUZZ_CHECK(!text.empty() && text.back() == '\n');
    const std::size_t text_lines =
        static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    lines += text_lines;
    auto parsed = Exposition::Parse(text);
    FUZZ_CHECK(parsed.ok());
    FUZZ_CHECK(parsed->samples().size() <= text_lines);
    for (const Sample& s : parsed->samples()) {
      // Every sample carries the instance it was filed under.
      FUZZ_CHECK(parsed->LabelValue(s, "instance") == std::string_view(instance));
    }
  }
  FUZZ_CHECK(lines <= items);
  return 0;
}
