// The registry (lint/checks/specs.h) is the one place a node check's ID is written: reports,
// fixes and the daemon name checks through its constants. A check ID typed again as a string
// anywhere else in lint/ fails here, naming the file.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "lint/checks/specs.h"

namespace rocewatch::lint::checks {
namespace {

namespace fs = std::filesystem;

TEST(CheckRegistry, NoCheckIdIsWrittenOutsideTheRegistry) {
  std::set<std::string> quoted;
  for (const CheckSpec* spec : AllCheckSpecs()) quoted.insert("\"" + std::string(spec->id) + "\"");
  ASSERT_GT(quoted.size(), 30u);
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(ROCEWATCH_SOURCE_DIR) / "lint")) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    if (entry.path().filename() == "specs.h") continue;
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
            << id << "; use its constant from lint/checks/specs.h";
    }
  }
  EXPECT_GT(files, 50u);
}

TEST(CheckRegistry, EveryCheckHasItsGroupAndAReasonWhenUnrepaired) {
  const std::set<std::string_view> groups = {"inventory", "link",     "qos",     "ecn",  "versions",
                                             "optics",    "counters", "cabling", "drift"};
  std::set<std::string_view> ids;
  for (const CheckSpec* spec : AllCheckSpecs()) {
    EXPECT_TRUE(ids.insert(spec->id).second) << spec->id << " registered twice";
    EXPECT_TRUE(groups.count(spec->group())) << spec->id;
    EXPECT_FALSE(spec->unfixable.empty()) << spec->id;
    EXPECT_EQ(spec->DocsUrl(), "docs/checks.md#" + std::string(spec->id));
    EXPECT_EQ(FindCheckSpec(spec->id), spec);
  }
}

}  // namespace
}  // namespace rocewatch::lint::checks
