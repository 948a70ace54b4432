#include "metrics/text_renderer.h"

#include "rocewatch/strings.h"

namespace rocewatch::metrics {

void AppendEscapedLabelValue(std::string& out, std::string_view v) {
  for (char c : v) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      default: out += c;
    }
  }
}

void TextRenderer::Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
                       double value) {
  if (label_values.size() != spec.labels.size()) {
    ++malformed_;
    return;
  }
  auto [it, inserted] = index_.try_emplace(&spec, families_.size());
  if (inserted) families_.push_back({&spec, {}});
  std::string& out = families_[it->second].samples;
  out += spec.name;
  if (label_values.size() != 0) {
    out += '{';
    auto name = spec.labels.begin();
    bool first = true;
    for (std::string_view v : label_values) {
      if (!first) out += ',';
      first = false;
      out += *name++;
      out += "=\"";
      AppendEscapedLabelValue(out, v);
      out += '"';
    }
    out += '}';
  }
  out += ' ';
  out += FormatDouble(value);
  out += '\n';
}

std::string TextRenderer::Take() && {
  std::size_t total = 0;
  for (const auto& f : families_) total += f.samples.size() + f.spec->help.size() + 2 * f.spec->name.size() + 32;
  std::string text;
  text.reserve(total);
  for (const auto& f : families_) {
    text += "# HELP ";
    text += f.spec->name;
    text += ' ';
    text += f.spec->help;
    text += "\n# TYPE ";
    text += f.spec->name;
    text += ' ';
    text += TypeName(f.spec->type);
    text += '\n';
    text += f.samples;
  }
  return text;
}

}  // namespace rocewatch::metrics
