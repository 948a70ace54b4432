// The registry (lint/checks/specs.h for node checks, lint/plan/plan_checks.h for plan checks) is
// the one place a check's ID is written: reports, fixes, the daemon and the checks themselves
// name checks through its constants. A check ID typed again as a string anywhere else in lint/
// fails here, naming the file. Every node check is one file, lint/checks/<group>/<name>.cpp.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "lint/checks/specs.h"
#include "lint/fix/repairs.h"
#include "lint/plan/plan_checks.h"

namespace rocewatch::lint::checks {
namespace {

namespace fs = std::filesystem;

TEST(CheckRegistry, NoCheckIdIsWrittenOutsideTheRegistry) {
  std::set<std::string> quoted;
  for (const CheckSpec* spec : AllCheckSpecs()) quoted.insert("\"" + std::string(spec->id) + "\"");
  for (const CheckSpec* spec : PlanCheckSpecs()) quoted.insert("\"" + std::string(spec->id) + "\"");
  ASSERT_GT(quoted.size(), 60u);
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(ROCEWATCH_SOURCE_DIR) / "lint")) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    if (entry.path().filename() == "specs.h" || entry.path().filename() == "plan_checks.h") continue;
    ++files;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::istringstream lines(text.str());
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n) {
      auto code = line.substr(0, line.find("//"));  // IDs in comments are documentation
      for (const auto& id : quoted)
        EXPECT_EQ(code.find(id), std::string::npos)
            << fs::relative(entry.path(), ROCEWATCH_SOURCE_DIR).string() << ":" << n << " writes "
            << id << "; use its constant from lint/checks/specs.h or lint/plan/plan_checks.h";
    }
  }
  EXPECT_GT(files, 50u);
}

// A check names the setting it compares (CheckSpec::setting) and lint/fix repairs settings
// (lint/fix/repairs.h): each side's names must be the other's.
TEST(CheckRegistry, EverySettingAChecksNamesHasARepairAndEveryRepairAChecker) {
  std::set<std::string_view> named;
  for (const CheckSpec* spec : AllCheckSpecs())
    if (!spec->setting.empty()) {
      named.insert(spec->setting);
      EXPECT_NE(fix::RepairFor(spec->setting), nullptr) << spec->id << " names " << spec->setting;
    }
  EXPECT_GE(named.size(), 10u);
  for (const fix::RepairEntry& entry : fix::Repairs())
    EXPECT_TRUE(named.count(entry.setting)) << entry.setting << " is repaired but no check names it";
  EXPECT_EQ(fix::RepairFor(""), nullptr);
}

TEST(CheckRegistry, EveryCheckHasItsGroupAndAReasonWhenUnrepaired) {
  const std::set<std::string_view> groups = {"inventory", "link",     "qos",     "ecn",  "versions",
                                             "optics",    "counters", "cabling", "drift",
                                             "peer",      "gpudirect"};
  std::set<std::string_view> ids;
  for (const CheckSpec* spec : AllCheckSpecs()) {
    EXPECT_TRUE(ids.insert(spec->id).second) << spec->id << " registered twice";
    EXPECT_TRUE(groups.count(spec->group())) << spec->id;
    EXPECT_FALSE(spec->unfixable.empty()) << spec->id;
    EXPECT_EQ(spec->DocsUrl(), "docs/checks.md#" + std::string(spec->id));
    EXPECT_EQ(FindCheckSpec(spec->id), spec);
  }
}

TEST(CheckRegistry, EveryNodeCheckIsOneFileAndRunsByItsKind) {
  for (const CheckSpec* spec : AllCheckSpecs()) {
    SCOPED_TRACE(std::string(spec->id));
    const int runs = (spec->node != nullptr) + (spec->nic != nullptr) + (spec->fleet != nullptr);
    EXPECT_EQ(runs, 1) << "a node check has exactly one function to run it";
    EXPECT_EQ(spec->kind == CheckKind::kNode, spec->node != nullptr);
    EXPECT_EQ(spec->kind == CheckKind::kNic, spec->nic != nullptr);
    EXPECT_EQ(spec->kind == CheckKind::kFleet, spec->fleet != nullptr);
    // qos.pfc-priorities: lint/checks/qos/pfc_priorities.cpp
    std::string name(spec->id.substr(spec->id.find('.') + 1));
    for (auto& ch : name)
      if (ch == '-') ch = '_';
    const fs::path file = fs::path(ROCEWATCH_SOURCE_DIR) / "lint/checks" /
                          std::string(spec->group()) / (name + ".cpp");
    EXPECT_TRUE(fs::is_regular_file(file)) << file << " missing";
  }
}

TEST(CheckRegistry, PlanChecksAreInTheSameRegistry) {
  ASSERT_FALSE(PlanCheckSpecs().empty());
  std::set<std::string_view> ids;
  for (const CheckSpec* spec : AllCheckSpecs()) ids.insert(spec->id);
  for (const CheckSpec* spec : PlanCheckSpecs()) {
    SCOPED_TRACE(std::string(spec->id));
    EXPECT_EQ(spec->kind, CheckKind::kPlan);
    EXPECT_EQ(spec->group(), "plan");
    EXPECT_TRUE(ids.insert(spec->id).second) << "registered twice";
    EXPECT_EQ(FindCheckSpec(spec->id), spec);
    EXPECT_FALSE(spec->title.empty());
    EXPECT_EQ(spec->DocsUrl(), "docs/plan.md#plan-checks");
  }
  EXPECT_EQ(FindCheckSpec("plan.no-such-check"), nullptr);
}

}  // namespace
}  // namespace rocewatch::lint::checks
