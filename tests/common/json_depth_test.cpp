// rocewatch/json_depth.h: the bracket scan that refuses deep JSON before it is parsed.

#include "rocewatch/json_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace rocewatch {
namespace {

TEST(JsonDepth, CountsObjectsAndArraysInsideOneAnother) {
  EXPECT_FALSE(JsonNestsDeeperThan(R"({"a": [1, {"b": 2}]})", 3));
  EXPECT_TRUE(JsonNestsDeeperThan(R"({"a": [1, {"b": [2]}]})", 3));
  // Siblings do not add up: depth comes back down after each closes.
  EXPECT_FALSE(JsonNestsDeeperThan("[[1],[2],[3],[4],[5]]", 2));
  EXPECT_FALSE(JsonNestsDeeperThan("", 0));
  EXPECT_FALSE(JsonNestsDeeperThan("42", 0));
}

TEST(JsonDepth, BracketsInStringsAndEscapedQuotesDoNotCount) {
  EXPECT_FALSE(JsonNestsDeeperThan(R"(["[[[[{{{{"])", 1));
  EXPECT_FALSE(JsonNestsDeeperThan(R"(["a\"[[[[", "\\"])", 1));
  EXPECT_TRUE(JsonNestsDeeperThan(R"(["\\", [[1]]])", 2));
}

TEST(JsonDepth, AHostileMillionOpenBracketsIsRefusedWithoutRecursion) {
  const std::string hostile(1'000'000, '[');
  EXPECT_TRUE(JsonNestsDeeperThan(hostile, 64));
  // Closing brackets that were never opened do not make room for more.
  EXPECT_TRUE(JsonNestsDeeperThan("]]]]][[[", 2));
}

}  // namespace
}  // namespace rocewatch
