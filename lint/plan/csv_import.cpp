#include "lint/plan/csv_import.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "lint/plan/csv.h"
#include "lint/plan/json_positions.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan {
namespace {

using ojson = nlohmann::ordered_json;

enum class Column {
  kNode,
  kManagementIp,
  kExporter,
  kIbDev,
  kNetdev,
  kProfile,
  kRoceIp,
  kRail,
  kSwitchPort,
  kLabel
};

const std::vector<std::string> kColumnNames = {"node",    "management_ip", "exporter",
                                               "ib_dev",  "netdev",        "profile",
                                               "roce_ip", "rail",          "switch_port"};
const std::vector<std::string> kRequiredColumns = {"node",   "management_ip", "ib_dev",
                                                   "netdev", "profile",       "roce_ip"};
const std::vector<std::string> kSkeletonKeys = {"$schema", "cluster", "defaults", "profiles"};
constexpr std::string_view kLabelPrefix = "label.";

// "RoCE IP" -> "roce_ip", " Switch-Port " -> "switch_port".
std::string NormalizeHeader(std::string_view raw) {
  std::string out;
  for (char c : Trim(raw)) {
    if (c == ' ' || c == '-') {
      out += '_';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

struct HeaderColumn {
  Column column;
  std::string name;  // normalized name, or the label key for kLabel
};

struct NodeRows {
  std::string name;
  std::size_t first_row = 0;
  std::string management_ip;
  std::size_t management_ip_row = 0;
  std::string exporter;
  std::size_t exporter_row = 0;
  std::map<std::string, std::pair<std::string, std::size_t>> labels;  // key -> (value, row)
  std::vector<std::string> label_order;
  ojson nics = ojson::array();
};

class Importer {
 public:
  explicit Importer(const CsvImportInput& in) : in_(in) {}

  CsvImport Run() {
    LoadSkeleton();
    auto records = ParseCsv(in_.csv, in_.csv_name);
    if (!records.ok()) {
      out_.errors.push_back(records.error());
      return std::move(out_);
    }
    if (records->empty()) {
      Fail(in_.csv_name + " is empty; its first row must name the columns (" +
           Join(kRequiredColumns) + ", …)");
      return std::move(out_);
    }
    if (!ReadHeader(records->front())) return std::move(out_);
    for (std::size_t r = 1; r < records->size(); ++r) ReadRow((*records)[r]);
    for (const NodeRows& node : nodes_) {
      if (node.management_ip.empty()) {
        Fail(in_.csv_name + ": node " + Quote(node.name) + " (row " +
             std::to_string(node.first_row) + ") has no management_ip on any of its rows");
      }
    }
    if (nodes_.empty() && out_.errors.empty()) {
      Fail(in_.csv_name + " has a header but no NIC rows");
    }
    if (out_.ok()) Build();
    return std::move(out_);
  }

 private:
  static std::string Join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
  }

  void Fail(std::string message) { out_.errors.push_back(Error{std::move(message)}); }

  std::string Cell(std::size_t row, std::size_t column) const {
    std::string out =
        in_.csv_name + " row " + std::to_string(row) + ", column " + ColumnLetter(column);
    if (column < header_.size()) {
      const HeaderColumn& h = header_[column];
      out +=
          " (" + (h.column == Column::kLabel ? std::string(kLabelPrefix) + h.name : h.name) + ")";
    }
    return out;
  }

  void LoadSkeleton() {
    const std::string& name = in_.profiles_name;
    try {
      skeleton_ = ojson::parse(in_.profiles.begin(), in_.profiles.end());
    } catch (const ojson::parse_error& e) {
      std::string detail = e.what();
      if (auto colon = detail.find(": "); colon != std::string::npos)
        detail = detail.substr(colon + 2);
      TextPosition at = PositionOfOffset(in_.profiles, e.byte > 0 ? e.byte - 1 : 0);
      Fail(name + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
           ": invalid JSON: " + detail);
      skeleton_ = ojson::object();
      return;
    }
    if (!skeleton_.is_object()) {
      Fail(name + " must be a JSON object with \"profiles\" (a plan without \"nodes\")");
      skeleton_ = ojson::object();
      return;
    }
    for (const auto& [key, value] : skeleton_.items()) {
      if (std::find(kSkeletonKeys.begin(), kSkeletonKeys.end(), key) != kSkeletonKeys.end())
        continue;
      if (key == "nodes") {
        Fail(name + ": \"nodes\" come from the CSV; remove them from the profiles file");
        continue;
      }
      std::string message = name + ": unknown key " + Quote(key);
      if (auto s = DidYouMean(key, kSkeletonKeys)) message += "; did you mean \"" + *s + "\"?";
      Fail(message);
    }
    auto profiles = skeleton_.find("profiles");
    if (profiles == skeleton_.end() || !profiles->is_object()) {
      Fail(name + " needs a \"profiles\" object (named RoCE profiles, see docs/plan.md)");
    }
    if (!in_.cluster.empty()) {
      cluster_ = in_.cluster;
    } else if (auto c = skeleton_.find("cluster"); c != skeleton_.end() && c->is_string() &&
                                                   !c->get_ref<const std::string&>().empty()) {
      cluster_ = c->get<std::string>();
    } else {
      Fail("no cluster name: give --cluster NAME or a \"cluster\" key in " + name);
    }
  }

  bool ReadHeader(const CsvRecord& record) {
    std::map<std::string, std::size_t> seen;
    bool ok = true;
    for (std::size_t c = 0; c < record.fields.size(); ++c) {
      std::string raw(Trim(record.fields[c]));
      std::string norm = NormalizeHeader(raw);
      HeaderColumn h{Column::kLabel, ""};
      if (norm.rfind(kLabelPrefix, 0) == 0) {
        h.name = std::string(Trim(std::string_view(raw).substr(kLabelPrefix.size())));
        if (h.name.empty()) {
          Fail(Cell(1, c) +
               ": label column without a key; write it as label.<key>, e.g. label.rack");
          ok = false;
        }
      } else {
        auto it = std::find(kColumnNames.begin(), kColumnNames.end(), norm);
        if (it == kColumnNames.end()) {
          std::string message = Cell(1, c) + ": unknown column " + Quote(raw);
          if (auto s = DidYouMean(norm, kColumnNames)) {
            message += "; did you mean \"" + *s + "\"?";
          } else {
            message += " (known columns: " + Join(kColumnNames) + ", label.<key>)";
          }
          Fail(message);
          ok = false;
        } else {
          h.column = static_cast<Column>(it - kColumnNames.begin());
          h.name = norm;
        }
      }
      header_.push_back(h);
      std::string key = h.column == Column::kLabel ? std::string(kLabelPrefix) + h.name : h.name;
      if (!key.empty() && key != std::string(kLabelPrefix)) {
        auto [it, inserted] = seen.emplace(key, c);
        if (!inserted) {
          Fail(Cell(1, c) + ": column " + Quote(key) + " appears twice (also column " +
               ColumnLetter(it->second) + ")");
          ok = false;
        }
      }
    }
    for (const auto& required : kRequiredColumns) {
      if (seen.count(required) == 0) {
        Fail(in_.csv_name + ": the header row has no " + Quote(required) + " column");
        ok = false;
      }
    }
    for (std::size_t c = 0; c < header_.size(); ++c) {
      if (header_[c].column != Column::kLabel) index_[header_[c].column] = c;
    }
    return ok;
  }

  std::string Get(const CsvRecord& r, Column column) const {
    auto it = index_.find(column);
    if (it == index_.end() || it->second >= r.fields.size()) return "";
    return r.fields[it->second];
  }

  // A node-level value that may repeat on every row of the node but must not differ.
  void Merge(const CsvRecord& r, Column column, std::string value, std::string& slot,
             std::size_t& slot_row, const std::string& node) {
    if (value.empty()) return;
    if (slot.empty()) {
      slot = std::move(value);
      slot_row = r.row;
    } else if (slot != value) {
      Fail(Cell(r.row, index_.at(column)) + ": node " + Quote(node) + " has " + Quote(slot) +
           " on row " + std::to_string(slot_row) + " but " + Quote(value) + " here");
    }
  }

  void ReadRow(const CsvRecord& r) {
    bool blank = std::all_of(r.fields.begin(), r.fields.end(),
                             [](const std::string& f) { return f.empty(); });
    if (blank) return;
    if (r.fields.size() > header_.size()) {
      for (std::size_t c = header_.size(); c < r.fields.size(); ++c) {
        if (!r.fields[c].empty()) {
          Fail(Cell(r.row, c) + ": cell " + Quote(r.fields[c]) + " is beyond the " +
               std::to_string(header_.size()) + " columns the header names");
          return;
        }
      }
    }
    bool ok = true;
    for (Column required :
         {Column::kNode, Column::kIbDev, Column::kNetdev, Column::kProfile, Column::kRoceIp}) {
      if (Get(r, required).empty()) {
        Fail(Cell(r.row, index_.at(required)) + ": empty; every NIC row needs " +
             kColumnNames[static_cast<std::size_t>(required)]);
        ok = false;
      }
    }
    std::string rail = Get(r, Column::kRail);
    std::optional<std::uint64_t> rail_value;
    if (!rail.empty()) {
      rail_value = ParseU64(rail);
      if (!rail_value || *rail_value > 1000000) {
        Fail(Cell(r.row, index_.at(Column::kRail)) + ": " + Quote(rail) +
             " is not a rail number (a "
             "whole number)");
        ok = false;
      }
    }
    if (!ok) return;

    const std::string name = Get(r, Column::kNode);
    auto [it, inserted] = node_index_.emplace(name, nodes_.size());
    if (inserted) {
      nodes_.push_back(NodeRows{});
      nodes_.back().name = name;
      nodes_.back().first_row = r.row;
    }
    NodeRows& node = nodes_[it->second];
    Merge(r, Column::kManagementIp, Get(r, Column::kManagementIp), node.management_ip,
          node.management_ip_row, name);
    Merge(r, Column::kExporter, Get(r, Column::kExporter), node.exporter, node.exporter_row, name);
    for (std::size_t c = 0; c < header_.size() && c < r.fields.size(); ++c) {
      if (header_[c].column != Column::kLabel || r.fields[c].empty()) continue;
      auto [lit, linserted] = node.labels.emplace(header_[c].name, std::pair(r.fields[c], r.row));
      if (linserted) {
        node.label_order.push_back(header_[c].name);
      } else if (lit->second.first != r.fields[c]) {
        Fail(Cell(r.row, c) + ": node " + Quote(name) + " has " + Quote(lit->second.first) +
             " on row " + std::to_string(lit->second.second) + " but " + Quote(r.fields[c]) +
             " here");
      }
    }
    ojson nic = ojson::object();
    nic["ib_dev"] = Get(r, Column::kIbDev);
    nic["netdev"] = Get(r, Column::kNetdev);
    nic["profile"] = Get(r, Column::kProfile);
    nic["roce_ip"] = Get(r, Column::kRoceIp);
    if (rail_value) nic["rail"] = *rail_value;
    if (std::string sp = Get(r, Column::kSwitchPort); !sp.empty()) nic["switch_port"] = sp;
    node.nics.push_back(std::move(nic));
  }

  void Build() {
    ojson plan = ojson::object();
    if (auto s = skeleton_.find("$schema"); s != skeleton_.end()) plan["$schema"] = *s;
    plan["cluster"] = cluster_;
    if (auto d = skeleton_.find("defaults"); d != skeleton_.end()) plan["defaults"] = *d;
    plan["profiles"] = skeleton_["profiles"];
    ojson nodes = ojson::array();
    for (NodeRows& n : nodes_) {
      ojson node = ojson::object();
      node["name"] = n.name;
      node["management_ip"] = n.management_ip;
      if (!n.exporter.empty()) node["exporter"] = n.exporter;
      if (!n.label_order.empty()) {
        ojson labels = ojson::object();
        for (const auto& key : n.label_order) labels[key] = n.labels[key].first;
        node["labels"] = std::move(labels);
      }
      node["nics"] = std::move(n.nics);
      nodes.push_back(std::move(node));
    }
    plan["nodes"] = std::move(nodes);
    out_.plan = std::move(plan);
  }

  const CsvImportInput& in_;
  CsvImport out_;
  ojson skeleton_ = ojson::object();
  std::string cluster_;
  std::vector<HeaderColumn> header_;
  std::map<Column, std::size_t> index_;
  std::vector<NodeRows> nodes_;
  std::map<std::string, std::size_t> node_index_;
};

}  // namespace

CsvImport ImportCsvPlan(const CsvImportInput& input) { return Importer(input).Run(); }

}  // namespace rocewatch::lint::plan
