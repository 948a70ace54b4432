#include "lint/core/finding.h"

#include <gtest/gtest.h>

namespace rocewatch::lint {
namespace {

TEST(Severity, NamesRoundTrip) {
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kError, Severity::kCritical}) {
    EXPECT_EQ(ParseSeverity(SeverityName(s)), s);
  }
  EXPECT_EQ(SeverityName(Severity::kWarning), "warning");
  EXPECT_EQ(SeverityName(Severity::kCritical), "critical");
}

TEST(Severity, ParsingIsCaseInsensitiveAndStrict) {
  EXPECT_EQ(ParseSeverity("ERROR"), Severity::kError);
  EXPECT_EQ(ParseSeverity("Info"), Severity::kInfo);
  EXPECT_EQ(ParseSeverity("warn"), std::nullopt);
  EXPECT_EQ(ParseSeverity(""), std::nullopt);
  EXPECT_EQ(ParseSeverity(" error"), std::nullopt);
}

TEST(Severity, IsOrderedBySeriousness) {
  EXPECT_LT(Severity::kInfo, Severity::kWarning);
  EXPECT_LT(Severity::kWarning, Severity::kError);
  EXPECT_LT(Severity::kError, Severity::kCritical);
}

TEST(Findings, MaxSeverityAndCount) {
  std::vector<Finding> none;
  EXPECT_EQ(MaxSeverity(none), std::nullopt);
  std::vector<Finding> f(3);
  f[0].severity = Severity::kInfo;
  f[1].severity = Severity::kError;
  f[2].severity = Severity::kWarning;
  EXPECT_EQ(MaxSeverity(f), Severity::kError);
  EXPECT_EQ(CountAtOrAbove(f, Severity::kInfo), 3u);
  EXPECT_EQ(CountAtOrAbove(f, Severity::kWarning), 2u);
  EXPECT_EQ(CountAtOrAbove(f, Severity::kError), 1u);
  EXPECT_EQ(CountAtOrAbove(f, Severity::kCritical), 0u);
}

}  // namespace
}  // namespace rocewatch::lint
