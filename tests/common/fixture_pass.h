#pragma once

// What the tests of the pass and of each collector (tests/exporter/collectors/<name>_test.cpp)
// share: a pass runner over a checked-in fixture with every collector on, and a collector's
// status in a snapshot.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "common/fixture_collector.h"
#include "exporter/pass/runner.h"

namespace rocewatch::testing {

// Every collector on, over tests/fixtures/`dir` (or a copy); `options` per collector name.
inline std::unique_ptr<PassRunner> MakeFixturePass(
    const std::string& dir, std::map<std::string, std::map<std::string, std::string>> options = {}) {
  PassConfig config = FixtureCollectorConfig(dir);
  for (auto& [name, values] : options) config.collector_options[name] = std::move(values);
  auto made = PassRunner::Create(config);
  EXPECT_TRUE(made.ok()) << made.error().message;
  return made.ok() ? std::move(*made) : nullptr;
}

inline const SourceStatus& StatusOf(const NodeSnapshot& s, const std::string& name) {
  for (const auto& st : s.sources)
    if (st.name == name) return st;
  static const SourceStatus kNone;
  ADD_FAILURE() << "no status for " << name;
  return kNone;
}

}  // namespace rocewatch::testing
