// The JSON answer of a Prometheus-compatible instant query (roce-lint --prometheus.url):
// SplitVectorAnswerByInstance, then the exposition parser on each instance's text, as
// QueryPrometheus does. One result item never becomes more than one sample.

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
