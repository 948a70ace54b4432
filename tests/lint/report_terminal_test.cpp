// Issue 13, items 4 and 5: what people read cannot be forged or carry terminal controls (the
// text report in English and Chinese, finding lines, roce-lint's standard error), and a node
// name never reads a metrics file outside --metrics-dir.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/test_dir.h"
#include "lint/observe/observe.h"
#include "lint/report/node_report.h"
#include "lint/report/text_report.h"
#include "lint/report/text_terminal.h"

namespace rocewatch::lint::report {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

plan::Plan TwoNodes(const std::string& hostile) {
  plan::Plan p;
  p.cluster = "c";
  for (const std::string& name : std::vector<std::string>{"gpu-01", hostile}) {
    plan::Node n;
    n.name = name;
    n.nics.push_back(plan::Nic{"mlx5_0", "ens1f0np0", "roce", "10.1.0.1/24", {}, {}});
    p.nodes.push_back(n);
  }
  return p;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

void ExpectNoControls(const std::string& text) {
  for (unsigned char c : text) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c != 0x7f)) << int(c);
}

TEST(ForgedReport, NodeNameCannotPrintAFakeLine) {
  const std::string forged = "gpu-03\ngpu-99: passed (8 NICs)";
  plan::Plan p = TwoNodes(forged);
  CheckRun run;
  run.plan = &p;
  Finding f;
  f.check = "qos.pfc-priorities";
  f.severity = Severity::kError;
  f.node = forged;
  f.netdev = "ens1f0np0\x1b[2K";
  f.message = "PFC is on none\x1b]0;owned\x07";
  f.expected = "3";
  f.found = "none\r\nfake: passed";
  f.fix = "dcb pfc set dev ens1f0np0 prio-pfc 3:on\x1b[8m";
  run.findings.push_back(f);
  for (Language lang : {Language::kEnglish, Language::kChinese}) {
    std::ostringstream out;
    WriteNodeReport(out, run, lang);
    const std::string text = out.str();
    ExpectNoControls(text);
    auto lines = Lines(text);
    // No line but the real one starts with a node name: the forged node is one line, escaped.
    EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                            [](const std::string& l) { return l.rfind("gpu-99", 0) == 0; }),
              0)
        << text;
    EXPECT_THAT(text, HasSubstr("gpu-03\\ngpu-99: passed (8 NICs): "));
    EXPECT_THAT(text, HasSubstr("\\x1b[2K"));
    EXPECT_THAT(text, Not(HasSubstr("\nfake: passed")));
  }
}

TEST(ForgedReport, FindingLinesAreOneLine) {
  Finding f;
  f.check = "plan.invalid-name";
  f.severity = Severity::kError;
  f.location = "plan.json:3:5 /profiles/roce\ntouch ~1tmp~1x\n#";
  f.message = "profile name \"x\" \x1b[31m";
  const std::string line = FormatFindingLine(f);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.find('\x1b'), std::string::npos);
  EXPECT_THAT(line, HasSubstr("/profiles/roce\\ntouch ~1tmp~1x\\n#: error: "));
}

// A Prometheus error string with ANSI codes, written to roce-lint's standard error.
TEST(TerminalStream, EscapesControlsKeepsLines) {
  std::ostringstream sink;
  {
    TerminalTextStream err(sink);
    err << "roce-lint check: prometheus: \x1b[2J\x1b[31mbad_data\x1b[0m: parse error\tat 1\n"
        << "second line, \xff ";
    err << "then the rest\x07";
    err.flush();
    err << "\nend\n";
  }
  EXPECT_EQ(sink.str(),
            "roce-lint check: prometheus: \\x1b[2J\\x1b[31mbad_data\\x1b[0m: parse error\tat 1\n"
            "second line, \\xff then the rest\\x07\nend\n");
  std::ostringstream utf8;
  {
    TerminalTextStream err(utf8);
    err << "未通过 " << "ok\n";
  }
  EXPECT_EQ(utf8.str(), "未通过 ok\n");
}

// Item 4: --metrics-dir DIR reads DIR/<node>.prom only; a name that would leave DIR is an error
// on that node, and the file outside is never read.
TEST(MetricsDir, NodeNamesNeverLeaveTheDirectory) {
  testing::TestDir tmp;
  const fs::path root = tmp.path();
  fs::create_directories(root / "metrics");
  std::ofstream(root / "outside.prom") << "roce_exporter_build_info 1\n";
  std::ofstream(root / "metrics/gpu-01.prom") << "roce_exporter_build_info 1\n";
  for (std::string name : std::vector<std::string>{"../outside", "..", "gpu-01/../../outside", std::string("a\0b", 3)}) {
    plan::Plan p = TwoNodes(name);
    auto views = observe::ReadMetricsDir(p, (root / "metrics").string());
    ASSERT_EQ(views.size(), 2u);
    EXPECT_TRUE(views[0].reachable()) << views[0].error();
    EXPECT_FALSE(views[1].reachable()) << name;
    EXPECT_THAT(views[1].error(), HasSubstr("cannot be a file name"));
  }
}

}  // namespace
}  // namespace rocewatch::lint::report
