#pragma once

// Which metric families each check group reads, next to the check registry (specs.h): what
// roce-lint asks a query API for (lint/observe/prometheus_api.cpp), so a store answers for
// the families the checks use and nothing else. A test (tests/lint/check_families_test.cpp)
// runs every check on a node's full /metrics and on the same text cut down to these families
// and expects the same findings, so a check that starts reading a new family fails it until
// the family is listed here.

#include <string_view>
#include <vector>

namespace rocewatch::lint {

struct CheckFamilies {
  std::string_view group;                  // "link": the checks of lint/checks/link/
  std::vector<std::string_view> latest;    // read at their latest value (gauges, info series)
  std::vector<std::string_view> increase;  // counters read as their increase over the window
};

// One entry per check group, in the order of AllCheckSpecs().
const std::vector<CheckFamilies>& CheckFamilyTable();

// The union over every group, sorted and without repeats. `increase` families are read only
// when there is a counter window.
std::vector<std::string_view> LatestFamilies();
std::vector<std::string_view> IncreaseFamilies();

}  // namespace rocewatch::lint
