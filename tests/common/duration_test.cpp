#include "rocewatch/duration.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(ParseDuration, PrometheusSpellings) {
  EXPECT_EQ(*ParseDuration("500ms"), 0.5);
  EXPECT_EQ(*ParseDuration("30s"), 30);
  EXPECT_EQ(*ParseDuration("5m"), 300);
  EXPECT_EQ(*ParseDuration("1h30m"), 5400);
  EXPECT_EQ(*ParseDuration("0"), 0);
  EXPECT_EQ(*ParseDuration("0s"), 0);
}

TEST(ParseDuration, ErrorsQuoteTheWholeText) {
  auto bad = ParseDuration("10");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "invalid duration \"10\" (expected e.g. 500ms, 30s, 5m, 1h)");
  EXPECT_FALSE(ParseDuration("soon").ok());
  EXPECT_FALSE(ParseDuration("5x").ok());
  EXPECT_FALSE(ParseDuration("").ok());
}

// Found with tests/fuzz/duration_fuzz.cpp's "finite and not negative" property
// (corpus/duration/regression-overflows-to-infinity): a number of 300 digits times the unit
// overflowed to +Inf seconds, which --collector.timeout and the lint intervals would then
// convert to integer clock ticks (undefined behaviour).
TEST(ParseDuration, OverflowIsAnError) {
  EXPECT_FALSE(ParseDuration("1" + std::string(308, '0') + "d").ok());
  EXPECT_FALSE(ParseDuration("1" + std::string(308, '0') + "h1" + std::string(308, '0') + "h").ok());
  EXPECT_TRUE(ParseDuration("1" + std::string(300, '0') + "ms").ok());  // large, but finite
}

}  // namespace
}  // namespace rocewatch
