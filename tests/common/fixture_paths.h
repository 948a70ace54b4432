#pragma once

#include <string>

namespace rocewatch::testing {

// A checked-in fixture (capture layout: sys/, configfs/, debugfs/) under tests/fixtures.
inline std::string FixtureDir(const std::string& name) {
  return std::string(ROCEWATCH_TEST_DATA) + "/fixtures/" + name;
}

}  // namespace rocewatch::testing
