// `--lang zh` of roce-lint plan, apply and the HTML report's header: every error the plan loader
// writes (hostile and broken plans: wrong types, ranges, enums, unknown and missing keys,
// duplicate keys, addresses the parser refuses, names outside their character set), every line
// apply writes for a node (stand-in scripts run by the local transport: changed, precheck
// failed, script failed, silent failures, another plan's backup, timeout, no script, rollback
// with and without a backup) and the header lines of the HTML report carry no English sentence
// outside values, identifiers and commands (english_runs.h); and the English stays as it was.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/test_dir.h"
#include "english_runs.h"
#include "lint/cli/commands.h"
#include "lint/fix/batch.h"
#include "lint/fix/script.h"
#include "lint/i18n/catalogue.h"
#include "lint/plan/load.h"
#include "lint/report/node_report.h"

namespace rocewatch::lint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using i18n::Language;
using rocewatch::testing::EnglishRuns;

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

struct Output {
  int code = 0;
  std::string out, err;
};

Output RunCommand(int (*command)(const std::vector<std::string>&, cli::CommandIo),
           std::vector<std::string> args) {
  std::ostringstream out, err;
  Output o;
  o.code = command(args, {out, err});
  o.out = out.str();
  o.err = err.str();
  return o;
}

// A plan that breaks every rule of the loader, the address parser and the names at least once.
// Values in it ("10.0.0.256", "gpu_07") are the plan's, the same in every language.
constexpr const char* kBrokenPlan = R"({
  "$schema": 5,
  "cluster": "lab",
  "clsuter": "typo",
  "zzz": 1,
  "defaults": {"exporter_port": 70000, "exporter_prot": 1},
  "profiles": {
    "": {},
    "p": {
      "link_speed_gbps": "400",
      "netdev_mtu": 9000.5,
      "roce_mode": "v1",
      "trust": "l2",
      "pfc_priorities": "3",
      "roce_dscp": true,
      "roce_priority": null,
      "cnp_dscp": {},
      "cnp_priority": [],
      "ecn": {"np_priorities": [3, "x"], "rp": 1},
      "dcqcn": {"np": {"cnp_dscp": -1, "bogus": 1}, "rp": [], "xx": 1},
      "firmware": [],
      "driver": "",
      "driver_version": [""],
      "optional_counters": ["Bad-Name"],
      "pcie": {"speed_gts": "32", "widht": 16},
      "optics": {"rx_power_dbm_min": "x", "zz": 1},
      "fec": {"mode": "fast", "max_pre_fec_ber": "2e-4", "abc": 1},
      "verify": {"queue_pairs": 1.5, "qq": 1},
      "zzzz": 1
    },
    "q": [],
    "r": {"firmware": 7, "driver": "mlx5\u0001", "optional_counters": 3}
  },
  "nodes": [
    {"name": "gpu_07", "management_ip": "10.0.0.256", "exporter": "gpu-01", "labels": [],
     "nics": [{"ib_dev": "mlx5/0", "netdev": "eth0:1", "profile": "p", "roce_ip": "10.1.0.11",
               "rail": -1, "switch_port": "a\u0007", "ib-dev": 1}]},
    {"name": "-bad.", "management_ip": "10.0.0.1/24", "exporter": "gpu-01:http", "labels": {"k": 1, "\u0001": "v"},
     "nics": [{"ib_dev": "..", "netdev": "sixteen-chars-xx", "profile": "p", "roce_ip": "10.1.0.11/33"},
              {"ib_dev": "mlx 5", "netdev": "e 0", "profile": "p", "roce_ip": "10.1.0.11/24/1"},
              {"ib_dev": "", "netdev": "", "profile": "p", "roce_ip": "fd00::1/129"},
              {"ib_dev": "mlx5_3"}, "nic"]},
    {"name": "a..b", "management_ip": "fe80::1%eth0", "exporter": "fd00::11:9879", "nics": "none"},
    {"name": "x_y", "management_ip": "fd00::g", "exporter": "[10.0.0.1]:9879", "nics": []},
    {"name": "ok-1", "management_ip": "1111111111111111111111111111111111111111111111111111",
     "exporter": "a_b:9879", "nics": []},
    {"name": "ok-2", "management_ip": "10.0.0.2", "exporter": "[fd00::1]9879", "nics": []},
    {"name": "ok-3", "management_ip": "10.0.0.3", "exporter": "host:65536", "nics": []},
    {"name": "ok-4", "management_ip": "10.0.0.4", "exporter": "[fd00::1]:0", "nics": [],
     "name": "ok-4"},
    {"name": "-x", "management_ip": "10.0.0.5", "nics": [], "exporter": "x-.y:1"},
    {"name": "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd.b",
     "management_ip": "10.0.0.6", "nics": []},
    {"management_ip": "10.0.0.7"},
    {"name": 7, "nics": {}},
    [],
    {"name": "", "management_ip": "", "nics": []}
  ]
})";

