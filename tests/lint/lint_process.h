#pragma once

// Runs the real roce-lint binary (ROCE_LINT_BIN) from a test: a scratch directory per test,
// the command's exit code, stdout and stderr. Shared by the CLI and check-command tests.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rocewatch::lint::testing {

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class LintProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("roce-lint-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // `roce-lint ARGS <stdin_path`, in the scratch directory when `in_dir` (relative paths in
  // ARGS are then the test's files).
  RunResult Run(const std::string& args, const std::string& stdin_path = "/dev/null",
                bool in_dir = false) {
    const std::filesystem::path out = dir_ / "stdout", err = dir_ / "stderr";
    std::string cmd = (in_dir ? "cd " + dir_.string() + " && " : std::string()) + ROCE_LINT_BIN +
                      " " + args + " >" + out.string() + " 2>" + err.string() + " <" + stdin_path;
    int status = std::system(cmd.c_str());
    RunResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = Slurp(out);
    r.err = Slurp(err);
    return r;
  }

  std::filesystem::path dir_;
};

}  // namespace rocewatch::lint::testing
