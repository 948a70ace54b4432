#include "exporter/metrics/text_renderer.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "exporter/metrics/label_value.h"
#include "rocewatch/strings.h"

namespace rocewatch::metrics {

namespace {

constexpr bool NeedsEscape(char c) { return c == '\\' || c == '"' || c == '\n'; }

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

// The bytes a label value may hold as they are: ASCII but NUL and those escaped.
constexpr std::array<bool, 256> kPlainByte = [] {
  std::array<bool, 256> plain{};
  for (int c = 1; c < 0x80; ++c) plain[c] = !NeedsEscape(static_cast<char>(c));
  return plain;
}();

// True when `v` is ASCII without NUL and without a character to escape: valid as it is
// (label_value.h) and written as it is. Nearly every label value is; one scan decides it.
bool IsPlain(std::string_view v) {
  bool plain = true;
  for (char c : v) plain &= kPlainByte[static_cast<unsigned char>(c)];
  return plain;
}

// Where a family's index is looked up first (the last families used, by address).
std::size_t RecentSlot(const MetricSpec* spec, std::size_t slots) {
  return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(spec) * 0x9E3779B97F4A7C15ull) >> 40) %
         slots;
}

}  // namespace

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

void TextRenderer::UseSizeHints(const SizeHints* hints) { hints_ = hints; }

void TextRenderer::KeepSizes(SizeHints& hints) const {
  for (const auto& f : families_) hints[f.spec] = f.samples.size();
}

std::size_t TextRenderer::FamilyOf(const MetricSpec& spec) {
  // A renderer adds a family's samples mostly one after another, or a few families in turn
  // (one device's port state, rate, bytes…): the recent families are asked first.
  Recent& recent = recent_[RecentSlot(&spec, recent_.size())];
  if (recent.spec == &spec) return recent.index;
  auto [it, inserted] = index_.try_emplace(&spec, families_.size());
  if (inserted) {
    families_.push_back({&spec, {}});
    if (hints_ != nullptr) {
      // As much as the family took on the page before, and a little more: written without
      // growing (a growth copies the family's text so far).
      if (auto hint = hints_->find(&spec); hint != hints_->end())
        families_.back().samples.reserve(hint->second + hint->second / 8 + 64);
    }
  }
  recent = {&spec, it->second};
  return it->second;
}

void TextRenderer::Write(const MetricSpec& spec, const std::string_view* values, std::size_t count,
                         double value, bool escape) {
  const std::span<const std::string_view> label_values(values, count);
  const std::size_t family = FamilyOf(spec);
  std::string& out = families_[family].samples;

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
  const std::size_t value_at = out.size();
  AppendDouble(out, value);
  if (record_ != nullptr) record_->push_back({family, value_at, out.size() - value_at});
  out += '\n';
}

void TextRenderer::RecordValues(std::vector<ValueAt>* into) { record_ = into; }

std::string TextRenderer::Take(std::string into) && {
  std::string text = std::move(into);
  text.clear();
  std::move(*this).AppendTo(text);
  return text;
}

void TextRenderer::AppendTo(std::string& page) && { AppendFamilies(page, nullptr); }

void TextRenderer::AppendTo(std::string& page, std::vector<std::size_t>& family_starts) && {
  family_starts.clear();
  AppendFamilies(page, &family_starts);
}

void TextRenderer::AppendFamilies(std::string& page, std::vector<std::size_t>* family_starts) {
  std::size_t total = page.size();
  for (const auto& f : families_) total += f.samples.size() + f.spec->help.size() + 2 * f.spec->name.size() + 32;
  if (page.capacity() < total) page.reserve(total);
  for (auto& f : families_) {
    page += "# HELP ";
    page += f.spec->name;
    page += ' ';
    page += f.spec->help;
    page += "\n# TYPE ";
    page += f.spec->name;
    page += ' ';
    page += TypeName(f.spec->type);
    page += '\n';
    if (family_starts != nullptr) family_starts->push_back(page.size());
    page += f.samples;
    // Each family's buffer goes as soon as it is copied, so the whole text never stands twice
    // in memory (1.5 MB each on a 32-device node): part of the exporter's peak RSS.
    std::string().swap(f.samples);
  }
  families_.clear();
  index_.clear();
  recent_ = {};
}

}  // namespace rocewatch::metrics
