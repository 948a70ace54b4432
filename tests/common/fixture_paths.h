#pragma once

#include <filesystem>
#include <string>

namespace rocewatch::testing {

// A checked-in fixture (capture layout: sys/, configfs/, debugfs/) under tests/fixtures.
inline std::string FixtureDir(const std::string& name) {
  return std::string(ROCEWATCH_TEST_DATA) + "/fixtures/" + name;
}

// Copies a fixture (or a part of one) to `dest`, its symlinks as links: a tree a test may change.
inline void CopyFixture(const std::string& name, const std::string& dest) {
  std::filesystem::copy(FixtureDir(name), dest,
                        std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
}

}  // namespace rocewatch::testing
