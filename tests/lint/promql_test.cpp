// lint/observe/promql.h: plan names as PromQL text. They must stay strings (a hostile node
// name cannot add a selector or a function), match only themselves, and keep the node matcher
// in the form the stores turn into an exact-set index lookup: `^(?:a|b)$` with no escape
// other than of a metacharacter (Prometheus tsdb findSetMatches gives up on `\:` or `\-`).

#include "lint/observe/promql.h"

#include <gtest/gtest.h>

namespace rocewatch::lint::observe {
namespace {

TEST(Promql, AddressesAndHostNamesEscapeOnlyTheirDots) {
  EXPECT_EQ(RegexLiteral("10.0.0.1:9879"), R"(10\.0\.0\.1:9879)");
  EXPECT_EQ(RegexLiteral("gpu-00001"), "gpu-00001");
  EXPECT_EQ(RegexLiteral("[fd00::1]:9879"), R"(\[fd00::1\]:9879)");
  EXPECT_EQ(MatchAny("instance", {"10.0.0.1:9879", "gpu-01:9879"}),
            R"(instance=~"10\\.0\\.0\\.1:9879|gpu-01:9879")");
}

TEST(Promql, EveryMetacharacterIsEscaped) {
  EXPECT_EQ(RegexLiteral(R"(\.+*?()|[]{}^$)"), R"(\\\.\+\*\?\(\)\|\[\]\{\}\^\$)");
}

TEST(Promql, ControlBytesBecomeHexEscapesAndUtf8StaysWhole) {
  EXPECT_EQ(RegexLiteral("a\nb\x7f"), R"(a\x0ab\x7f)");
  EXPECT_EQ(RegexLiteral("gpü-1"), "gpü-1");
  EXPECT_EQ(PromqlString("a\nb"), R"("a\x0ab")");
}

TEST(Promql, AHostileNameStaysOneString) {
  // Every quote is escaped in the PromQL string and every bracket in the regex, so the
  // selector ends where MatchAny's closing quote is.
  EXPECT_EQ(MatchAny("node", {R"(a"} or vector(1) or {x=")"}),
            R"(node=~"a\"\\} or vector\\(1\\) or \\{x=\"")");
  EXPECT_EQ(PromqlString(R"(a\"b)"), R"("a\\\"b")");
}

}  // namespace
}  // namespace rocewatch::lint::observe
