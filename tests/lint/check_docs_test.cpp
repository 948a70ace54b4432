// docs/checks.md documents every node check of lint/checks/specs.h (the SARIF helpUri points at
// docs/checks.md#<id>): a section per ID with its anchor, severity and both titles, and no
// section for an ID that does not exist.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "lint/checks/check.h"

namespace rocewatch::lint::checks {
namespace {

std::string ReadDocs() {
  std::ifstream f(ROCEWATCH_SOURCE_DIR "/docs/checks.md", std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The text of the section under "## <id>" up to the next "## " heading.
std::string Section(const std::string& docs, std::string_view id) {
  std::string heading = "\n## " + std::string(id) + "\n";
  std::size_t at = docs.find(heading);
  if (at == std::string::npos) return "";
  std::size_t end = docs.find("\n## ", at + heading.size());
  return docs.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

TEST(ChecksDoc, DocumentsEveryCheckId) {
  const std::string docs = ReadDocs();
  ASSERT_FALSE(docs.empty()) << "cannot read docs/checks.md";
  ASSERT_FALSE(AllCheckSpecs().empty());
  for (const CheckSpec* spec : AllCheckSpecs()) {
    SCOPED_TRACE(std::string(spec->id));
    std::string section = Section(docs, spec->id);
    ASSERT_FALSE(section.empty()) << "docs/checks.md has no \"## " << spec->id << "\" section";
    // GitHub drops the dots of a heading from its anchor; the explicit anchor keeps #<id> working.
    EXPECT_NE(docs.find("<a id=\"" + std::string(spec->id) + "\"></a>\n## " +
                        std::string(spec->id) + "\n"),
              std::string::npos)
        << "the heading needs an explicit anchor right above it";
    EXPECT_NE(section.find("**Severity:** " + std::string(SeverityName(spec->severity))),
              std::string::npos)
        << "severity " << SeverityName(spec->severity) << " not stated";
    EXPECT_NE(section.find(std::string(spec->title)), std::string::npos) << "English title missing";
    EXPECT_NE(section.find(std::string(spec->title_zh)), std::string::npos)
        << "Chinese title missing";
    for (const char* part :
         {"**Checks:**", "**Why it matters:**", "**Fix:**", "**Silenced when:**"})
      EXPECT_NE(section.find(part), std::string::npos) << part << " missing";
  }
}

TEST(ChecksDoc, DocumentsNoCheckThatDoesNotExist) {
  const std::string docs = ReadDocs();
  std::istringstream lines(docs);
  std::string line;
  int headings = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("## ", 0) != 0) continue;
    std::string id = line.substr(3);
    if (id.find('.') == std::string::npos || id.find(' ') != std::string::npos)
      continue;  // not a check
    ++headings;
    EXPECT_NE(FindCheckSpec(id), nullptr)
        << "docs/checks.md documents " << id << ", which specs.h lacks";
  }
  EXPECT_EQ(headings, static_cast<int>(AllCheckSpecs().size()));
}

TEST(ChecksDoc, IdsAreUniqueAndPointsToThePlanChecks) {
  std::set<std::string_view> ids;
  for (const CheckSpec* spec : AllCheckSpecs())
    EXPECT_TRUE(ids.insert(spec->id).second) << spec->id;
  EXPECT_NE(ReadDocs().find("(plan.md#plan-checks)"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch::lint::checks
