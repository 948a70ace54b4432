// rocewatch/escape.h: one function per target, each total. The sh words are read back by a real
// shell (bash and dash), byte for byte; the rest is checked against what its target reads.

#include "rocewatch/escape.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace rocewatch::escape {
namespace {

using namespace std::string_literals;

// The nastiest strings of issue 13: line breaks, command substitution, quotes, separators,
// backslashes, systemd specifiers, NUL, ESC, non-UTF-8, C1 and bidi controls, a very long one.
std::vector<std::string> Nasty() {
  return {"c1\nid > /tmp/x\n#",
          "roce\ntouch /tmp/x\n#",
          "c\n[Service]\nExecStartPre=/bin/touch /tmp/x",
          "a\rb",
          "$(touch /tmp/x)",
          "`touch /tmp/x`",
          "'; touch /tmp/x; '",
          "\"; touch /tmp/x; \"",
          "a;b&&c|d",
          "trailing\\",
          "%n%z%%",
          "nul\0byte"s,
          "\x1b]0;title\x07\x1b[31mred",
          "bad\xff\xfe",
          "\xc2\x9b" "31m",
          "rtl\xe2\x80\xae" "gnp.exe",
          "sep\xe2\x80\xa8line",
          std::string(100000, 'A') + "\n",
          "-n",
          "",
          "*?[a]|\"$x\""};
}

// What `sh -c 'printf %s WORD'` prints.
std::string ShellReads(const char* shell, const std::string& word) {
  std::string script = "printf %s " + word;
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execlp(shell, shell, "-c", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << shell << " " << script.substr(0, 200);
  return out;
}

TEST(ShWord, EveryShellReadsBackExactlyTheText) {
  for (const char* shell : {"bash", "dash"}) {
    for (const auto& s : Nasty()) {
      std::string want = s;
      if (auto at = want.find('\0'); at != std::string::npos) want.replace(at, 1, "\\x00");
      EXPECT_EQ(ShellReads(shell, ShWord(s)), want) << shell << ": " << s.substr(0, 80);
    }
  }
}

TEST(ShWord, PlainWordsStayAsTheyAre) {
  EXPECT_EQ(ShWord("ens1f0np0"), "ens1f0np0");
  EXPECT_EQ(ShWord("/sys/class/net/x"), "/sys/class/net/x");
  EXPECT_EQ(ShWord("a b"), "'a b'");
  EXPECT_EQ(ShWord("it's"), "'it'\\''s'");
  EXPECT_EQ(ShWord(""), "''");
}

// Nothing a terminal reads as a control: no byte below 0x20, no DEL, no C1, only valid UTF-8.
void ExpectInert(const std::string& out, const std::string& in) {
  for (unsigned char c : out) {
    EXPECT_TRUE(c >= 0x20 && c != 0x7f) << "byte " << int(c) << " from " << in.substr(0, 60);
  }
  EXPECT_EQ(out.find("\xc2\x9b"), std::string::npos);
  EXPECT_EQ(out.find("\xe2\x80\xae"), std::string::npos);
  EXPECT_EQ(out.find("\xe2\x80\xa8"), std::string::npos);
}

TEST(TerminalText, NothingMovesTheCursorOrStartsALine) {
  for (const auto& s : Nasty()) {
    ExpectInert(TerminalText(s), s);
    ExpectInert(ShComment(s), s);
    ExpectInert(SystemdValue(s), s);
    ExpectInert(UdevMatchValue(s), s);
  }
  EXPECT_EQ(TerminalText("gpu-03\ngpu-99: passed (8 NICs)"), "gpu-03\\ngpu-99: passed (8 NICs)");
  EXPECT_EQ(TerminalText("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(TerminalText("a\tb\rc"), "a\\tb\\rc");
  EXPECT_EQ(TerminalText("bad\xff"), "bad\\xff");
  EXPECT_EQ(TerminalText("\xc2\x9b"), "\\u{009b}");
  EXPECT_EQ(TerminalText("\xe2\x80\xae"), "\\u{202e}");
  // Printable UTF-8 (the Chinese report, names with accents) is kept.
  EXPECT_EQ(TerminalText("未通过 café"), "未通过 café");
}

TEST(SystemdValue, NoContinuationNoSpecifier) {
  EXPECT_EQ(SystemdValue("a%nb"), "a%%nb");
  EXPECT_EQ(SystemdValue("end\\"), "end\\\\");
  EXPECT_EQ(SystemdValue("x\n[Service]"), "x\\\\n[Service]");
  // Every backslash is doubled, so no line ends in an odd number of them (continuation).
  for (const auto& s : Nasty()) {
    std::string v = SystemdValue(s);
    std::size_t n = 0;
    while (n < v.size() && v[v.size() - 1 - n] == '\\') ++n;
    EXPECT_EQ(n % 2, 0u) << s.substr(0, 60);
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] != '%') continue;
      ASSERT_LT(i + 1, v.size());
      EXPECT_EQ(v[i + 1], '%');
      ++i;
    }
  }
}

TEST(UdevMatchValue, SpecialsBecomeSingleCharacterWildcards) {
  EXPECT_EQ(UdevMatchValue("mlx5_0"), "mlx5_0");
  EXPECT_EQ(UdevMatchValue("a\"b|c*\\\n"), "a?b?c???");
  for (const auto& s : Nasty()) {
    std::string v = UdevMatchValue(s);
    EXPECT_EQ(v.size(), s.size());
    EXPECT_EQ(v.find_first_of("\"\\|\n"), std::string::npos);
  }
}

TEST(PathComponent, RefusesEveryEscape) {
  EXPECT_EQ(PathComponent("gpu-01"), "gpu-01");
  EXPECT_EQ(PathComponent("gpu.rack-1.example"), "gpu.rack-1.example");
  for (std::string bad : std::vector<std::string>{"", ".", "..", "../outside", "a/b", "/etc", "a\nb", "a\rb", "nul\0x"s,
                          "\x1b[1m", std::string(256, 'a')}) {
    EXPECT_FALSE(PathComponent(bad)) << bad.substr(0, 60);
    EXPECT_NE(PathComponentProblem(bad), "") << bad.substr(0, 60);
  }
  EXPECT_EQ(PathComponentProblem("../x"), "it contains '/'");
  EXPECT_EQ(PathComponentProblem(".."), "it names a directory itself (\".\" or \"..\")");
}

}  // namespace
// Another program's output in our logs: indented, inert, and never one of our lines.
TEST(ForeignLogLines, IndentsEachLineAndKeepsItInert) {
  EXPECT_EQ(ForeignLogLines(""), "");
  EXPECT_EQ(ForeignLogLines("a\nb"), "  a\n  b\n");
  EXPECT_EQ(ForeignLogLines("a\n"), "  a\n");
  EXPECT_EQ(ForeignLogLines("\x1b[2Jok\r# result: changed\n# result: PASS\x07"),
            "  \\x1b[2Jok\\r# result: changed\n  # result: PASS\\x07\n");
  EXPECT_EQ(OwnLogLine("# result: ", "failed\n# result: changed"), "# result: failed\\n# result: changed\n");
}

