#include "lint/plan/json_positions.h"

#include <gtest/gtest.h>

namespace rocewatch::lint::plan {
namespace {

std::string At(const JsonPositions& p, const std::string& pointer) {
  auto at = p.values.Find(pointer);
  if (!at) return "missing";
  return std::to_string(at->line) + ":" + std::to_string(at->column);
}

std::string KeyAt(const JsonPositions& p, const std::string& pointer) {
  auto at = p.keys.Find(pointer);
  if (!at) return "missing";
  return std::to_string(at->line) + ":" + std::to_string(at->column);
}

TEST(JsonPositions, ValuesAndKeysOfNestedDocument) {
  const std::string text = "{\n  \"a\": [10, {\"b\": null}],\n\t\"c\" : \"x\"\n}";
  JsonPositions p = IndexJsonPositions(text);
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(At(p, ""), "1:1");
  EXPECT_EQ(At(p, "/a"), "2:8");
  EXPECT_EQ(At(p, "/a/0"), "2:9");
  EXPECT_EQ(At(p, "/a/1"), "2:13");
  EXPECT_EQ(At(p, "/a/1/b"), "2:19");
  EXPECT_EQ(At(p, "/c"), "3:8");
  EXPECT_EQ(KeyAt(p, "/a"), "2:3");
  EXPECT_EQ(KeyAt(p, "/a/1/b"), "2:14");
  EXPECT_EQ(KeyAt(p, "/c"), "3:2");
  EXPECT_EQ(p.values.size(), 6u);
}

TEST(JsonPositions, EscapedKeysAreDecodedAndPointerEscaped) {
  JsonPositions p = IndexJsonPositions(R"({"a\/b": 1, "\u007e": 2, "\ud83d\ude00": 3})");
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(At(p, "/a~1b"), "1:10");
  EXPECT_EQ(At(p, "/~0"), "1:23");
  EXPECT_EQ(At(p, "/\xF0\x9F\x98\x80"), "1:42");
}

TEST(JsonPositions, DuplicateKeys) {
  JsonPositions p = IndexJsonPositions("{\"a\": {\"x\": 1,\n \"x\": 2}, \"a\": 3}");
  ASSERT_EQ(p.duplicate_keys.size(), 2u);
  EXPECT_EQ(p.duplicate_keys[0].pointer, "/a/x");
  EXPECT_EQ(p.duplicate_keys[0].first.line, 1u);
  EXPECT_EQ(p.duplicate_keys[0].first.column, 8u);
  EXPECT_EQ(p.duplicate_keys[0].repeat.line, 2u);
  EXPECT_EQ(p.duplicate_keys[0].repeat.column, 2u);
  EXPECT_EQ(p.duplicate_keys[1].pointer, "/a");
  // The value JSON keeps is the last one, and so is its position.
  EXPECT_EQ(At(p, "/a"), "2:16");
  EXPECT_EQ(KeyAt(p, "/a"), "2:11");
  EXPECT_EQ(At(p, "/a/x"), "2:7");
}

TEST(JsonPositions, ManyPointersFoundAfterSorting) {
  std::string text = "{\"nodes\": [";
  for (int i = 0; i < 500; ++i) text += std::string(i ? "," : "") + "{\"name\": \"n" + std::to_string(i) + "\"}";
  text += "]}";
  JsonPositions p = IndexJsonPositions(text);
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(p.values.size(), 2u + 500u * 2u);
  for (int i : {0, 9, 10, 99, 100, 499}) EXPECT_NE(At(p, "/nodes/" + std::to_string(i) + "/name"), "missing") << i;
  EXPECT_EQ(At(p, "/nodes/500/name"), "missing");
  EXPECT_EQ(At(p, "/nodes/1/nam"), "missing");
}

TEST(JsonPositions, CrLfLineEnds) {
  JsonPositions p = IndexJsonPositions("{\r\n  \"a\": 1\r\n}");
  EXPECT_EQ(At(p, "/a"), "2:8");
}

TEST(JsonPositions, MalformedOrTooDeepInputIsIncompleteNotACrash) {
  for (std::string_view bad : {"{\"a\": ", "[1, 2", "{\"a\" 1}", "\"\\u12\"",
                               "{\"a\": \"\\ud800\"}", "", "]", "{\"a\": 1,}", "[1 2]"}) {
    JsonPositions p = IndexJsonPositions(bad);
    EXPECT_FALSE(p.complete) << bad;
  }
  std::string deep(kMaxJsonDepth + 1, '[');
  deep += std::string(kMaxJsonDepth + 1, ']');
  EXPECT_FALSE(IndexJsonPositions(deep).complete);
  std::string ok(kMaxJsonDepth, '[');
  ok += std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(IndexJsonPositions(ok).complete);
}

TEST(JsonPositions, PositionOfOffset) {
  const std::string text = "ab\ncdé\nf";
  EXPECT_EQ(PositionOfOffset(text, 0).column, 1u);
  EXPECT_EQ(PositionOfOffset(text, 4).line, 2u);
  EXPECT_EQ(PositionOfOffset(text, 4).column, 2u);
  // 'é' is two bytes; the newline after it is column 4 of line 2.
  EXPECT_EQ(PositionOfOffset(text, 7).column, 4u);
  EXPECT_EQ(PositionOfOffset(text, 8).line, 3u);
}

TEST(JsonPointer, TokensAreEscaped) {
  std::string p;
  AppendPointerToken(p, "profiles");
  AppendPointerToken(p, "a/b~c");
  EXPECT_EQ(p, "/profiles/a~1b~0c");
}

}  // namespace
}  // namespace rocewatch::lint::plan
