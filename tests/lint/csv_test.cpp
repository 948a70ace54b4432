#include "lint/plan/csv.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rocewatch::lint::plan {
namespace {

using ::testing::ElementsAre;

TEST(Csv, QuotingPerRfc4180) {
  auto r = ParseCsv("a,\"b,c\",\"say \"\"hi\"\"\"\n\"multi\nline\",,x\n", "t.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_THAT((*r)[0].fields, ElementsAre("a", "b,c", "say \"hi\""));
  EXPECT_THAT((*r)[1].fields, ElementsAre("multi\nline", "", "x"));
  EXPECT_EQ((*r)[1].row, 2u);
  EXPECT_EQ((*r)[1].line, 2u);
}

TEST(Csv, CrLfBomAndMissingFinalNewline) {
  auto r = ParseCsv("\xEF\xBB\xBFnode,rail\r\ngpu-01,0\r\ngpu-02,1", "t.csv");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 3u);
  EXPECT_THAT((*r)[0].fields, ElementsAre("node", "rail"));
  EXPECT_THAT((*r)[2].fields, ElementsAre("gpu-02", "1"));
  EXPECT_EQ((*r)[2].line, 3u);
}

TEST(Csv, UnquotedFieldsAreTrimmedQuotedAreNot) {
  auto r = ParseCsv("  a , \" b \" ,c\t\n", "t.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_THAT((*r)[0].fields, ElementsAre("a", " b ", "c"));
}

TEST(Csv, BlankLinesAreRecordsOfOneEmptyField) {
  auto r = ParseCsv("a\n\nb\n", "t.csv");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 3u);
  EXPECT_THAT((*r)[1].fields, ElementsAre(""));
  EXPECT_EQ((*r)[2].row, 3u);
}

TEST(Csv, RowNumbersCountRecordsNotLines) {
  auto r = ParseCsv("h\n\"two\nlines\"\nthird\n", "t.csv");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[2].row, 3u);
  EXPECT_EQ((*r)[2].line, 4u);
}

TEST(Csv, ErrorsNameRowAndColumn) {
  EXPECT_EQ(ParseCsv("a,b\nx,\"open\n", "t.csv").error().message,
            "t.csv row 2, column B: quoted field opened on line 2 is never closed");
  EXPECT_EQ(ParseCsv("a,b,c\nx,y,ab\"c\n", "t.csv").error().message,
            "t.csv row 2, column C: quote inside an unquoted field; quote the whole field and "
            "double the quote (\"\")");
  EXPECT_EQ(ParseCsv("\"a\"b,c\n", "t.csv").error().message,
            "t.csv row 1, column A: unexpected text after the closing quote: \"b,c\\n\"");
}

TEST(Csv, ColumnLetters) {
  EXPECT_EQ(ColumnLetter(0), "A");
  EXPECT_EQ(ColumnLetter(25), "Z");
  EXPECT_EQ(ColumnLetter(26), "AA");
  EXPECT_EQ(ColumnLetter(27), "AB");
  EXPECT_EQ(ColumnLetter(701), "ZZ");
  EXPECT_EQ(ColumnLetter(702), "AAA");
}

TEST(Csv, EmptyInput) {
  auto r = ParseCsv("", "t.csv");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
  auto bom_only = ParseCsv("\xEF\xBB\xBF", "t.csv");
  ASSERT_TRUE(bom_only.ok());
  EXPECT_TRUE(bom_only->empty());
}

// Found by tests/fuzz/csv_import_fuzz.cpp (corpus/csv_import/regression-latin1-field.csv): a
// field in another encoding than UTF-8 (a Latin-1 spreadsheet export) went into the plan JSON,
// whose writer then threw out of `roce-lint import-csv`. Such text is now an error naming the
// line.
TEST(Csv, TextThatIsNotUtf8IsAnError) {
  EXPECT_EQ(ParseCsv("node,site\ngpu-01,Z\xFCrich\n", "t.csv").error().message,
            "t.csv line 2: byte 0xFC is not UTF-8; save the spreadsheet as \"CSV UTF-8\"");
  EXPECT_EQ(ParseCsv("a\nb\nm\x94\x8e\n", "t.csv").error().message,
            "t.csv line 3: byte 0x94 is not UTF-8; save the spreadsheet as \"CSV UTF-8\"");
  EXPECT_FALSE(ParseCsv("a\xC3", "t.csv").ok());            // truncated sequence
  EXPECT_FALSE(ParseCsv("a\xC0\xAF", "t.csv").ok());        // overlong '/'
  EXPECT_FALSE(ParseCsv("a\xED\xA0\x80", "t.csv").ok());    // UTF-16 surrogate
  EXPECT_FALSE(ParseCsv("a\xF4\x90\x80\x80", "t.csv").ok());  // above U+10FFFF
  // UTF-8 of every length is fine, the byte order mark too.
  auto ok = ParseCsv(
      "\xEF\xBB\xBFsite\nZ\xC3\xBCrich \xE6\x9D\xB1\xE4\xBA\xAC \xF0\x9F\x96\xA5\n", "t.csv");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ((*ok)[1].fields[0], "Z\xC3\xBCrich \xE6\x9D\xB1\xE4\xBA\xAC \xF0\x9F\x96\xA5");
}

}  // namespace
}  // namespace rocewatch::lint::plan