// The checks the plan above must reach: if the loader stops reporting one, this test says so.
const std::vector<std::string> kLoaderChecks = {"plan.schema.type", "plan.schema.enum",
                                                "plan.schema.unknown-key", "plan.schema.missing-key",
                                                "plan.schema.duplicate-key", "plan.invalid-ip",
                                                "plan.invalid-exporter", "plan.invalid-name"};

class ChinesePlan : public ::testing::Test {
 protected:
  void SetUp() override { Write(plan_, kBrokenPlan); }

  Output Plan(const std::string& lang) { return RunCommand(cli::RunPlanCommand, {plan_.string(), "--lang", lang}); }

  rocewatch::testing::TestDir tmp_;
  fs::path plan_ = fs::path(tmp_.path()) / "plan.json";
};

TEST_F(ChinesePlan, EveryLoaderErrorIsChinese) {
  Output zh = Plan("zh");
  ASSERT_EQ(zh.code, 1) << zh.err;
  for (const auto& check : kLoaderChecks) EXPECT_THAT(zh.out, HasSubstr("[" + check + "]")) << check;
  // The plan's own values (quoted by the messages or not) and its path stay as written.
  std::string text = zh.out;
  for (const std::string& value : {plan_.string()})
    for (auto at = text.find(value); at != std::string::npos; at = text.find(value, at)) text.replace(at, value.size(), " ");
  EXPECT_THAT(EnglishRuns(text), ElementsAre()) << zh.out;

  // Each kind of sentence, in the words an operator reads.
  EXPECT_THAT(zh.out, HasSubstr("错误: 规划 中有未知的键 \"clsuter\"；是否应为 \"cluster\"？ [plan.schema.unknown-key]"));
  EXPECT_THAT(zh.out, HasSubstr("错误: exporter_port 应为 1 到 65535 之间的整数，实际为数值 70000 [plan.schema.type]"));
  EXPECT_THAT(zh.out, HasSubstr("错误: link_speed_gbps 应为整数，实际为字符串 \"400\" [plan.schema.type]"));
  EXPECT_THAT(zh.out, HasSubstr("错误: trust 应为 \"dscp\", \"pcp\" 之一，实际为字符串 \"l2\" [plan.schema.enum]"));
  EXPECT_THAT(zh.out, HasSubstr("错误: 配置模板 \"p\" 的 ecn 中有未知的键 \"rp\" [plan.schema.unknown-key]"));
  EXPECT_THAT(zh.out, HasSubstr("错误: DCQCN np 参数（mlx5 参数名） 中有未知的键 \"bogus\""));
  EXPECT_THAT(zh.out, HasSubstr("错误: 节点 \"-bad.\" 的 nics[3] 缺少必需的键 \"netdev\" [plan.schema.missing-key]"));
  EXPECT_THAT(zh.out, HasSubstr("错误: 键 \"name\" 在同一个对象中出现了两次（第一次在 "));
  EXPECT_THAT(zh.out, HasSubstr("错误: 节点 \"gpu_07\" 的 management_ip：\"10.0.0.256\" 不是有效的 IPv4 地址（四个 0-255 "
                                "的十进制数，不带前导零） [plan.invalid-ip]"));
  EXPECT_THAT(zh.out, HasSubstr("错误: 节点 \"gpu_07\" 的 exporter：\"gpu-01\" 没有端口；请写成 host:port [plan.invalid-exporter]"));
  EXPECT_THAT(zh.out, HasSubstr("错误: nodes[0] 的节点名 \"gpu_07\" 无效：含有 \"_\"（只允许字母、数字、'-' 和 '.'） [plan.invalid-name]"));
  EXPECT_THAT(zh.out, HasSubstr("（14 个节点，6 块网卡，3 个配置模板）\n"));  // the summary, already Chinese: the run got there

  // English as it was.
  Output en = Plan("en");
  EXPECT_THAT(en.out, HasSubstr("error: unknown key \"clsuter\" in the plan; did you mean \"cluster\"? [plan.schema.unknown-key]"));
  EXPECT_THAT(en.out, HasSubstr("error: exporter_port must be an integer from 1 to 65535, found number 70000 [plan.schema.type]"));
  EXPECT_THAT(en.out, HasSubstr("error: management_ip of node \"gpu_07\": \"10.0.0.256\" is not a valid IPv4 address (four "
                                "decimal numbers 0-255, no leading zeros) [plan.invalid-ip]"));
  EXPECT_THAT(en.out, HasSubstr("error: node name of nodes[0] \"gpu_07\" is not valid: it contains \"_\" (only letters, "
                                "digits, '-' and '.') [plan.invalid-name]"));
  EXPECT_FALSE(EnglishRuns(en.out).empty());  // the detector sees English
}

