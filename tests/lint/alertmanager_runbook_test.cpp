// The runbook_url of roce-lint's alerts comes from the check's registration (CheckSpec::DocsUrl),
// not from the finding's ID text: a node check links to its section of docs/checks.md, a plan
// check to the "Plan checks" section of docs/plan.md (check_docs_test proves the anchors exist).

#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "lint/checks/specs.h"
#include "lint/plan/plan_checks.h"
#include "lint/serve/alertmanager.h"

namespace rocewatch::lint::serve {
namespace {

// The runbook_url of each alert, by check, for one push of `findings` (no Alertmanager URL:
// nothing leaves the process).
std::map<std::string, std::string> RunbookUrls(const std::vector<Finding>& findings) {
  AlertmanagerPusher pusher(AlertmanagerOptions{});
  const auto now = std::chrono::system_clock::now();
  EXPECT_TRUE(pusher.Push(findings, now).ok);
  std::map<std::string, std::string> urls;
  for (const auto& alert : nlohmann::json::parse(pusher.Body(now)))
    urls[alert["labels"]["check"].get<std::string>()] =
        alert["annotations"]["runbook_url"].get<std::string>();
  return urls;
}

Finding Of(const lint::CheckSpec& spec) {
  Finding f;
  f.check = std::string(spec.id);
  f.severity = spec.severity;
  f.node = "gpu-01";
  return f;
}

TEST(AlertmanagerRunbook, EveryRegisteredCheckLinksToItsDocsAnchor) {
  std::vector<Finding> findings;
  for (const auto* spec : lint::AllCheckSpecs()) findings.push_back(Of(*spec));
  for (const auto* spec : lint::PlanCheckSpecs()) findings.push_back(Of(*spec));
  const auto urls = RunbookUrls(findings);
  ASSERT_EQ(urls.size(), findings.size());
  for (const auto* spec : lint::AllCheckSpecs())
    EXPECT_EQ(urls.at(std::string(spec->id)), spec->DocsUrl());
  for (const auto* spec : lint::PlanCheckSpecs())
    EXPECT_EQ(urls.at(std::string(spec->id)), spec->DocsUrl());
}

TEST(AlertmanagerRunbook, NodeAndPlanChecksLinkWhereTheirDocsAre) {
  const auto urls = RunbookUrls({Of(checks::kPfcPriorities), Of(plan::kPlanDuplicateRoceIp)});
  EXPECT_EQ(urls.at("qos.pfc-priorities"), "docs/checks.md#qos.pfc-priorities");
  EXPECT_EQ(urls.at("plan.duplicate-roce-ip"), "docs/plan.md#plan-checks");
}

TEST(AlertmanagerRunbook, AnUnregisteredCheckLinksToTheListOfChecks) {
  Finding f;
  f.check = "no.such-check";
  f.node = "gpu-01";
  EXPECT_EQ(RunbookUrls({f}).at("no.such-check"), "docs/checks.md");
}

}  // namespace
}  // namespace rocewatch::lint::serve
