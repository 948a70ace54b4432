// docs/checks.md documents every node check of lint/checks/specs.h (the SARIF helpUri points at
// docs/checks.md#<id>): a section per ID with its anchor, severity and both titles, and no
// section for an ID that does not exist.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

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

// GitHub's anchor of a Markdown heading: lower case, punctuation but '-' and '_' dropped,
// spaces as '-'.
std::string HeadingSlug(std::string_view heading) {
  std::string slug;
  for (unsigned char ch : heading) {
    if (std::isalnum(ch) || ch == '-' || ch == '_') slug += static_cast<char>(std::tolower(ch));
    else if (ch == ' ') slug += '-';
  }
  return slug;
}

// Every registered check, plan checks included, links to an anchor that its page has: an
// explicit <a id="..."> or a heading of that slug. SARIF's helpUri and Alertmanager's
// runbook_url are this link.
TEST(ChecksDoc, EveryRegisteredCheckLinksToAnAnchorThatExists) {
  std::vector<const CheckSpec*> all = AllCheckSpecs();
  all.insert(all.end(), PlanCheckSpecs().begin(), PlanCheckSpecs().end());
  ASSERT_GT(all.size(), AllCheckSpecs().size());
  for (const CheckSpec* spec : all) {
    SCOPED_TRACE(std::string(spec->id));
    const std::string url = spec->DocsUrl();
    const std::size_t hash = url.find('#');
    ASSERT_NE(hash, std::string::npos) << url;
    const std::string page = url.substr(0, hash), anchor = url.substr(hash + 1);
    std::ifstream f(std::string(ROCEWATCH_SOURCE_DIR) + "/" + page, std::ios::binary);
    ASSERT_TRUE(f) << "cannot read " << page;
    std::set<std::string> anchors;
    std::string line;
    while (std::getline(f, line)) {
      for (std::size_t at = line.find("<a id=\""); at != std::string::npos;
           at = line.find("<a id=\"", at + 1)) {
        const std::size_t start = at + 7, end = line.find('"', start);
        if (end != std::string::npos) anchors.insert(line.substr(start, end - start));
      }
      if (line.rfind('#', 0) == 0) anchors.insert(HeadingSlug(line.substr(line.find(' ') + 1)));
    }
    EXPECT_TRUE(anchors.count(anchor)) << url << ": " << page << " has no anchor " << anchor;
  }
}

TEST(ChecksDoc, IdsAreUniqueAndPointsToThePlanChecks) {
  std::set<std::string_view> ids;
  for (const CheckSpec* spec : AllCheckSpecs())
    EXPECT_TRUE(ids.insert(spec->id).second) << spec->id;
  EXPECT_NE(ReadDocs().find("(plan.md#plan-checks)"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch::lint::checks
