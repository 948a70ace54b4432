#include "exporter/cli/exporter_flags.h"

#include <gtest/gtest.h>

#include "common/test_dir.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::cli {
namespace {

using rocewatch::testing::TestDir;

// Every registered collector's name, in registry order, but `without`.
std::vector<std::string> Collectors(std::string_view without = {}) {
  std::vector<std::string> names;
  for (const auto& s : collectors::AllCollectors())
    if (s.enabled_by_default && s.name != without) names.emplace_back(s.name);
  return names;
}

Result<ExporterSettings> Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "roce_exporter");
  FlagSet flags = MakeExporterFlags();
  Status s = flags.Parse(static_cast<int>(args.size()), args.data());
  if (!s.ok()) return s.error();
  return SettingsFromFlags(flags);
}

TEST(ExporterFlags, DefaultsEnableEveryCollector) {
  TestDir dir;
  dir.Write("sys/class/net/.keep", "");
  std::string sysfs = "--path.sysfs=" + (dir / "sys");
  auto s = Parse({sysfs.c_str()});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->collector.enabled_collectors, Collectors());
  EXPECT_GE(s->collector.enabled_collectors.size(), 11u);
  EXPECT_EQ(s->collector.collector_options["rdma"]["gid-interval"], "30s");
  EXPECT_EQ(s->server.listen.port, 9879);
  EXPECT_EQ(s->server.telemetry_path, "/metrics");
}

TEST(ExporterFlags, NoCollectorDisablesAndOptionsAreKept) {
  TestDir dir;
  dir.Write("sys/class/net/.keep", "");
  std::string sysfs = "--path.sysfs=" + (dir / "sys");
  auto s = Parse({sysfs.c_str(), "--no-collector.ecn", "--collector.rdma.gid-interval", "5m",
                  "--device-include=^mlx5_[01]$"});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->collector.enabled_collectors, Collectors("ecn"));
  EXPECT_EQ(s->collector.collector_options["rdma"]["gid-interval"], "5m");
  EXPECT_TRUE(s->collector.discover.devices.Accepts("mlx5_1"));
  EXPECT_FALSE(s->collector.discover.devices.Accepts("mlx5_2"));
}

// Each registered collector brings its --no-collector.<name> flag and its options with their
// defaults (the registration line is all a new collector adds).
TEST(ExporterFlags, EveryRegisteredCollectorHasItsFlagAndOptions) {
  TestDir dir;
  dir.Write("sys/class/net/.keep", "");
  std::string sysfs = "--path.sysfs=" + (dir / "sys");
  for (const auto& info : collectors::AllCollectors()) {
    std::string name(info.name);
    std::string off = "--no-collector." + name;
    auto s = Parse({sysfs.c_str(), off.c_str()});
    ASSERT_TRUE(s.ok()) << name << ": " << s.error().message;
    EXPECT_EQ(s->collector.enabled_collectors, Collectors(name)) << name;
    auto on = Parse({sysfs.c_str()});
    ASSERT_TRUE(on.ok()) << name;
    for (const auto& option : info.options)
      EXPECT_EQ(on->collector.collector_options[name][std::string(option.name)],
                std::string(option.default_value))
          << name << "." << option.name;
  }
}

TEST(ExporterFlags, ClearErrors) {
  auto unknown = Parse({"--web.listen-adress=:9100"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "unknown flag --web.listen-adress (did you mean --web.listen-address?)");

  auto missing = Parse({"--path.sysfs=/nonexistent/sys"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "--path.sysfs=/nonexistent/sys: No such file or directory");

  TestDir dir;
  dir.Write("sys/class/net/.keep", "");
  std::string sysfs = "--path.sysfs=" + (dir / "sys");
  auto regex = Parse({sysfs.c_str(), "--device-include=mlx5_[0"});
  ASSERT_FALSE(regex.ok());
  EXPECT_EQ(regex.error().message.rfind("--device-include=mlx5_[0: invalid regular expression", 0),
            0u);

  auto notsys = Parse({("--path.sysfs=" + dir.path()).c_str()});
  ASSERT_FALSE(notsys.ok());
  EXPECT_EQ(notsys.error().message,
            "--path.sysfs=" + dir.path() + ": does not look like sysfs (no class/ inside)");

  auto interval = Parse({sysfs.c_str(), "--collector.rdma.gid-interval=soon"});
  ASSERT_TRUE(interval.ok());  // option values are checked when the source is built
  auto bool_value = Parse({sysfs.c_str(), "--collector.rdma=maybe"});
  ASSERT_FALSE(bool_value.ok());
  EXPECT_EQ(bool_value.error().message, "flag --collector.rdma: expected true or false, got \"maybe\"");
}

}  // namespace
}  // namespace rocewatch::cli