// Every finding of the broken plan, with its expected, found and fix: the JSON keeps English, but
// a report that shows them (the HTML and text reports of check) renders them from the catalogue.
TEST_F(ChinesePlan, ExpectedFoundAndFixAreChinese) {
  auto loaded = plan::LoadPlan(plan_.string());
  ASSERT_TRUE(loaded.ok());
  std::size_t rendered = 0;
  for (const Finding& f : loaded->findings) {
    for (const auto& [field, english] : {std::pair{&f.message_text, &f.message}, {&f.expected_text, &f.expected},
                                         {&f.found_text, &f.found}, {&f.fix_text, &f.fix}}) {
      const std::string zh = i18n::RenderOr(Language::kChinese, *field, *english);
      EXPECT_THAT(EnglishRuns(zh), ElementsAre()) << f.check << " " << f.location << ": " << zh;
      EXPECT_EQ(i18n::RenderOr(Language::kEnglish, *field, ""), field->id.empty() ? "" : *english);
      rendered += field->id.empty() ? 0 : 1;
    }
  }
  EXPECT_GT(rendered, 150u);
}

// The node-check view of `apply`: stand-in scripts, one per outcome, fed to `sh -s --` here by
// the local transport as they would be over ssh.
class ChineseApply : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string nodes;
    int n = 0;  // node n at 127.0.0.n
    auto node = [&](const std::string& name, const std::string& script) {
      nodes += std::string(nodes.empty() ? "" : ",\n") + R"({"name": ")" + name +
               R"(", "management_ip": "127.0.0.)" + std::to_string(++n) + R"(", "nics": []})";
      if (!script.empty()) Write(dir_ / "scripts" / name / fix::kScriptFileName, script);
    };
    const std::string precheck_ok = "case \"$1\" in --precheck) echo 'precheck passed'; exit 0;; esac\n";
    node("n-changed", precheck_ok +
                          "case \"$1\" in --rollback) echo 'rocewatch: node=n mode=rollback restored=2 "
                          "unchanged=0 failed=0'; exit 0;; esac\n"
                          "echo 'rocewatch: node=n mode=apply changed=2 unchanged=1 failed=0'\n");
    node("n-precheck", "echo 'precheck: mlx5_9 not in /sys/class/infiniband; present: mlx5_0'; exit 3\n");
    node("n-silent-precheck", "exit 3\n");
    node("n-failed", precheck_ok + "echo 'e1: pfc 3 -> FAILED: cannot read it'; exit 1\n");
    node("n-silent", precheck_ok + "exit 5\n");
    node("n-backup", precheck_ok +
                         "echo 'backup: /var/lib/rocewatch/roce-config.state holds plan 1234abcd; "
                         "roll it back first'; exit 4\n");
    node("n-noscript", "");
    node("n-nobackup", precheck_ok +
                           "case \"$1\" in --rollback) echo 'rocewatch: node=n mode=rollback restored=0 "
                           "unchanged=0 failed=0 backup=none'; exit 0;; esac\n");
    node("n-slow", "sleep 20\n");
    Write(dir_ / "plan.json", R"({"cluster": "c", "profiles": {}, "nodes": [)" + nodes + "]}");
  }

  Output Apply(std::vector<std::string> flags) {
    std::vector<std::string> args = {(dir_ / "plan.json").string(), "--scripts", (dir_ / "scripts").string(),
                                     "--transport", "local", "--timeout", "2s"};
    args.insert(args.end(), flags.begin(), flags.end());
    return RunCommand(cli::RunApplyCommand, args);
  }

  // What the nodes printed, as they printed it: not this table's words.
  static std::string WithoutNodeText(std::string text) {
    for (const std::string& value :
         {std::string("mlx5_9 not in /sys/class/infiniband; present: mlx5_0"),
          std::string("e1: pfc 3 -> FAILED: cannot read it"),
          std::string("backup: /var/lib/rocewatch/roce-config.state holds plan 1234abcd; roll it back first")})
      for (auto at = text.find(value); at != std::string::npos; at = text.find(value, at))
        text.replace(at, value.size(), " ");
    return text;
  }

  rocewatch::testing::TestDir tmp_;
  fs::path dir_ = fs::path(tmp_.path());
};

