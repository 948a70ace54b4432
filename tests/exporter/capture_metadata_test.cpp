#include "exporter/capture/files/capture_metadata.h"

#include <gtest/gtest.h>

#include "common/fixture_paths.h"
#include "common/test_dir.h"

namespace rocewatch::replay {
namespace {

using rocewatch::testing::FixtureDir;
using rocewatch::testing::TestDir;

TEST(CaptureMetadata, ReadsWhatCaptureWrites) {
  CaptureMetadata m;
  m.hostname = "gpu-node-42";
  m.kernel = "6.8.0-60-generic";
  m.created_by = "roce_exporter capture 0.1.0 (abc123)";
  m.created_unix = 1796000000;
  m.description = "PFC pauses on mlx5_3";
  m.collectors = {"rdma", "ethtool"};
  const std::string text = m.ToJson();
  // format and version lead the file, so `head capture.json` says what it is.
  EXPECT_EQ(text.rfind("{\n  \"format\": \"rocewatch-capture\",\n  \"version\": 1,\n", 0), 0u)
      << text;
  auto back = ParseCaptureMetadata(text, "capture.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->hostname, "gpu-node-42");
  EXPECT_EQ(back->kernel, "6.8.0-60-generic");
  EXPECT_EQ(back->created_unix, 1796000000);
  EXPECT_EQ(back->description, "PFC pauses on mlx5_3");
  EXPECT_EQ(back->collectors, (std::vector<std::string>{"rdma", "ethtool"}));
  EXPECT_EQ(back->Summary(),
            "gpu-node-42, kernel 6.8.0-60-generic, roce_exporter capture 0.1.0 (abc123)");
}

TEST(CaptureMetadata, TextThatIsNotUtf8IsReplacedNotFatal) {
  CaptureMetadata m;
  m.description = "Latin-1 \xE9t\xE9";  // a --description typed in a Latin-1 terminal
  const std::string text = m.ToJson();
  auto back = ParseCaptureMetadata(text, "capture.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->description, "Latin-1 \xEF\xBF\xBDt\xEF\xBF\xBD");
}

TEST(CaptureMetadata, OtherFormatsAndVersionsAreRefusedByName) {
  auto other = ParseCaptureMetadata(R"({"format": "node-exporter-textfile", "version": 1})",
                                    "/tmp/x/capture.json");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().message,
            "/tmp/x/capture.json: \"format\" must be \"rocewatch-capture\" (not a roce_exporter "
            "capture)");
  auto newer = ParseCaptureMetadata(R"({"format": "rocewatch-capture", "version": 2})", "c.json");
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.error().message,
            "c.json: capture layout version 2; this roce_exporter reads version 1");
  auto text = ParseCaptureMetadata(R"({"format": "rocewatch-capture", "version": "1"})", "c.json");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message, "c.json: \"version\" must be an integer");
}

TEST(CaptureMetadata, MembersOfTheWrongTypeAreErrors) {
  const std::string head = R"({"format": "rocewatch-capture", "version": 1, )";
  for (const auto& [member, message] : std::vector<std::pair<std::string, std::string>>{
           {R"("hostname": 7})", "c.json: \"hostname\" must be a string"},
           {R"("created_unix": 1.5})", "c.json: \"created_unix\" must be an integer"},
           {R"("collectors": "rdma"})", "c.json: \"collectors\" must be a list of names"},
           {R"("collectors": ["rdma", 3]})", "c.json: \"collectors\" must be a list of names"}}) {
    auto m = ParseCaptureMetadata(head + member, "c.json");
    ASSERT_FALSE(m.ok()) << member;
    EXPECT_EQ(m.error().message, message);
  }
  EXPECT_FALSE(ParseCaptureMetadata("[1]", "c.json").ok());
  EXPECT_FALSE(ParseCaptureMetadata("{\"format\": ", "c.json").ok());
}

TEST(CaptureMetadata, MissingFileIsAPlainTreeAndABrokenOneAnError) {
  TestDir dir;
  dir.Write("sys/class/infiniband/.keep", "");
  auto none = LoadCaptureMetadata(dir.path());
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->has_value());
  dir.Write("capture.json", "{\"format\": \"rocewatch-capture\"}");
  auto broken = LoadCaptureMetadata(dir.path());
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().message, dir.path() + "/capture.json: \"version\" must be an integer");
}

TEST(CaptureMetadata, TheFixturesCarryValidMetadata) {
  for (const char* fixture : {"mlx5-roce", "mlx5-ib", "mlx5-sriov", "empty"}) {
    auto m = LoadCaptureMetadata(FixtureDir(fixture));
    ASSERT_TRUE(m.ok()) << fixture << ": " << m.error().message;
    ASSERT_TRUE(m->has_value()) << fixture;
    EXPECT_FALSE((*m)->hostname.empty()) << fixture;
  }
}

}  // namespace
}  // namespace rocewatch::replay
