// The setting table (lint/core/setting_table.h) against what follows from it: docs/plan.md's
// "Settings" table, the plan fields it names, the settings the checks' registrations name and
// the keys drift extracts from a node.
// ROCEWATCH_UPDATE_DOCS=1 rewrites docs/plan.md's table instead of comparing.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "lint/core/check_spec.h"
#include "lint/core/setting_table.h"

namespace rocewatch::lint {
namespace {

namespace fs = std::filesystem;

const char* const kBegin = "<!-- settings-table -->\n";
const char* const kEnd = "<!-- /settings-table -->";

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(SettingTable, DocsPlanTableIsWrittenFromIt) {
  const fs::path path = fs::path(ROCEWATCH_SOURCE_DIR) / "docs/plan.md";
  std::string md = ReadFile(path);
  const auto begin = md.find(kBegin);
  const auto end = md.find(kEnd);
  ASSERT_NE(begin, std::string::npos) << path << " has no " << kBegin;
  ASSERT_NE(end, std::string::npos) << path << " has no " << kEnd;
  ASSERT_LT(begin, end);
  const std::string shown = md.substr(begin + std::string(kBegin).size(), end - begin - std::string(kBegin).size());
  const std::string wanted = setting::DocsTable();
  if (std::getenv("ROCEWATCH_UPDATE_DOCS") != nullptr) {
    md.replace(begin + std::string(kBegin).size(), shown.size(), wanted);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << md;
    return;
  }
  EXPECT_EQ(shown, wanted) << "docs/plan.md's settings table differs from lint/core/setting_table.h "
                              "(ROCEWATCH_UPDATE_DOCS=1 tests/lint/lint_check_test --gtest_filter=SettingTable.* rewrites it)";
}

// Every plan field a setting names is a key of docs/plan.md's profile table.
TEST(SettingTable, EveryPlanFieldIsAProfileKey) {
  const std::string md = ReadFile(fs::path(ROCEWATCH_SOURCE_DIR) / "docs/plan.md");
  for (const setting::Spec* spec : setting::kAll) {
    if (spec->plan.empty()) continue;
    // The field is the plan text's first word ("roce_dscp → roce_priority" names roce_dscp).
    std::string field(spec->plan.substr(0, spec->plan.find_first_of(" ,")));
    EXPECT_NE(md.find("| `" + field + "` |"), std::string::npos)
        << spec->key << " says the plan holds it in " << field << ", which docs/plan.md does not list";
  }
}

TEST(SettingTable, KeysAreUniqueAndFindable) {
  std::set<std::string_view> keys;
  for (const setting::Spec* spec : setting::kAll) {
    EXPECT_TRUE(keys.insert(spec->key).second) << spec->key << " is in the table twice";
    if (!spec->IsFamily()) {
      EXPECT_EQ(setting::Find(spec->key), spec) << spec->key;
    }
  }
  EXPECT_EQ(setting::Find("dscp.26"), &setting::kDscp);
  EXPECT_EQ(setting::Find("dcqcn.np.cnp_dscp"), &setting::kDcqcn);
  EXPECT_EQ(setting::Find("ecn.np"), &setting::kEcnNp);
  EXPECT_EQ(setting::Find("ecn.np.3"), &setting::kEcnPriority);
  EXPECT_EQ(setting::Find("dscp."), nullptr);  // a family's prefix alone is no key
  EXPECT_EQ(setting::Find("bogus"), nullptr);
}

// The setting a check's registration names (CheckSpec::setting) is one of the table's.
TEST(SettingTable, EverySettingACheckNamesIsInTheTable) {
  std::size_t named = 0;
  for (const CheckSpec* spec : AllCheckSpecs()) {
    if (spec->setting.empty() || spec->setting == kSettingOfFinding) continue;
    ++named;
    EXPECT_NE(setting::Named(spec->setting), nullptr) << spec->id << " names " << spec->setting;
  }
  EXPECT_GE(named, 10u);
}

}  // namespace
}  // namespace rocewatch::lint
