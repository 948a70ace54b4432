// lint/plan/plan.schema.json describes exactly what the loader accepts: the same keys, the same
// required keys, and the same verdict on a corpus of valid and invalid plans (the corpus is also
// run through python3-jsonschema by the lint_plan_schema_corpus test).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lint/plan/load.h"

namespace rocewatch::lint::plan {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

json Schema() {
  std::ifstream f(ROCEWATCH_SOURCE_DIR "/lint/plan/plan.schema.json");
  return json::parse(f);
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> PropertyNames(const json& object_schema) {
  std::vector<std::string> out;
  for (const auto& [key, value] : object_schema.at("properties").items()) out.push_back(key);
  return Sorted(out);
}

std::vector<std::string> Required(const json& object_schema) {
  if (!object_schema.contains("required")) return {};
  return Sorted(object_schema.at("required").get<std::vector<std::string>>());
}

TEST(PlanSchema, IsDraft202012AndClosed) {
  json s = Schema();
  EXPECT_EQ(s.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
  EXPECT_EQ(s.at("additionalProperties"), false);
  for (const char* def : {"profile", "node", "nic"}) {
    EXPECT_EQ(s.at("$defs").at(def).at("additionalProperties"), false) << def;
  }
}

TEST(PlanSchema, ObjectsHaveTheLoadersKeys) {
  json s = Schema();
  const json& profile = s.at("$defs").at("profile");
  const json& pp = profile.at("properties");
  struct Case {
    PlanObject object;
    const json& schema;
  } cases[] = {
      {PlanObject::kPlan, s},
      {PlanObject::kDefaults, s.at("properties").at("defaults")},
      {PlanObject::kProfile, profile},
      {PlanObject::kEcn, pp.at("ecn")},
      {PlanObject::kDcqcn, pp.at("dcqcn")},
      {PlanObject::kPcie, pp.at("pcie")},
      {PlanObject::kOptics, pp.at("optics")},
      {PlanObject::kFec, pp.at("fec")},
      {PlanObject::kNode, s.at("$defs").at("node")},
      {PlanObject::kNic, s.at("$defs").at("nic")},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(PropertyNames(c.schema), Sorted(AllowedKeys(c.object)))
        << "object " << static_cast<int>(c.object);
    EXPECT_EQ(Required(c.schema), Sorted(RequiredKeys(c.object)))
        << "object " << static_cast<int>(c.object);
  }
  EXPECT_EQ(PropertyNames(pp.at("dcqcn").at("properties").at("np")), Sorted(DcqcnNpParameters()));
  EXPECT_EQ(PropertyNames(pp.at("dcqcn").at("properties").at("rp")), Sorted(DcqcnRpParameters()));
  EXPECT_EQ(pp.at("trust").at("enum"), json({"dscp", "pcp"}));
  EXPECT_EQ(pp.at("roce_mode").at("enum"), json({"v2"}));
  EXPECT_EQ(pp.at("fec").at("properties").at("mode").at("enum"),
            json({"rs", "baser", "llrs", "off"}));
}

bool HasSchemaFinding(const LoadedPlan& loaded) {
  return std::any_of(loaded.findings.begin(), loaded.findings.end(),
                     [](const Finding& f) { return f.check.rfind("plan.schema.", 0) == 0; });
}

std::string Slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(PlanSchema, LoaderAgreesWithTheSchemaCorpus) {
  const fs::path corpus = fs::path(ROCEWATCH_TEST_DATA) / "lint" / "data" / "schema";
  std::size_t valid = 0, invalid = 0;
  for (const auto& entry : fs::directory_iterator(corpus / "valid")) {
    auto loaded = LoadPlanText(Slurp(entry.path()), entry.path().filename().string());
    ASSERT_TRUE(loaded.ok()) << entry.path();
    EXPECT_FALSE(HasSchemaFinding(*loaded))
        << entry.path() << ": " << loaded->findings.front().location << " "
        << loaded->findings.front().message;
    ++valid;
  }
  for (const auto& entry : fs::directory_iterator(corpus / "invalid")) {
    auto loaded = LoadPlanText(Slurp(entry.path()), entry.path().filename().string());
    ASSERT_TRUE(loaded.ok()) << entry.path();
    EXPECT_TRUE(HasSchemaFinding(*loaded)) << entry.path() << " was accepted";
    ++invalid;
  }
  EXPECT_EQ(valid, 8u);
  EXPECT_EQ(invalid, 30u);
}

}  // namespace
}  // namespace rocewatch::lint::plan
