// The metric contract's writers (exporter/cli/metrics_contract.h): the tables of
// docs/metrics.md and lint's header, on the real spec tables and on hostile documents.

#include "exporter/cli/metrics_contract.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "exporter/collectors/registry.h"

namespace rocewatch::cli {
namespace {

using metrics::MetricSpec;
using metrics::MetricType;

const MetricSpec kA{"roce_a", MetricType::kGauge, "A's help.", {"device", "port"}};
const MetricSpec kB{"roce_b_total", MetricType::kCounter, "B's help.", {}};
const MetricSpec kC{"roce_c", MetricType::kGauge, "C's help.", {"netdev"}, metrics::Served::kOptIn,
                    "--collector.c.all"};

std::vector<ContractFamily> Families() { return {{&kA, "one"}, {&kB, "one"}, {&kC, "exporter"}}; }

std::string ReadDoc() {
  std::ifstream in(std::string(ROCEWATCH_SOURCE_DIR) + "/docs/metrics.md", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(MetricsContract, DocsMetricsMdHasTheTablesTheSpecsWrite) {
  const std::string doc = ReadDoc();
  auto tables = WithContractTables(doc, ContractFamilies());
  ASSERT_TRUE(tables.ok()) << tables.error().message;
  EXPECT_EQ(*tables, doc) << "regenerate: build/exporter/roce_exporter metrics-contract docs docs/metrics.md";
}

TEST(MetricsContract, RowsFollowTheSpecsAndKeepTheirMeaning) {
  const std::string doc =
      "# t\n\nprose\n<!-- metrics-contract: one -->\n| metric | type | labels | meaning |\n"
      "|---|---|---|---|\n| `roce_gone` | gauge | `x` | renamed away |\n"
      "| `roce_a` | counter | `device` | A, in `words` with a \\| pipe. |\n\n"
      "<!-- /metrics-contract -->\nmore prose\n<!-- metrics-contract: exporter -->\n"
      "<!-- /metrics-contract -->\n<!-- metrics-contract: served -->\n"
      "| roce_gone | default | 1.00 | 1.00 |  |\n| roce_a | opt-in | 2.50 | 4.00 | --old |\n\n"
      "<!-- /metrics-contract -->\n";
  auto out = WithContractTables(doc, Families());
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(*out,
            "# t\n\nprose\n<!-- metrics-contract: one -->\n| metric | type | labels | meaning |\n"
            "|---|---|---|---|\n"
            "| `roce_a` | gauge | `device`, `port` | A, in `words` with a \\| pipe. |\n"
            "| `roce_b_total` | counter | | B's help. |\n\n"
            "<!-- /metrics-contract -->\nmore prose\n<!-- metrics-contract: exporter -->\n"
            "| metric | type | labels | meaning |\n|---|---|---|---|\n| `roce_c` | gauge | `netdev` | C's help. |\n\n"
            "<!-- /metrics-contract -->\n<!-- metrics-contract: served -->\n"
            "| family | served | per NIC, default | per NIC, full | full detail with |\n"
            "|---|---|---:|---:|---|\n"
            "| roce_a | default | 2.50 | 4.00 |  |\n"      // the counts kept, the rest the spec's
            "| roce_c | opt-in |  |  | --collector.c.all |\n\n"  // not measured, not default
            "<!-- /metrics-contract -->\n");
  auto again = WithContractTables(*out, Families());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *out);
}

TEST(MetricsContract, BrokenMarkersAreErrorsNamingTheLine) {
  const std::string one = "<!-- metrics-contract: one -->\n<!-- /metrics-contract -->\n";
  const std::string exporter = "<!-- metrics-contract: exporter -->\n<!-- /metrics-contract -->\n";
  struct Case {
    std::string doc, error;
  } cases[] = {
      {exporter, "no table is marked for \"one\""},
      {one + exporter, "no table is marked for \"served\""},
      {one + exporter + one, "line 5: the table of \"one\" is marked twice"},
      {"x\n<!-- metrics-contract: one -->\n| `roce_a` |\n", "line 2: \"one\"'s table has no"},
      {one + "<!-- metrics-contract: two -->\n", "line 3: no collector (nor \"exporter\") is named \"two\""},
      {"<!-- metrics-contract: one -->\n<!-- metrics-contract: exporter -->\n", "line 2: a table starts inside"},
      {"<!-- /metrics-contract -->\n" + one + exporter, "line 1: <!-- /metrics-contract --> without its start"},
  };
  for (const auto& c : cases) {
    auto out = WithContractTables(c.doc, Families());
    ASSERT_FALSE(out.ok()) << c.doc;
    EXPECT_NE(out.error().message.find(c.error), std::string::npos) << out.error().message;
  }
  EXPECT_FALSE(WithContractTables("", Families()).ok());  // nothing marked
}

TEST(MetricsContract, HeaderNamesEveryFamilyAndLabel) {
  auto h = ContractHeader(Families());
  ASSERT_TRUE(h.ok()) << h.error().message;
  for (const char* line : {"inline constexpr std::string_view roce_b_total = \"roce_b_total\";",
                           "inline constexpr std::string_view device = \"device\";",
                           "inline constexpr std::array<std::string_view, 2> roce_a = {label::device, label::port};",
                           "inline constexpr std::array<std::string_view, 0> roce_b_total = {};",
                           "{metric::roce_c, \"gauge\", \"exporter\", labels_of::roce_c, \"opt-in\"},",
                           "inline constexpr std::size_t kMostLabels = 2;",
                           "inline constexpr std::array<std::string_view, 1> kCollectors = {\"one\"};"})
    EXPECT_NE(h->find(line), std::string::npos) << line << "\n" << *h;
  EXPECT_TRUE(ContractHeader(ContractFamilies()).ok());
}

// contract::kCollectors, the list roce-lint's tests take the exporter's collectors from, is
// every collector of collectors/all.h in its order.
TEST(MetricsContract, HeaderListsEveryCollectorInRunOrder) {
  auto h = ContractHeader(ContractFamilies());
  ASSERT_TRUE(h.ok()) << h.error().message;
  std::string list;
  for (const auto& info : collectors::AllCollectors())
    list += std::string(list.empty() ? "" : ", ") + "\"" + std::string(info.name) + "\"";
  const std::string line = "inline constexpr std::array<std::string_view, " +
                           std::to_string(collectors::AllCollectors().size()) + "> kCollectors = {" +
                           list + "};";
  EXPECT_NE(h->find(line), std::string::npos) << line << "\n" << *h;
}

TEST(MetricsContract, HeaderRefusesWhatCannotBeAConstant) {
  const MetricSpec dash{"roce-a", MetricType::kGauge, "h", {}};
  const MetricSpec bad_label{"roce_d", MetricType::kGauge, "h", {"a\"b"}};
  auto twice = ContractHeader({{&kA, "one"}, {&kA, "two"}});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "metric roce_a is declared twice (collector two)");
  auto name = ContractHeader({{&dash, "one"}});
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.error().message, "metric name is not an identifier: \"roce-a\"");
  auto label = ContractHeader({{&bad_label, "one"}});
  ASSERT_FALSE(label.ok());
  EXPECT_EQ(label.error().message, "metric roce_d: label is not an identifier: \"a\"b\"");
}

}  // namespace
}  // namespace rocewatch::cli
