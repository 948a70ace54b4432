// JUnit XML: one test suite per node, one test case per planned NIC plus one
// for the node itself; a failing case lists its findings. CI systems show it
// as a test report.

#include <algorithm>

#include "lint/report/node_report.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::report {
namespace {

// XML text or attribute value (escape::XmlText: the one XML escape of every report).
std::string Xml(std::string_view s) { return escape::XmlText(s); }

struct Case {
  std::string name;
  std::vector<const Finding*> findings;
};

}  // namespace

void WriteJUnitReport(std::ostream& out, const CheckRun& run) {
  std::vector<std::pair<const plan::Node*, std::vector<Case>>> suites;
  std::size_t tests = 0, failures = 0;
  for (const auto& node : run.plan->nodes) {
    std::vector<Case> cases;
    cases.push_back({"node " + node.name, {}});
    for (const auto& nic : node.nics) cases.push_back({"nic " + nic.ib_dev + " " + nic.netdev, {}});
    for (const auto& f : run.findings) {
      if (f.node != node.name) continue;
      Case* target = &cases.front();
      for (std::size_t i = 0; i < node.nics.size(); ++i)
        if (!f.device.empty() && node.nics[i].ib_dev == f.device) target = &cases[i + 1];
      target->findings.push_back(&f);
    }
    for (const auto& c : cases) {
      ++tests;
      failures += c.findings.empty() ? 0 : 1;
    }
    suites.emplace_back(&node, std::move(cases));
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"roce-lint\" tests=\"" << tests << "\" failures=\"" << failures << "\">\n";
  for (const auto& [node, cases] : suites) {
    std::size_t f = 0;
    for (const auto& c : cases) f += c.findings.empty() ? 0 : 1;
    out << "  <testsuite name=\"" << Xml(node->name) << "\" tests=\"" << cases.size()
        << "\" failures=\"" << f << "\">\n";
    for (const auto& c : cases) {
      out << "    <testcase classname=\"" << Xml(node->name) << "\" name=\"" << Xml(c.name) << "\"";
      if (c.findings.empty()) {
        out << "/>\n";
        continue;
      }
      out << ">\n      <failure message=\"";
      std::string summary;
      for (const Finding* finding : c.findings) summary += (summary.empty() ? "" : "; ") + finding->check;
      Severity worst = c.findings.front()->severity;
      for (const Finding* finding : c.findings) worst = std::max(worst, finding->severity);
      out << Xml(summary) << "\" type=\"" << SeverityName(worst) << "\">";
      for (const Finding* finding : c.findings) {
        out << Xml(std::string(SeverityName(finding->severity)) + " [" + finding->check + "] " +
                   finding->message + "\n  expected: " + finding->expected + "\n  found: " +
                   finding->found + "\n  fix: " + finding->fix + "\n");
      }
      out << "</failure>\n    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace rocewatch::lint::report