// Markup (HTML, JUnit XML): entities, C0 as U+FFFD, bidi and other format controls visible.
TEST(MarkupText, HtmlAndXmlKeepNoControlNoBidiAndNoInvalidUtf8) {
  EXPECT_EQ(HtmlText("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(XmlText("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(HtmlText("line\n\tx"), "line\n\tx");
  EXPECT_EQ(HtmlText("x\x1b[2J"), "x\xEF\xBF\xBD[2J");
  EXPECT_EQ(XmlText("sw1\u202e1pws"), "sw1\\u{202e}1pws");
  EXPECT_EQ(XmlText("a\u200b" "b\u2066" "c\xc2\x85" "d"), "a\\u{200b}b\\u{2066}c\\u{0085}d");
  EXPECT_EQ(XmlText("bad\xff"), "bad\xEF\xBF\xBD");
  EXPECT_EQ(HtmlText("网卡"), "网卡");
  for (const std::string& s : Nasty()) {
    for (const std::string& out : {HtmlText(s), XmlText(s)}) {
      EXPECT_EQ(out.find_first_of("<>\"'\x1b\r"), std::string::npos) << s.substr(0, 60);
      EXPECT_EQ(out.find("\u202e"), std::string::npos);
    }
  }
}

// JSON documents: invisible controls inside strings become \uXXXX escapes, the rest stays.
TEST(JsonInert, EscapesInvisibleControlsAndKeepsTheDocument) {
  EXPECT_EQ(JsonInert("{\"port\":\"Eth\xe2\x80\xae" "0\",\"zh\":\"网卡\"}"), R"({"port":"Eth\u202e0","zh":"网卡"})");
  EXPECT_EQ(JsonInert("[\"\xc2\x85\"]"), R"(["\u0085"])");
  EXPECT_EQ(JsonInert("[\"\xf3\xa0\x80\x81\"]"), R"(["\udb40\udc01"])");  // U+E0001, a tag character
}

// Alertmanager and Prometheus labels: terminal-safe, valid UTF-8, cut at their limits.
TEST(LabelText, AlertmanagerAndPrometheusLabelsAreInertAndBounded) {
  EXPECT_EQ(AlertmanagerText("x2_0\u202e\x1b"), "x2_0\\u{202e}\\x1b");
  EXPECT_EQ(PrometheusLabelValue("mlx5_0"), "mlx5_0");
  EXPECT_EQ(PrometheusLabelValue("a\nb"), "a\\nb");
  const std::string long_name = std::string(kMaxPrometheusLabelBytes - 1, 'a') + "网";
  const std::string cut = PrometheusLabelValue(long_name);
  EXPECT_EQ(cut, std::string(kMaxPrometheusLabelBytes - 1, 'a') + "…");  // never inside a character
  EXPECT_LE(AlertmanagerText(std::string(1 << 20, 'x')).size(), kMaxAlertmanagerTextBytes + 3);
}

}  // namespace rocewatch::escape
