// The one flag parser of roce_exporter and roce-lint (rocewatch/flags.h): the same spellings,
// the same errors (naming the flag and the value) and the same --help for both.

#include "rocewatch/flags.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

const std::vector<FlagSpec> kSpecs = {
    {"--format", "", true, "report format", "text|json"},
    {"--output", "-o", true, "write there\ninstead of standard output", "FILE"},
    {"--header", "", true, "repeatable", "H"},
    {"--persist", "", false, "also the unit"},
    {"--help", "-h", false, "show this help and exit"},
};

Result<ParsedFlags> Parse(std::vector<std::string> args) { return ParseFlags(args, kSpecs); }

TEST(Flags, ValueSpellings) {
  auto p = Parse({"--format=json", "plan.json", "--output", "out", "-o", "last", "--header", "a",
                  "--header=b", "--", "--persist"});
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->Value("--format"), "json");
  EXPECT_EQ(p->Value("--output"), "last");  // the last one wins
  EXPECT_EQ(p->All("--header"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p->positional, (std::vector<std::string>{"plan.json", "--persist"}));
  EXPECT_FALSE(p->Has("--persist"));
  EXPECT_FALSE(p->Value("--persist"));
  // A value may start with dashes when it follows its flag; "-" alone is positional.
  auto dashes = Parse({"--output", "--persist", "-"});
  ASSERT_TRUE(dashes.ok());
  EXPECT_EQ(dashes->Value("--output"), "--persist");
  EXPECT_EQ(dashes->positional, (std::vector<std::string>{"-"}));
}

TEST(Flags, SwitchSpellings) {
  for (auto [args, on] : std::vector<std::pair<std::vector<std::string>, bool>>{
           {{"--persist"}, true},
           {{"--persist=true"}, true},
           {{"--persist=false"}, false},
           {{"--persist", "--no-persist"}, false},
           {{"--no-persist", "--persist"}, true}}) {
    auto p = Parse(args);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(p->Has("--persist"), on) << args.back();
    EXPECT_TRUE(p->given.count("--persist"));
  }
  auto h = Parse({"-h"});
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(h->Has("--help"));
}

TEST(Flags, ErrorsNameTheFlagAndTheValue) {
  auto error = [](std::vector<std::string> args) {
    auto p = Parse(args);
    return p.ok() ? std::string("(parsed)") : p.error().message;
  };
  EXPECT_EQ(error({"--formt", "json"}), "unknown flag --formt (did you mean --format?)");
  // --no- only negates a switch.
  EXPECT_EQ(error({"--no-format"}), "unknown flag --no-format (did you mean --format?)");
  EXPECT_EQ(error({"-x"}), "unknown short flag -x (flags are spelled --name)");
  EXPECT_EQ(error({"--output"}), "flag --output needs a value");
  EXPECT_EQ(error({"-o"}), "flag --output needs a value");
  EXPECT_EQ(error({"--persist=maybe"}), "flag --persist: expected true or false, got \"maybe\"");
  EXPECT_EQ(error({"--no-persist=true"}), "flag --no-persist takes no value, got \"true\"");
  // What the user typed reaches the terminal only as text.
  EXPECT_EQ(error({"--\x1b[2Jx"}).find('\x1b'), std::string::npos);
}

TEST(Flags, UsageFromTheTable) {
  EXPECT_EQ(FlagUsage(kSpecs),
            "  --format=text|json                        report format\n"
            "  -o, --output=FILE                         write there\n"
            "                                            instead of standard output\n"
            "  --header=H                                repeatable\n"
            "  --[no-]persist                            also the unit\n"
            "  -h, --[no-]help                           show this help and exit\n");
}

// roce_exporter's view of the same parser: every flag has a default.
TEST(Flags, FlagSetDefaults) {
  FlagSet f("roce_exporter");
  f.AddString("web.listen-address", ":9879", "address to serve metrics on", "HOST:PORT");
  f.AddBool("collector.rdma", true, "enable the rdma collector");
  f.AddBool("version", false, "show the version and exit");
  std::vector<const char*> argv = {"roce_exporter", "--no-collector.rdma", "extra"};
  ASSERT_TRUE(f.Parse(static_cast<int>(argv.size()), argv.data()).ok());
  EXPECT_EQ(f.Get("web.listen-address"), ":9879");
  EXPECT_FALSE(f.WasSet("web.listen-address"));
  EXPECT_FALSE(f.GetBool("collector.rdma"));
  EXPECT_TRUE(f.WasSet("collector.rdma"));
  EXPECT_FALSE(f.GetBool("version"));
  EXPECT_EQ(f.positional(), (std::vector<std::string>{"extra"}));
  EXPECT_EQ(f.Usage(),
            "  --web.listen-address=HOST:PORT            address to serve metrics on (default: :9879)\n"
            "  --[no-]collector.rdma                     enable the rdma collector (default: true)\n"
            "  --[no-]version                            show the version and exit (default: false)\n");
}

}  // namespace
}  // namespace rocewatch
