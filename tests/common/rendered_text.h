#pragma once

// What a collector's renderer makes of a snapshot, the way it is served and read: written
// by the exporter's TextRenderer (what /metrics answers) and parsed by roce-lint's
// exposition parser (lint/observe/exposition.h, what the checks read). Tests that link it
// need rocewatch::lint beside rocewatch::exporter_core.

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "exporter/metrics/text_renderer.h"
#include "exporter/model/snapshot.h"
#include "lint/observe/exposition.h"

namespace rocewatch::testing {

// The exposition text `render` writes for `snap`; `text`, when given, receives it as served.
inline lint::observe::Exposition RenderText(void (*render)(const NodeSnapshot&,
                                                           metrics::MetricSink&),
                                            const NodeSnapshot& snap,
                                            std::string* text = nullptr) {
  metrics::TextRenderer out;
  render(snap, out);
  EXPECT_EQ(out.malformed(), 0u) << "a sample's label count differs from its spec";
  std::string served = std::move(out).Take();
  if (text != nullptr) *text = served;
  auto parsed = lint::observe::Exposition::Parse(std::move(served));
  EXPECT_TRUE(parsed.ok()) << parsed.error().message;
  if (!parsed.ok()) parsed = lint::observe::Exposition::Parse("");
  for (const auto& e : parsed->errors()) ADD_FAILURE() << e.ToString();
  return std::move(*parsed);
}

}  // namespace rocewatch::testing
