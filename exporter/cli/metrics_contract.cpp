#include "exporter/cli/metrics_contract.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "exporter/collectors/registry.h"
#include "exporter/metrics/exporter_metrics.h"
#include "rocewatch/read_file.h"

namespace rocewatch::cli {
namespace {

constexpr std::string_view kBegin = "<!-- metrics-contract: ";
constexpr std::string_view kBeginEnd = " -->";
constexpr std::string_view kEnd = "<!-- /metrics-contract -->";
constexpr std::size_t kMaxDocBytes = 4 << 20;

bool IsIdentifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

std::string Quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

// One row of a contract table: | `name` | type | `label`, … | meaning |
std::string Row(const metrics::MetricSpec& spec, std::string_view meaning) {
  std::string labels;
  for (auto label : spec.labels) labels += (labels.empty() ? "`" : ", `") + std::string(label) + "`";
  return "| `" + std::string(spec.name) + "` | " + std::string(metrics::TypeName(spec.type)) +
         (labels.empty() ? " | | " : " | " + labels + " | ") + std::string(meaning) + " |";
}

// The name and meaning of a row written by Row(); nothing for any other line.
bool ParseRow(std::string_view line, std::string& name, std::string& meaning) {
  if (line.rfind("| `", 0) != 0 || line.size() < 6 || line.substr(line.size() - 2) != " |")
    return false;
  const auto name_end = line.find('`', 3);
  if (name_end == std::string_view::npos) return false;
  name = std::string(line.substr(3, name_end - 3));
  std::size_t pos = 0;
  for (int cell = 0; cell < 4; ++cell) {  // the meaning follows the fourth '|'
    pos = line.find('|', pos);
    if (pos == std::string_view::npos) return false;
    ++pos;
  }
  const auto body = line.substr(pos, line.size() - 2 - pos);
  meaning = std::string(body.substr(body.rfind(' ', 0) == 0 ? 1 : 0));
  return true;
}

constexpr std::string_view kServedTable = "served";
constexpr std::string_view kServedHeader =
    "| family | served | per NIC, default | per NIC, full | full detail with |\n|---|---|---:|---:|---|\n";

// A row of the served table: | name | served | default | full | detail |; the two counts are
// measured (bench/series_per_nic.py --families) and kept as written.
bool ParseServedRow(std::string_view line, std::string& name, std::string& counts) {
  if (line.rfind("| roce_", 0) != 0) return false;
  std::vector<std::string_view> cells;
  std::size_t pos = 1;
  for (auto bar = line.find('|', pos); bar != std::string_view::npos; bar = line.find('|', pos)) {
    cells.push_back(line.substr(pos, bar - pos));
    pos = bar + 1;
  }
  if (cells.size() < 5) return false;
  auto trim = [](std::string_view c) {
    while (!c.empty() && c.front() == ' ') c.remove_prefix(1);
    while (!c.empty() && c.back() == ' ') c.remove_suffix(1);
    return c;
  };
  name = std::string(trim(cells[0]));
  counts = std::string(trim(cells[2])) + " | " + std::string(trim(cells[3]));
  return true;
}

std::string ServedRow(const metrics::MetricSpec& spec, std::string_view counts) {
  return "| " + std::string(spec.name) + " | " + std::string(metrics::ServedName(spec.served)) +
         " | " + std::string(counts) + " | " + std::string(spec.detail) + " |";
}

// The served table: the measured families in the order written, each with what its spec says;
// a family the specs no longer declare is left out; one that is not served by default and has
// no row gets one, without counts (not measured: absent from the fixture).
std::string ServedTable(const std::vector<std::string_view>& region,
                        const std::vector<ContractFamily>& families) {
  std::map<std::string_view, const metrics::MetricSpec*> by_name;
  for (const auto& f : families) by_name.emplace(f.spec->name, f.spec);
  std::string out(kServedHeader);
  std::set<std::string> listed;
  for (auto line : region) {
    std::string name, counts;
    if (!ParseServedRow(line, name, counts)) continue;
    auto it = by_name.find(name);
    if (it == by_name.end() || !listed.insert(name).second) continue;
    out += ServedRow(*it->second, counts) + "\n";
  }
  for (const auto& f : families)
    if (f.spec->served != metrics::Served::kDefault && !listed.count(std::string(f.spec->name)))
      out += ServedRow(*f.spec, " | ") + "\n";
  return out;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

Status WriteIfChanged(const std::string& path, const std::string& text) {
  auto old = ReadFileCapped(path, kMaxDocBytes);
  if (old.ok() && *old == text) return {};
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Error{"cannot write " + path};
  return {};
}

int Usage(std::FILE* to) {
  std::fprintf(to,
               "usage: roce_exporter metrics-contract header FILE\n"
               "       roce_exporter metrics-contract docs|check-docs FILE\n\n"
               "Writes the metric contract from the exporter's spec tables: roce-lint's\n"
               "lint/metric_contract.h (header), or the tables of docs/metrics.md in place\n"
               "(docs); check-docs fails when the file's tables differ. A build tool.\n");
  return to == stdout ? 0 : 2;
}

}  // namespace

std::vector<ContractFamily> ContractFamilies() {
  std::vector<ContractFamily> all;
  for (const auto& source : collectors::AllCollectors())
    for (const auto* spec : source.specs()) all.push_back({spec, source.name});
  for (const auto* spec : metrics::ExporterSpecs()) all.push_back({spec, "exporter"});
  return all;
}

Result<std::string> ContractHeader(const std::vector<ContractFamily>& families) {
  std::set<std::string_view> names;
  std::set<std::string_view> keys;
  std::size_t widest = 0;
  for (const auto& f : families) {
    if (!IsIdentifier(f.spec->name)) return Error{"metric name is not an identifier: " + Quoted(f.spec->name)};
    if (!names.insert(f.spec->name).second)
      return Error{"metric " + std::string(f.spec->name) + " is declared twice (collector " +
                   std::string(f.collector) + ")"};
    for (auto label : f.spec->labels) {
      if (!IsIdentifier(label))
        return Error{"metric " + std::string(f.spec->name) + ": label is not an identifier: " + Quoted(label)};
      keys.insert(label);
    }
    widest = std::max(widest, f.spec->labels.size());
  }
  std::ostringstream h;
  h << "// Generated by `roce_exporter metrics-contract header` from the exporter's MetricSpec\n"
       "// tables (exporter/collectors/<name>/metrics.cpp, exporter/metrics/exporter_metrics.cpp)\n"
       "// at build time. Do not edit: change the spec. roce-lint names a family and a label only\n"
       "// through these constants, so a metric or label renamed in the exporter fails its build.\n"
       "// The constants are spelled as the names themselves, so that grep finds every user.\n"
       "#pragma once\n\n#include <array>\n#include <span>\n#include <string_view>\n\n"
       "namespace rocewatch {\n\n"
       "// Every label key of the exporter's families.\nnamespace label {\n";
  for (auto key : keys) h << "inline constexpr std::string_view " << key << " = " << Quoted(key) << ";\n";
  h << "}  // namespace label\n\n// Every family the exporter declares.\nnamespace metric {\n";
  for (const auto& f : families)
    h << "inline constexpr std::string_view " << f.spec->name << " = " << Quoted(f.spec->name) << ";\n";
  h << "}  // namespace metric\n\nnamespace contract {\n\n"
       "// Each family's label keys, in the order the exporter writes them.\nnamespace labels_of {\n";
  for (const auto& f : families) {
    h << "inline constexpr std::array<std::string_view, " << f.spec->labels.size() << "> "
      << f.spec->name << " = {";
    for (std::size_t i = 0; i < f.spec->labels.size(); ++i)
      h << (i ? ", " : "") << "label::" << f.spec->labels[i];
    h << "};\n";
  }
  h << "}  // namespace labels_of\n\n"
       "struct Family {\n"
       "  std::string_view name;\n"
       "  std::string_view type;       // \"gauge\" or \"counter\"\n"
       "  std::string_view collector;  // the collector that serves it, or \"exporter\"\n"
       "  std::span<const std::string_view> labels;\n"
       "  std::string_view served;     // \"default\", \"trimmed\", \"opt-in\" or \"repeat\"\n"
       "};\n\n"
       "inline constexpr std::size_t kMostLabels = " << widest << ";\n\n"
       "// Every family, in declaration order.\n"
       "inline constexpr std::array<Family, " << families.size() << "> kFamilies = {{\n";
  for (const auto& f : families)
    h << "    {metric::" << f.spec->name << ", " << Quoted(metrics::TypeName(f.spec->type)) << ", "
      << Quoted(f.collector) << ", labels_of::" << f.spec->name << ", "
      << Quoted(metrics::ServedName(f.spec->served)) << "},\n";
  std::vector<std::string_view> collectors;  // in the order they run (collectors/all.h)
  for (const auto& f : families)
    if (f.collector != "exporter" &&
        std::find(collectors.begin(), collectors.end(), f.collector) == collectors.end())
      collectors.push_back(f.collector);
  h << "}};\n\n"
       "// Every collector, in the order they run and render (exporter/collectors/all.h).\n"
       "inline constexpr std::array<std::string_view, " << collectors.size() << "> kCollectors = {";
  for (std::size_t i = 0; i < collectors.size(); ++i) h << (i ? ", " : "") << Quoted(collectors[i]);
  h << "};\n\n"
       "// The family named `name`, or nullptr.\n"
       "constexpr const Family* FindFamily(std::string_view name) {\n"
       "  for (const auto& f : kFamilies)\n"
       "    if (f.name == name) return &f;\n"
       "  return nullptr;\n"
       "}\n\n"
       "constexpr bool HasLabel(const Family& family, std::string_view key) {\n"
       "  for (auto label : family.labels)\n"
       "    if (label == key) return true;\n"
       "  return false;\n"
       "}\n\n"
       "}  // namespace contract\n}  // namespace rocewatch\n";
  return h.str();
}

Result<std::string> WithContractTables(std::string_view markdown,
                                       const std::vector<ContractFamily>& families) {
  std::map<std::string_view, std::vector<const metrics::MetricSpec*>> by_collector;
  std::vector<std::string_view> order;
  for (const auto& f : families) {
    auto& list = by_collector[f.collector];
    if (list.empty()) order.push_back(f.collector);
    list.push_back(f.spec);
  }
  std::set<std::string_view> written;
  std::string out;
  const auto lines = Lines(markdown);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto line = lines[i];
    const bool last = i + 1 == lines.size();
    if (line.rfind(kBegin, 0) != 0 || line.size() < kBegin.size() + kBeginEnd.size() ||
        line.substr(line.size() - kBeginEnd.size()) != kBeginEnd) {
      if (line == kEnd) return Error{"line " + std::to_string(i + 1) + ": " + std::string(kEnd) + " without its start"};
      out.append(line);
      if (!last || markdown.back() == '\n') out += '\n';
      continue;
    }
    const std::string where = "line " + std::to_string(i + 1);
    const auto collector = line.substr(kBegin.size(), line.size() - kBegin.size() - kBeginEnd.size());
    auto it = by_collector.find(collector);
    const bool served = collector == kServedTable;
    if (it == by_collector.end() && !served)
      return Error{where + ": no collector (nor \"exporter\") is named " + Quoted(collector)};
    if (!written.insert(served ? kServedTable : it->first).second)
      return Error{where + ": the table of " + Quoted(collector) + " is marked twice"};
    std::map<std::string, std::string> meanings;
    std::size_t j = i + 1;
    for (; j < lines.size() && lines[j] != kEnd; ++j) {
      if (lines[j].rfind(kBegin, 0) == 0)
        return Error{"line " + std::to_string(j + 1) + ": a table starts inside " + Quoted(collector) + "'s"};
      std::string name, meaning;
      if (ParseRow(lines[j], name, meaning)) meanings[name] = meaning;
    }
    if (j == lines.size()) return Error{where + ": " + Quoted(collector) + "'s table has no " + std::string(kEnd)};
    out.append(line).append("\n");
    if (served) {
      out += ServedTable({lines.begin() + static_cast<std::ptrdiff_t>(i + 1),
                          lines.begin() + static_cast<std::ptrdiff_t>(j)},
                         families);
    } else {
      out.append("| metric | type | labels | meaning |\n|---|---|---|---|\n");
      for (const auto* spec : it->second) {
        auto m = meanings.find(std::string(spec->name));
        out += Row(*spec, m != meanings.end() ? std::string_view(m->second) : spec->help) + "\n";
      }
    }
    out.append("\n").append(kEnd);
    if (j + 1 < lines.size() || markdown.back() == '\n') out += '\n';
    i = j;
  }
  if (!written.count(kServedTable)) order.push_back(kServedTable);
  for (auto collector : order)
    if (!written.count(collector))
      return Error{"no table is marked for " + Quoted(collector) + ": add " + std::string(kBegin) +
                   std::string(collector) + std::string(kBeginEnd) + " and " + std::string(kEnd) +
                   " where its section should list its families"};
  return out;
}

int RunMetricsContract(int argc, const char* const* argv) {
  if (argc == 3 && (std::string_view(argv[2]) == "--help" || std::string_view(argv[2]) == "-h"))
    return Usage(stdout);
  if (argc != 4) return Usage(stderr);
  const std::string_view what = argv[2];
  const std::string path = argv[3];
  const auto families = ContractFamilies();
  if (what == "header") {
    auto header = ContractHeader(families);
    Status written = header.ok() ? WriteIfChanged(path, *header) : Status(header.error());
    if (!written.ok()) {
      std::fprintf(stderr, "roce_exporter metrics-contract: %s\n", written.error().message.c_str());
      return 1;
    }
    return 0;
  }
  if (what != "docs" && what != "check-docs") return Usage(stderr);
  auto doc = ReadFileCapped(path, kMaxDocBytes);
  if (!doc.ok()) {
    std::fprintf(stderr, "roce_exporter metrics-contract: %s\n", doc.error().message.c_str());
    return 1;
  }
  auto tables = WithContractTables(*doc, families);
  if (!tables.ok()) {
    std::fprintf(stderr, "roce_exporter metrics-contract: %s: %s\n", path.c_str(),
                 tables.error().message.c_str());
    return 1;
  }
  if (*tables == *doc) return 0;
  if (what == "check-docs") {
    const auto want = Lines(*tables);
    const auto have = Lines(*doc);
    std::size_t n = 0;
    while (n < want.size() && n < have.size() && want[n] == have[n]) ++n;
    std::fprintf(stderr,
                 "%s:%zu: the metric tables differ from the exporter's spec tables\n"
                 "  file: %.*s\n  spec: %.*s\n"
                 "regenerate them with: build/exporter/roce_exporter metrics-contract docs %s\n",
                 path.c_str(), n + 1, n < have.size() ? static_cast<int>(have[n].size()) : 0,
                 n < have.size() ? have[n].data() : "", n < want.size() ? static_cast<int>(want[n].size()) : 0,
                 n < want.size() ? want[n].data() : "", path.c_str());
    return 1;
  }
  const Status written = WriteIfChanged(path, *tables);
  if (!written.ok()) {
    std::fprintf(stderr, "roce_exporter metrics-contract: %s\n", written.error().message.c_str());
    return 1;
  }
  return 0;
}

}  // namespace rocewatch::cli
