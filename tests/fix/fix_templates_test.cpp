// The script templates (lint/fix/templates/*.sh, embedded at build time): FillTemplate's
// placeholders, and the script's interface that the templates spell out literally (exit codes,
// file name) agreeing with lint/fix/script.h. The rendered bytes are the goldens' business.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "lint/fix/script.h"
#include "lint/fix/templates.h"

namespace rocewatch::lint::fix::templates {
namespace {

using ::testing::HasSubstr;

TEST(FixTemplates, FillsPlaceholdersAndLeavesShellAtSignsAlone) {
  auto r = FillTemplate("a @X@ b \"$@\" c@d @lower@\n#@LINES@\nend\n",
                        {{"X", "'x y'"}, {"LINES", "# one\n# two\n"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, "a 'x y' b \"$@\" c@d @lower@\n# one\n# two\nend\n");
  auto empty_block = FillTemplate("#\n#@LINES@\n#\n", {{"LINES", ""}});
  ASSERT_TRUE(empty_block.ok());
  EXPECT_EQ(*empty_block, "#\n#\n");
}

TEST(FixTemplates, MissingAndUnusedValuesAreErrors) {
  auto missing = FillTemplate("NODE=@NODE_WORD@\n", {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "template placeholder @NODE_WORD@ has no value");
  auto unused = FillTemplate("x\n", {{"NODE_WORD", "n"}});
  ASSERT_FALSE(unused.ok());
  EXPECT_EQ(unused.error().message, "template value NODE_WORD has no placeholder");
}

TEST(FixTemplates, EmbeddedBytesAreTheFiles) {
  EXPECT_TRUE(kHeader.starts_with("#!/bin/sh\n"));
  EXPECT_TRUE(kLibrary.starts_with("\n# ---- library: "));
  EXPECT_THAT(std::string(kUpstream), HasSubstr("dcb_pfc() {\n"));
  EXPECT_THAT(std::string(kMlnx), HasSubstr("mlnx_qos_show() {\n"));
  EXPECT_THAT(std::string(kRollback), HasSubstr("\nrollback() {\n"));
  EXPECT_TRUE(kMain.ends_with("\nexit 0\n"));
  // Only the header has placeholders: the rest is emitted as written.
  for (auto part : {kLibrary, kUpstream, kMlnx, kRollback, kMain}) {
    auto filled = FillTemplate(part, {});
    ASSERT_TRUE(filled.ok()) << filled.error().message;
    EXPECT_EQ(*filled, part);
  }
}

// The exit codes and the file name are the script's interface (docs/fix.md, the batch runner,
// systemd): the templates write them as numbers, script.h names them.
TEST(FixTemplates, InterfaceAgreesWithScriptH) {
  const std::string header(kHeader), main(kMain), library(kLibrary), rollback(kRollback);
  const std::string usage = std::to_string(kScriptUsage);
  EXPECT_THAT(header, HasSubstr("    usage >&2\n    exit " + usage + "\n    ;;\n"));
  EXPECT_THAT(header, HasSubstr("# Exit codes: " + std::to_string(kScriptOk) +
                                " every setting as planned, " +
                                std::to_string(kScriptFailedSettings) +
                                " a setting could not be read or changed,\n#   " + usage +
                                " bad arguments, " + std::to_string(kScriptPrecheckFailed) +
                                " precheck failed (nothing was changed), " +
                                std::to_string(kScriptOtherPlanBackup) + " the unrestored backup of\n"));
  // Another plan's backup: backup() returns the code, step() exits with it.
  const std::string other = std::to_string(kScriptOtherPlanBackup);
  EXPECT_THAT(rollback, HasSubstr("over it' \\\n        \"$STATE_FILE\" \"$(backup_field plan)\" "
                                  "\"$(backup_field time)\"\n      return " + other + "\n"));
  EXPECT_THAT(library, HasSubstr("if [ \"$_rc\" = " + other + " ]; then\n"));
  EXPECT_THAT(library, HasSubstr("backup=another-plan\"\n    exit " + other + "\n"));
  EXPECT_THAT(header, HasSubstr(std::string("# Usage: ") + kScriptFileName + " [--dry-run"));
  EXPECT_THAT(header, HasSubstr(std::string("echo 'usage: ") + kScriptFileName + " [--dry-run"));
  EXPECT_THAT(main, HasSubstr("nothing was changed\"\n  exit " +
                              std::to_string(kScriptPrecheckFailed) + "\nfi\n"));
  EXPECT_THAT(main, HasSubstr("if [ \"$FAILED\" -gt 0 ]; then\n  exit " +
                              std::to_string(kScriptFailedSettings) + "\nfi\n"));
}

}  // namespace
}  // namespace rocewatch::lint::fix::templates