TEST_F(ChineseApply, EveryNodeLineIsChinese) {
  Output zh = Apply({"--lang", "zh"});
  EXPECT_EQ(zh.code, 1) << zh.out << zh.err;
  const std::string all = zh.out + zh.err;
  EXPECT_THAT(EnglishRuns(WithoutNodeText(all)), ElementsAre()) << all;
  EXPECT_THAT(zh.out, HasSubstr("n-changed          127.0.0.1  已修改 2 项设置\n"));
  EXPECT_THAT(zh.out, HasSubstr("n-precheck         127.0.0.2  已跳过：预检：mlx5_9 not in /sys/class/infiniband; "
                                "present: mlx5_0\n"));
  EXPECT_THAT(zh.out, HasSubstr("n-silent-precheck  127.0.0.3  已跳过：预检：没有输出\n"));
  EXPECT_THAT(zh.out, HasSubstr("n-failed           127.0.0.4  失败：脚本退出码 1：e1: pfc 3 -> FAILED: cannot read it\n"));
  EXPECT_THAT(zh.out, HasSubstr("n-silent           127.0.0.5  失败：脚本退出码 5：没有输出\n"));
  EXPECT_THAT(zh.out, HasSubstr("n-backup           127.0.0.6  失败：脚本退出码 4：backup: /var/lib/rocewatch/"));
  EXPECT_THAT(zh.out, HasSubstr("n-noscript         127.0.0.7  没有脚本（缺少 "));
  EXPECT_THAT(zh.out, HasSubstr("n-slow             127.0.0.9  失败：预检超时（超过 2s）\n"));
  EXPECT_THAT(zh.err, HasSubstr("] n-silent: 失败：脚本退出码 5：没有输出\n"));

  // The same run in English is as it was.
  Output en = Apply({});
  EXPECT_THAT(en.out, HasSubstr("n-silent-precheck  127.0.0.3  skipped: precheck: no output\n"));
  EXPECT_THAT(en.out, HasSubstr("n-silent           127.0.0.5  failed: script exit 5: no output\n"));
  EXPECT_THAT(en.out, HasSubstr("n-slow             127.0.0.9  failed: precheck timed out after 2s\n"));
  EXPECT_THAT(en.out, HasSubstr("n-noscript         127.0.0.7  no script (no " + (dir_ / "scripts/n-noscript/").string()));
  EXPECT_FALSE(EnglishRuns(WithoutNodeText(en.out)).empty());
}

