// JUnit XML for CI: one test suite, one test case per pair; a failed pair is a <failure> with
// every failed verdict, an unreachable or broken one an <error> with the reason.

#include "lint/verify/report.h"
#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::verify {
namespace {

// XML text or attribute value, one line each (a line break as the two characters \n, as the
// text report writes it; the XML escape itself is check's, escape::XmlText).
std::string Xml(std::string_view s) { return escape::XmlText(escape::TerminalText(s)); }

}  // namespace

void WriteVerifyJUnit(std::ostream& out, const std::vector<PairResult>& results, const VerifyRunInfo& info) {
  std::size_t failures = 0, errors = 0;
  double time = 0;
  for (const auto& r : results) {
    failures += r.status == PairStatus::kFail;
    errors += r.status == PairStatus::kError || r.status == PairStatus::kUnreachable;
    time += r.test_seconds;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"roce-lint verify\" tests=\"" << results.size() << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" time=\"" << FormatDouble(time) << "\">\n";
  out << "  <testsuite name=\"verify " << Xml(info.plan) << "\" tests=\"" << results.size() << "\" failures=\""
      << failures << "\" errors=\"" << errors << "\" time=\"" << FormatDouble(time) << "\">\n";
  for (const auto& r : results) {
    out << "    <testcase classname=\"" << Xml(r.origin) << "\" name=\"" << Xml(r.name) << "\" time=\""
        << FormatDouble(r.test_seconds) << "\"";
    if (r.status == PairStatus::kPass) {
      out << "/>\n";
      continue;
    }
    out << ">\n";
    if (r.status == PairStatus::kFail) {
      std::string summary, body;
      for (const auto& v : r.verdicts) {
        if (v.passed) continue;
        summary += (summary.empty() ? "" : "; ") + v.check + " " + v.found;
        body += Xml("[" + v.check + "] " + v.message) + "\n" + Xml("  counter: " + v.counter) + "\n" +
                Xml("  expected: " + v.expected + "  found: " + v.found) + "\n";
      }
      out << "      <failure type=\"FAIL\" message=\"" << Xml(summary) << "\">" << body << "</failure>\n";
    } else {
      out << "      <error type=\"" << StatusName(r.status) << "\" message=\"" << Xml(r.detail) << "\">"
          << Xml(r.detail) << "</error>\n";
    }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace rocewatch::lint::verify
