#include "lint/core/setting_table.h"

#include <string>

namespace rocewatch::lint::setting {
namespace {

std::string_view TypeName(ValueType type) {
  switch (type) {
    case ValueType::kNumber: return "number";
    case ValueType::kPriorities: return "priorities";
    case ValueType::kText: return "text";
    case ValueType::kDigest: return "digest";
  }
  return "?";
}

// A table cell: "—" for none; '|' escaped, so a cell never splits the row.
std::string Cell(std::string_view text, bool code) {
  if (text.empty()) return "—";
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return code ? "`" + out + "`" : out;
}

}  // namespace

const Spec* Find(std::string_view key) {
  for (const Spec* spec : kAll)
    if (spec->Names(key)) return spec;
  return nullptr;
}

const Spec* Named(std::string_view name) {
  for (const Spec* spec : kAll)
    if (spec->Named(name)) return spec;
  return nullptr;
}

std::string DocsTable() {
  std::string out =
      "| setting | value | plan | shown by | `roce-lint fix` runs | rollback restores |\n"
      "|---|---|---|---|---|---|\n";
  for (const Spec* s : kAll) {
    const Spec& spec = *s;
    std::string key(spec.key);
    if (spec.IsFamily()) key += "*";
    out += "| `" + key + "` | " + std::string(TypeName(spec.type)) + (spec.port_up_only ? " (port up)" : "") +
           " | " + Cell(spec.plan, false) + " | " + Cell(spec.metric, true) + " | " + Cell(spec.repair, false) +
           " | " + Cell(spec.rollback, true) + " |\n";
  }
  return out;
}

}  // namespace rocewatch::lint::setting