TEST_F(ChineseApply, RollbackLinesAreChinese) {
  Output zh = Apply({"--rollback", "--lang", "zh", "--node", "n-nobackup"});
  EXPECT_EQ(zh.code, 0) << zh.err;
  EXPECT_THAT(zh.out, HasSubstr("n-nobackup  127.0.0.8  没有备份\n1 个节点：1 个没有备份，"));
  zh = Apply({"--rollback", "--lang", "zh", "--node", "n-changed"});
  EXPECT_THAT(zh.out, HasSubstr("n-changed  127.0.0.1  已回滚 2 项设置\n"));
  EXPECT_THAT(EnglishRuns(zh.out + zh.err), ElementsAre()) << zh.out << zh.err;
}

// A plan with errors is refused before any node is touched, in the operator's language.
TEST_F(ChineseApply, ARefusedPlanIsChinese) {
  Write(dir_ / "plan.json", R"({"cluster": "c", "profiles": {}, "nodes": [
    {"name": "gpu_1", "management_ip": "10.0.0.300", "nics": []}]})");
  Output zh = Apply({"--lang", "zh"});
  EXPECT_EQ(zh.code, 2);
  EXPECT_THAT(zh.err, HasSubstr("roce-lint apply: 规划有错误，请先修正（roce-lint plan "));
  EXPECT_THAT(zh.err, HasSubstr("/nodes/0/management_ip: 节点 \"gpu_1\" 的 management_ip：\"10.0.0.300\" 不是有效的 IPv4 地址"));
  EXPECT_THAT(EnglishRuns(zh.err), ElementsAre()) << zh.err;
  Output en = Apply({});
  EXPECT_THAT(en.err, HasSubstr("roce-lint apply: the plan has errors; fix them first (roce-lint plan "));
}

// The HTML report's header lines, with every note a run can add and no finding (the findings'
// own sentences are the checks').
TEST(ChineseHtmlHeader, EveryHeaderLineIsChinese) {
  auto loaded = plan::LoadPlanText(R"({"cluster": "c", "profiles": {"p": {}}, "nodes": [
    {"name": "gpu-01", "management_ip": "10.0.0.1", "nics": [
      {"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "p", "roce_ip": "10.1.0.1/24"}]}]})",
                                   "plan.json");
  ASSERT_TRUE(loaded.ok());
  for (bool counters : {false, true}) {
    report::CheckRun run;
    run.plan = &loaded->plan;
    run.input_id = "report.input.counters_since";
    run.input_args = {{"dir", "/var/lib/metrics"}, {"previous", "/var/lib/metrics.prev"}};
    run.input = *i18n::RenderStored(Language::kEnglish, run.input_id, run.input_args);
    run.counters_checked = counters;
    run.counters_unobserved = {"gpu-01"};
    run.switch_side_unchecked = {"gpu-01 ens1f0np0"};
    run.switch_counters_unchecked = {"gpu-01 ens1f0np0"};
    run.switch_counters_read = counters;
    std::ostringstream zh;
    report::WriteHtmlReport(zh, run, Language::kChinese);
    const std::string page = zh.str();
    std::string body = page.substr(page.find("<body>"));
    body = body.substr(0, body.find("<script>"));
    std::string text;  // the page's text: markup is code
    bool tag = false;
    for (char c : body) {
      if (c == '<') tag = true;
      if (!tag) text += c;
      if (c == '>') tag = false, text += ' ';
    }
    EXPECT_THAT(EnglishRuns(text), ElementsAre()) << text;
    EXPECT_THAT(page, HasSubstr("指标来源：/var/lib/metrics（计数器增量自 /var/lib/metrics.prev 起）<br>"));
    std::ostringstream en;
    report::WriteHtmlReport(en, run, Language::kEnglish);
    EXPECT_THAT(en.str(), HasSubstr("Metrics: /var/lib/metrics (counters since /var/lib/metrics.prev)<br>"));
  }
}

}  // namespace
}  // namespace rocewatch::lint::testing
