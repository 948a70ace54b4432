#include "lint/core/finding_sink.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "lint/core/check_spec.h"

namespace rocewatch::lint {

void FindingSink::Add(Finding finding) {
  findings_.push_back(std::move(finding));
  if (locator_ != nullptr) positions_.emplace_back(std::numeric_limits<std::size_t>::max(), 0);
}

void FindingSink::Add(Finding finding, std::string_view pointer, bool at_key) {
  if (locator_ == nullptr) {
    Add(std::move(finding));
    return;
  }
  DocumentPlace place = locator_->Locate(pointer, at_key);
  finding.location = std::move(place.location);
  positions_.emplace_back(place.line, place.column);
  findings_.push_back(std::move(finding));
}

std::string FindingSink::Where(std::string_view pointer) const {
  return locator_ == nullptr ? std::string(pointer) : locator_->Where(pointer);
}

void FindingSink::Nic(const CheckSpec& spec, const FindingSubject& subject, i18n::Phrase expected,
                      i18n::Phrase found, i18n::Phrase message, FixText fix,
                      SettingDelta setting) {
  Finding f;
  f.check = std::string(spec.id);
  f.severity = spec.severity;
  f.node = subject.node;
  f.device = subject.device;
  f.port = subject.port;
  f.netdev = subject.netdev;
  SetTexts(f, std::move(expected), std::move(found), std::move(message));
  if (fix.HasChanges()) {
    f.fix_steps = std::move(fix);
  } else {
    i18n::Phrase words = fix.ToPhrase({});
    f.fix = std::move(words.english);
    f.fix_text = std::move(words.message);
  }
  f.setting = std::move(setting);
  Add(std::move(f));
}

void FindingSink::Node(const CheckSpec& spec, std::string_view node, std::string device,
                       std::string netdev, i18n::Phrase expected, i18n::Phrase found,
                       i18n::Phrase message, FixText fix) {
  Nic(spec, {node, device, {}, netdev}, std::move(expected), std::move(found), std::move(message),
      std::move(fix));
}

std::vector<Finding> FindingSink::Finish() {
  std::vector<Finding> out;
  out.reserve(findings_.size());
  if (locator_ == nullptr) {
    out = std::move(findings_);
  } else {
    std::vector<std::size_t> order(findings_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return positions_[a] < positions_[b];
    });
    for (std::size_t i : order) out.push_back(std::move(findings_[i]));
  }
  findings_.clear();
  positions_.clear();
  return out;
}

}  // namespace rocewatch::lint
