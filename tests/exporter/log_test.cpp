// The exporter's logfmt log on hostile values: a capture's path or link text with ESC, CR,
// quotes or newlines stays one log line with no raw control byte.

#include "exporter/log.h"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "common/test_dir.h"

namespace rocewatch::log {
namespace {

// What Write puts on stderr for one call.
std::string Logged(std::string_view msg, const Fields& fields) {
  testing::TestDir dir;
  const std::string path = dir / "stderr";
  std::fflush(stderr);
  int saved = ::dup(STDERR_FILENO);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ::dup2(fd, STDERR_FILENO);
  ::close(fd);
  Write(Level::kWarn, msg, fields);
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::string out;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
  }
  return out;
}

TEST(Log, ControlBytesOfValuesAreEscaped) {
  std::string line = Logged("path refused, not read",
                            {{"path", "/cap/sys/hw_counters/x\x1b[2J\ry\"z\\"}, {"tab", "a\tb"},
                             {"nl", "l1\nfake=line"}, {"plain", "mlx5_0"}});
  EXPECT_NE(line.find(R"(path="/cap/sys/hw_counters/x\x1b[2J\x0dy\"z\\")"), std::string::npos) << line;
  EXPECT_NE(line.find(R"(tab="a\tb")"), std::string::npos) << line;
  EXPECT_NE(line.find(R"(nl="l1\nfake=line")"), std::string::npos) << line;
  EXPECT_NE(line.find(" plain=mlx5_0"), std::string::npos) << line;
  // One line, and no control byte in it but its newline.
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    EXPECT_FALSE(c < 0x20 || c == 0x7f) << "raw control byte " << int(c) << " at " << i;
  }
}

}  // namespace
}  // namespace rocewatch::log
