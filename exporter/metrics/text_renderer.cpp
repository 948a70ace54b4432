#include "metrics/text_renderer.h"

#include <cstring>
#include <span>
#include <vector>

#include "metrics/label_value.h"
#include "rocewatch/strings.h"

namespace rocewatch::metrics {

namespace {

bool NeedsEscape(char c) { return c == '\\' || c == '"' || c == '\n'; }

// Bytes `v` takes once escaped.
std::size_t EscapedSize(std::string_view v) {
  std::size_t n = v.size();
  for (char c : v) n += NeedsEscape(c) ? 1 : 0;
  return n;
}

char* Put(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

char* PutEscaped(char* p, std::string_view v) {
  for (char c : v) {
    if (NeedsEscape(c)) {
      *p++ = '\\';
      c = c == '\n' ? 'n' : c;
    }
    *p++ = c;
  }
  return p;
}

// True when `v` is ASCII without NUL and without a character to escape: valid as it is
// (label_value.h) and written as it is. Nearly every label value is; one scan decides it.
bool IsPlain(std::string_view v) {
  for (char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0 || u >= 0x80 || NeedsEscape(c)) return false;
  }
  return true;
}

}  // namespace

void AppendEscapedLabelValue(std::string& out, std::string_view v) {
  const std::size_t at = out.size();
  out.resize(at + EscapedSize(v));
  PutEscaped(out.data() + at, v);
}

void TextRenderer::Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
                       double value) {
  if (label_values.size() != spec.labels.size()) {
    ++malformed_;
    return;
  }
  bool plain = true;
  for (std::string_view v : label_values) plain = plain && IsPlain(v);
  if (plain) {
    Write(spec, label_values.begin(), label_values.size(), value, false);
    return;
  }
  // Label values are valid UTF-8 always (metrics/label_value.h); the repair is rare, so the
  // common case only scans.
  bool valid = true;
  for (std::string_view v : label_values) valid = valid && IsValidLabelValue(v);
  if (!valid) {
    std::vector<std::string> repaired;
    repaired.reserve(label_values.size());
    for (std::string_view v : label_values) {
      if (IsValidLabelValue(v)) {
        repaired.emplace_back(v);
      } else {
        repaired.push_back(RepairLabelValue(v));
        ++repaired_;
        CountRepairedLabelValue();
      }
    }
    std::vector<std::string_view> views(repaired.begin(), repaired.end());
    Write(spec, views.data(), views.size(), value, true);
    return;
  }
  Write(spec, label_values.begin(), label_values.size(), value, true);
}

std::string& TextRenderer::SamplesOf(const MetricSpec& spec) {
  // A renderer adds a family's samples mostly one after another: the last family is asked first.
  if (last_spec_ != &spec) {
    auto [it, inserted] = index_.try_emplace(&spec, families_.size());
    if (inserted) families_.push_back({&spec, {}});
    last_spec_ = &spec;
    last_index_ = it->second;
  }
  return families_[last_index_].samples;
}

void TextRenderer::Write(const MetricSpec& spec, const std::string_view* values, std::size_t count,
                         double value, bool escape) {
  const std::span<const std::string_view> label_values(values, count);
  std::string& out = SamplesOf(spec);

  // name{label="value",...} : sized first, then written in place (tens of thousands a scrape).
  std::size_t size = spec.name.size();
  auto name = spec.labels.begin();
  for (std::string_view v : label_values)
    size += (name++)->size() + (escape ? EscapedSize(v) : v.size()) + 4;  // ,="" or {=""
  if (label_values.size() != 0) size += 1;  // }
  const std::size_t at = out.size();
  out.resize(at + size);
  char* p = Put(out.data() + at, spec.name);
  char sep = '{';
  name = spec.labels.begin();
  for (std::string_view v : label_values) {
    *p++ = sep;
    sep = ',';
    p = Put(p, *name++);
    *p++ = '=';
    *p++ = '"';
    p = escape ? PutEscaped(p, v) : Put(p, v);
    *p++ = '"';
  }
  if (label_values.size() != 0) *p++ = '}';
  out += ' ';
  AppendDouble(out, value);
  out += '\n';
}

TextRenderer::Samples TextRenderer::TakeSamples() && {
  Samples out;
  out.reserve(families_.size());
  for (auto& f : families_) out.emplace_back(f.spec, std::move(f.samples));
  families_.clear();
  index_.clear();
  last_spec_ = nullptr;
  return out;
}

void TextRenderer::AddRendered(const Samples& samples, std::size_t malformed, std::size_t repaired) {
  for (const auto& [spec, text] : samples) SamplesOf(*spec) += text;
  malformed_ += malformed;
  repaired_ += repaired;
}

std::string TextRenderer::Take(std::string into) && {
  std::size_t total = 0;
  for (const auto& f : families_) total += f.samples.size() + f.spec->help.size() + 2 * f.spec->name.size() + 32;
  std::string text = std::move(into);
  text.clear();
  // With headroom: the next page, a few bytes longer (timings, counters gaining a digit), is
  // written into this buffer when it comes back (collect/scrape_coalescer.cpp) instead of a new one.
  if (text.capacity() < total) text.reserve(total + total / 16);
  for (auto& f : families_) {
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
    // Each family's buffer goes as soon as it is copied, so the whole text never stands twice
    // in memory (1.5 MB each on a 32-device node): part of the exporter's peak RSS.
    std::string().swap(f.samples);
  }
  return text;
}

}  // namespace rocewatch::metrics
