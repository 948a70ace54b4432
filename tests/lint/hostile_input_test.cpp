// Hostile input never crashes the plan loader, the plan checks or the CSV import (the suite also
// runs under ASan/UBSan with -DROCEWATCH_SANITIZE=ON): random mutations of a good plan and
// random CSV bytes.

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "lint/plan/csv_import.h"
#include "lint/plan/load.h"
#include "lint/plan/validate.h"

namespace rocewatch::lint::plan {
namespace {

std::string ExamplePlan() {
  std::ifstream f(ROCEWATCH_SOURCE_DIR "/lint/plan/example-plan.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(HostileInput, MutatedPlansLoadOrFailCleanly) {
  const std::string good = ExamplePlan();
  ASSERT_FALSE(good.empty());
  static constexpr char kBytes[] = "{}[],:\"\\/ 0123456789-.eE+truefalsnul\n\t\xc3\xa9\x80\xff~";
  std::mt19937 rng(20240501);
  std::size_t loaded_ok = 0, refused = 0;
  for (int round = 0; round < 1500; ++round) {
    std::string text = good;
    const int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      std::size_t at = rng() % text.size();
      char c = kBytes[rng() % (sizeof kBytes - 1)];
      switch (rng() % 3) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.erase(at, 1 + rng() % 8);
          break;
        default:
          text.insert(at, 1, c);
      }
    }
    auto loaded = LoadPlanText(text, "fuzz.json");
    if (!loaded.ok()) {
      EXPECT_EQ(loaded.error().message.rfind("fuzz.json", 0), 0u) << loaded.error().message;
      ++refused;
      continue;
    }
    ++loaded_ok;
    for (const auto& f : loaded->findings) EXPECT_FALSE(f.location.empty());
    for (const auto& f : ValidatePlan(loaded->plan)) {
      EXPECT_FALSE(f.location.empty());
      EXPECT_FALSE(f.message.empty());
    }
  }
  // Both paths were exercised.
  EXPECT_GT(loaded_ok, 100u);
  EXPECT_GT(refused, 100u);
}

TEST(HostileInput, RandomCsvImportsOrFailsCleanly) {
  static constexpr char kBytes[] = ",,,\"\"\r\n\n abc.1/:-_\xef\xbb\xbf";
  const std::string header = "node,management_ip,ib_dev,netdev,profile,roce_ip,rail,label.x\n";
  std::mt19937 rng(7);
  for (int round = 0; round < 1500; ++round) {
    std::string csv = round % 2 ? header : "";
    const int n = static_cast<int>(rng() % 300);
    for (int i = 0; i < n; ++i) csv += kBytes[rng() % (sizeof kBytes - 1)];
    CsvImport r = ImportCsvPlan(
        {csv, "fuzz.csv", R"({"cluster": "c", "profiles": {}})", "profiles.json", ""});
    if (r.ok()) {
      auto loaded = LoadPlanText(r.plan.dump(2), "imported.json");
      ASSERT_TRUE(loaded.ok());
      (void)ValidatePlan(loaded->plan);
    } else {
      for (const auto& e : r.errors) EXPECT_FALSE(e.message.empty());
    }
  }
}

}  // namespace
}  // namespace rocewatch::lint::plan
