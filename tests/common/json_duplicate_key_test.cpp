// rocewatch/json_duplicate_key.h: the first key an object repeats, where, and the plan loader's words.

#include "rocewatch/json_duplicate_key.h"

#include <gtest/gtest.h>

#include <string>

namespace rocewatch {
namespace {

TEST(JsonDuplicateKey, FindsTheFirstRepeatWithItsPointerAndPositions) {
  auto d = FindDuplicateJsonKey("{\"a\": [1, {\"b/c\": {\"x\": 1,\n \"x\": 2}}]}");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->pointer, "/a/1/b~1c/x");
  EXPECT_EQ(d->key, "x");
  EXPECT_EQ(d->first_line, 1u);
  EXPECT_EQ(d->first_column, 20u);
  EXPECT_EQ(d->line, 2u);
  EXPECT_EQ(d->column, 2u);
  EXPECT_EQ(DuplicateKeyMessage(*d),
            "/a/1/b~1c: key \"x\" appears twice in one object (first at 1:20, again at 2:2); only the last one counts");
}

TEST(JsonDuplicateKey, KeysCompareUnescapedAndOnlyInOneObject) {
  EXPECT_TRUE(FindDuplicateJsonKey(R"({"E0": 1, "\u00450": 2})"));
  EXPECT_TRUE(FindDuplicateJsonKey(R"({"\ud83d\ude00": 1, "😀": 2})"));
  EXPECT_FALSE(FindDuplicateJsonKey(R"({"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]})"));
  EXPECT_FALSE(FindDuplicateJsonKey(R"({"a": "a", "b": ["a", "a"], "c": {"a": "a"}})"));  // values are no keys
  EXPECT_FALSE(FindDuplicateJsonKey(R"({"a\"": 1, "a": 2})"));
  const auto root = FindDuplicateJsonKey(R"({"x": 1, "x": 2})");
  ASSERT_TRUE(root);
  EXPECT_EQ(DuplicateKeyMessage(*root), "/: key \"x\" appears twice in one object (first at 1:2, again at 1:10); only the last one counts");
}

TEST(JsonDuplicateKey, HostileTextNeverThrowsNorReadsPast) {
  for (std::string bad : {"", "{", "{\"a", "{\"a\\", "{\"a\\u12", "}}}]]", "[[[[", "{\"a\": 1, \"a", "\"\\ud800\""})
    EXPECT_FALSE(FindDuplicateJsonKey(bad)) << bad;
  EXPECT_FALSE(FindDuplicateJsonKey(std::string(1000, '{'), 64));  // deeper than allowed: gives up
  // A control character in the pointer is shown escaped.
  auto d = FindDuplicateJsonKey("{\"\\u001b[2J\": {\"k\": 1, \"k\": 1}}");
  ASSERT_TRUE(d);
  EXPECT_EQ(DuplicateKeyMessage(*d).substr(0, 12), "/\\x1b[2J: ke");
}

// Linear in the text: a million distinct keys in one object, and as many objects.
TEST(JsonDuplicateKey, ManyKeysAndManyObjects) {
  std::string keys = "{";
  for (int i = 0; i < 1000000; ++i) keys += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
  EXPECT_FALSE(FindDuplicateJsonKey(keys + "}"));
  auto d = FindDuplicateJsonKey(keys + ",\"999999\":1}");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->pointer, "/999999");
  std::string objects = "[";
  for (int i = 0; i < 1000000; ++i) objects += i ? ",{\"a\":1}" : "{\"a\":1}";
  EXPECT_FALSE(FindDuplicateJsonKey(objects + "]"));
}

}  // namespace
}  // namespace rocewatch
