// The templates of lint/fix/templates/ (embedded at build time): FillTemplate's placeholders,
// and what the templates spell out literally agreeing with the headers that name it: the
// script's exit codes and file name (lint/fix/script.h), the --persist files' names and paths
// (lint/fix/persist.h). The rendered bytes are the goldens' business.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "lint/fix/persist.h"
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
  EXPECT_THAT(std::string(kLibrary), HasSubstr("dcb_pfc() {\n"));  // dcbnl serves every driver
  EXPECT_THAT(std::string(kUpstream), HasSubstr("restore_pfc() { dcb_restore_pfc"));
  EXPECT_THAT(std::string(kMlnx), HasSubstr("mlnx_qos_show() {\n"));
  EXPECT_THAT(std::string(kRollback), HasSubstr("\nrollback() {\n"));
  EXPECT_TRUE(kMain.ends_with("\nexit 0\n"));
  EXPECT_TRUE(kPersistInstall.starts_with("#!/bin/sh\n"));
  EXPECT_TRUE(kPersistUnit.ends_with("\nWantedBy=multi-user.target\n"));
  EXPECT_THAT(std::string(kPersistUdev), HasSubstr("\nACTION==\"add\", SUBSYSTEM==\"net\""));
  // Only the header and the --persist files have placeholders: the rest is emitted as written.
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

// The --persist files' names and paths are persist.h's and script.h's: the templates write them
// out, each where the file names, installs, enables or restarts another.
TEST(FixTemplates, PersistTemplatesNameWhatPersistHNames) {
  const std::string install(kPersistInstall), unit(kPersistUnit), rule(kPersistUdev);
  const std::string script = kScriptFileName, installed = kInstalledScriptPath, unit_name = kUnitName,
                    rule_name = kUdevRuleName;
  EXPECT_THAT(install, HasSubstr("#   " + script + " -> " + installed + "\n"));
  EXPECT_THAT(install, HasSubstr("#   " + unit_name + " -> /etc/systemd/system/ "));
  EXPECT_THAT(install, HasSubstr("#   " + rule_name + " -> /etc/udev/rules.d/ "));
  EXPECT_THAT(install, HasSubstr("echo 'usage: " + std::string(kInstallScriptName) + " [--now]' >&2\n"));
  EXPECT_THAT(install, HasSubstr("keep " + installed + "\nkeep /etc/systemd/system/" + unit_name +
                                 "\nkeep /etc/udev/rules.d/" + rule_name + "\n"));
  EXPECT_THAT(install, HasSubstr("install -D -m 0755 \"$here/" + script + "\" \"$DESTDIR" +
                                 installed + "\"\n"));
  EXPECT_THAT(install, HasSubstr("install -D -m 0644 \"$here/" + unit_name +
                                 "\" \"$DESTDIR/etc/systemd/system/" + unit_name + "\"\n"));
  EXPECT_THAT(install, HasSubstr("install -D -m 0644 \"$here/" + rule_name +
                                 "\" \"$DESTDIR/etc/udev/rules.d/" + rule_name + "\"\n"));
  EXPECT_THAT(install, HasSubstr("if ! " + installed + " --precheck; then\n"));
  EXPECT_THAT(install, HasSubstr("systemctl enable " + unit_name + "\n"));
  EXPECT_THAT(install, HasSubstr("  if ! systemctl restart " + unit_name + "; then\n"));
  EXPECT_THAT(unit, HasSubstr("\nExecStart=" + installed + "\n"));
  EXPECT_THAT(unit, HasSubstr("\n# " + rule_name + " restarts it"));
  EXPECT_THAT(unit, HasSubstr("systemctl status " + unit_name + "\n"));
  const std::string run = "RUN+=\"/bin/systemctl --no-block restart " + unit_name + "\"\n";
  EXPECT_THAT(rule, HasSubstr("KERNEL==\"@DEVICES_MATCH@\", " + run));
  EXPECT_THAT(rule, HasSubstr("NAME==\"@NETDEVS_MATCH@\", " + run));
}

}  // namespace
}  // namespace rocewatch::lint::fix::templates
