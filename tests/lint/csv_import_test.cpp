// ImportCsvPlan: a spreadsheet export (one row per NIC) plus a profiles file into a plan that
// loads and validates clean; errors name the row and the column.

#include "lint/plan/csv_import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "plan_test_util.h"

namespace rocewatch::lint::plan {
namespace {

using lint::testing::AllFindings;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

constexpr std::string_view kProfiles =
    R"({"cluster": "c", "profiles": {"roce": {"pfc_priorities": [3]}}})";
constexpr std::string_view kHeader = "node,management_ip,ib_dev,netdev,profile,roce_ip\n";

CsvImport Import(std::string_view csv, std::string_view profiles = kProfiles,
                 std::string cluster = "") {
  return ImportCsvPlan({csv, "nics.csv", profiles, "profiles.json", std::move(cluster)});
}

std::vector<std::string> Messages(const CsvImport& r) {
  std::vector<std::string> out;
  for (const auto& e : r.errors) out.push_back(e.message);
  return out;
}

TEST(CsvImport, SpreadsheetExportRoundTripsIntoACleanPlan) {
  const std::string csv = Slurp(ROCEWATCH_TEST_DATA "/lint/data/nics.csv");
  const std::string profiles = Slurp(ROCEWATCH_TEST_DATA "/lint/data/profiles.json");
  ASSERT_EQ(csv.substr(0, 3), "\xEF\xBB\xBF");
  ASSERT_NE(csv.find("\r\n"), std::string::npos);
  CsvImport r = ImportCsvPlan({csv, "nics.csv", profiles, "profiles.json", ""});
  ASSERT_TRUE(r.ok()) << r.errors.front().message;

  const auto& plan = r.plan;
  EXPECT_EQ(plan["cluster"], "gpu-cluster-a");
  ASSERT_EQ(plan["nodes"].size(), 2u);
  // Rows of one node are merged, in the order the nodes first appear.
  const auto& n1 = plan["nodes"][0];
  EXPECT_EQ(n1["name"], "gpu-01");
  EXPECT_EQ(n1["management_ip"], "10.0.0.11");
  EXPECT_EQ(n1["labels"]["rack"], "r1");
  ASSERT_EQ(n1["nics"].size(), 2u);
  EXPECT_EQ(n1["nics"][1]["ib_dev"], "mlx5_1");
  EXPECT_EQ(n1["nics"][1]["roce_ip"], "10.1.1.11/24");
  EXPECT_EQ(n1["nics"][1]["rail"], 1);
  EXPECT_EQ(n1["nics"][1]["switch_port"], "leaf-1:Ethernet1/1");
  EXPECT_FALSE(n1.contains("exporter"));
  // Keys come out in the documented order.
  std::vector<std::string> keys;
  for (const auto& [k, v] : plan.items()) keys.push_back(k);
  EXPECT_THAT(keys, ElementsAre("cluster", "profiles", "nodes"));

  const std::string text = plan.dump(2);
  EXPECT_THAT(AllFindings(text, "imported.json"), IsEmpty());
}

TEST(CsvImport, ClusterFlagOverridesTheProfilesFile) {
  CsvImport r =
      Import(std::string(kHeader) + "a,10.0.0.1,mlx5_0,e0,roce,10.1.0.1/24\n", kProfiles, "prod");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.plan["cluster"], "prod");
}

TEST(CsvImport, UnknownColumnWithDidYouMean) {
  CsvImport r = Import("node,managment_ip,ib_dev,netdev,profile,roce_ip,colour\n");
  EXPECT_THAT(Messages(r),
              ElementsAre("nics.csv row 1, column B: unknown column \"managment_ip\"; did you mean "
                          "\"management_ip\"?",
                          "nics.csv row 1, column G: unknown column \"colour\" (known columns: "
                          "node, management_ip, exporter, ib_dev, netdev, profile, roce_ip, rail, "
                          "switch_port, label.<key>)",
                          "nics.csv: the header row has no \"management_ip\" column"));
}

TEST(CsvImport, DuplicateColumn) {
  CsvImport r = Import("node,management_ip,ib_dev,netdev,profile,roce_ip,Node\n");
  EXPECT_THAT(Messages(r), ElementsAre("nics.csv row 1, column G (node): column \"node\" appears "
                                       "twice (also column A)"));
}

TEST(CsvImport, RowErrorsNameRowAndColumn) {
  CsvImport r = Import(std::string("node,management_ip,ib_dev,netdev,profile,roce_ip,rail\n") +
                       "a,10.0.0.1,mlx5_0,e0,roce,10.1.0.1/24,x\n"
                       "a,10.0.0.1,mlx5_1,e1,roce,10.1.0.2/24,1\n"
                       "a,10.0.0.2,mlx5_2,e2,roce,10.1.0.3/24,2\n"
                       "a,10.0.0.1,mlx5_3,,roce,10.1.0.4/24,3\n"
                       "b,10.0.0.9,mlx5_0,e0,roce,10.1.0.5/24,0,extra\n");
  EXPECT_THAT(Messages(r),
              ElementsAre("nics.csv row 2, column G (rail): \"x\" is not a rail number (a whole "
                          "number)",
                          "nics.csv row 4, column B (management_ip): node \"a\" has \"10.0.0.1\" "
                          "on row 3 but \"10.0.0.2\" here",
                          "nics.csv row 5, column D (netdev): empty; every NIC row needs netdev",
                          "nics.csv row 6, column H: cell \"extra\" is beyond the 7 columns the "
                          "header names"));
  EXPECT_TRUE(r.plan.is_null());
}

TEST(CsvImport, ManagementIpMayBeGivenOnAnyRowOfTheNode) {
  CsvImport r = Import(std::string(kHeader) +
                       "a,,mlx5_0,e0,roce,10.1.0.1/24\n"
                       "a,10.0.0.1,mlx5_1,e1,roce,10.1.0.2/24\n"
                       "b,,mlx5_0,e0,roce,10.1.0.3/24\n");
  EXPECT_THAT(Messages(r), ElementsAre("nics.csv: node \"b\" (row 4) has no management_ip on any "
                                       "of its rows"));
}

TEST(CsvImport, HeaderNamesAreNormalized) {
  CsvImport r = Import(
      "NODE, Management IP ,IB-Dev,netdev,profile,RoCE_IP,Switch Port,Label.Row\n"
      "a,10.0.0.1,mlx5_0,e0,roce,10.1.0.1/24,sw1:1,7\n");
  ASSERT_TRUE(r.ok()) << r.errors.front().message;
  EXPECT_EQ(r.plan["nodes"][0]["nics"][0]["switch_port"], "sw1:1");
  EXPECT_EQ(r.plan["nodes"][0]["labels"]["Row"], "7");
}

TEST(CsvImport, ProfilesFileProblems) {
  EXPECT_THAT(Messages(Import(kHeader, "{\"cluster\": \"c\",\n \"profiles\": }")),
              ElementsAre("profiles.json:2:14: invalid JSON: syntax error while parsing value - "
                          "unexpected '}'; expected '[', '{', or a literal"));
  EXPECT_THAT(Messages(Import(std::string(kHeader) + "a,10.0.0.1,m,e,roce,10.1.0.1/24\n",
                              R"({"profiles": {}, "nodes": [], "profils": 1})")),
              ElementsAre("profiles.json: \"nodes\" come from the CSV; remove them from the "
                          "profiles file",
                          "profiles.json: unknown key \"profils\"; did you mean \"profiles\"?",
                          "no cluster name: give --cluster NAME or a \"cluster\" key in "
                          "profiles.json"));
}

TEST(CsvImport, EmptyCsv) {
  EXPECT_THAT(Messages(Import("")),
              ElementsAre("nics.csv is empty; its first row must name the columns (node, "
                          "management_ip, ib_dev, netdev, profile, roce_ip, …)"));
}

TEST(CsvImport, CsvSyntaxErrorStopsTheImport) {
  EXPECT_THAT(Messages(Import(std::string(kHeader) + "a,\"10.0.0.1,m,e,roce,10.1.0.1/24\n")),
              ElementsAre("nics.csv row 2, column B: quoted field opened on line 2 is never "
                          "closed"));
}

TEST(CsvImport, ImportedPlanFindingsPointIntoTheGeneratedJson) {
  CsvImport r = Import(std::string(kHeader) +
                       "a,10.0.0.1,mlx5_0,e0,roce,10.1.0.1/24\n"
                       "b,10.0.0.2,mlx5_0,e0,roce,10.1.0.1/24\n");
  ASSERT_TRUE(r.ok());
  auto findings = AllFindings(r.plan.dump(2), "plan.json");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "plan.duplicate-roce-ip");
  EXPECT_EQ(findings[0].location, "plan.json:31:22 /nodes/1/nics/0/roce_ip");
}

}  // namespace
}  // namespace rocewatch::lint::plan
