#include "rocewatch/strings.h"

#include <gtest/gtest.h>

#include <clocale>

namespace rocewatch {
namespace {

TEST(Trim, StripsBothEnds) {
  EXPECT_EQ(Trim("  4: ACTIVE\n"), "4: ACTIVE");
  EXPECT_EQ(Trim("\n"), "");
  EXPECT_EQ(Trim(""), "");
}

TEST(Split, KeepsEmptyFields) {
  auto parts = Split("a,,b", ',');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], "a");
  EXPECT_EQ(parts[1], "");
  EXPECT_EQ(parts[2], "b");
}

TEST(ParseU64, AcceptsOnlyWholeDecimal) {
  EXPECT_EQ(ParseU64("18446744073709551615\n"), 18446744073709551615ull);
  EXPECT_EQ(ParseU64(" 42 "), 42u);
  EXPECT_FALSE(ParseU64("18446744073709551616"));  // overflow
  EXPECT_FALSE(ParseU64("-1"));
  EXPECT_FALSE(ParseU64("N/A (no PMA)"));
  EXPECT_FALSE(ParseU64("12abc"));
  EXPECT_FALSE(ParseU64(""));
}

TEST(ParseI64, AcceptsSign) {
  EXPECT_EQ(ParseI64("-1"), -1);
  EXPECT_EQ(ParseI64("100000"), 100000);
  EXPECT_FALSE(ParseI64("+1"));
}

TEST(ParseU64Auto, HexAndDecimal) {
  EXPECT_EQ(ParseU64Auto("0x15b3"), 0x15b3u);
  EXPECT_EQ(ParseU64Auto("5555"), 5555u);
  EXPECT_FALSE(ParseU64Auto("0x"));
  EXPECT_FALSE(ParseU64Auto("0xzz"));
}

TEST(ParseDouble, IgnoresLocale) {
  const char* old = std::setlocale(LC_NUMERIC, "de_DE.UTF-8");  // comma-decimal when available
  EXPECT_EQ(ParseDouble("32.0"), 32.0);
  EXPECT_EQ(ParseDouble("2.5"), 2.5);
  EXPECT_FALSE(ParseDouble("2,5"));
  EXPECT_FALSE(ParseDouble("GT/s"));
  if (old != nullptr) std::setlocale(LC_NUMERIC, "C");
}

TEST(FormatDouble, ShortestRoundTrip) {
  EXPECT_EQ(FormatDouble(50000000000.0), "50000000000");
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(1.0 / 0.0), "+Inf");
}

TEST(Quote, EscapesControlBytes) {
  EXPECT_EQ(Quote("a\x01\n\"b"), "\"a\\x01\\n\\\"b\"");
  EXPECT_EQ(Quote("abcdef", 3), "\"abc…\"");
}

TEST(DidYouMean, SuggestsCloseWords) {
  std::vector<std::string> flags = {"web.listen-address", "web.telemetry-path", "path.sysfs"};
  EXPECT_EQ(DidYouMean("web.listen-adress", flags), "web.listen-address");
  EXPECT_EQ(DidYouMean("path.sysf", flags), "path.sysfs");
  EXPECT_FALSE(DidYouMean("completely-different", flags));
}

TEST(FirstInvalidUtf8, FindsTheFirstByteOutsideWellFormedUtf8) {
  constexpr auto npos = std::string_view::npos;
  EXPECT_EQ(FirstInvalidUtf8(""), npos);
  EXPECT_EQ(FirstInvalidUtf8("plain ASCII\n"), npos);
  EXPECT_EQ(FirstInvalidUtf8("Z\xC3\xBCrich \xE6\x9D\xB1 \xF0\x9F\x96\xA5 \xF4\x8F\xBF\xBF"), npos);
  EXPECT_EQ(FirstInvalidUtf8("ab\xFF"), 2u);            // never in UTF-8
  EXPECT_EQ(FirstInvalidUtf8("Z\xFCrich"), 1u);         // Latin-1
  EXPECT_EQ(FirstInvalidUtf8("a\xC3"), 1u);             // truncated
  EXPECT_EQ(FirstInvalidUtf8("a\xC3(b"), 1u);           // bad continuation
  EXPECT_EQ(FirstInvalidUtf8("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(FirstInvalidUtf8("\xE0\x80\xAF"), 0u);      // overlong
  EXPECT_EQ(FirstInvalidUtf8("\xED\xA0\x80"), 0u);      // UTF-16 surrogate
  EXPECT_EQ(FirstInvalidUtf8("\xF4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(FirstInvalidUtf8("\x80"), 0u);              // lone continuation
}

}  // namespace
}  // namespace rocewatch
