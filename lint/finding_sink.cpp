#include "lint/finding_sink.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "lint/checks/check.h"

namespace rocewatch::lint {

void FindingSink::Add(Finding finding) {
  findings_.push_back(std::move(finding));
  if (source_ != nullptr)
    positions_.push_back({std::numeric_limits<std::size_t>::max(), 0});
}

void FindingSink::Add(Finding finding, std::string_view pointer, bool at_key) {
  if (source_ == nullptr) {
    Add(std::move(finding));
    return;
  }
  finding.location = at_key ? plan::KeyLocationOf(*source_, pointer) : plan::LocationOf(*source_, pointer);
  positions_.push_back(at_key ? plan::KeyPositionOf(*source_, pointer) : plan::PositionOf(*source_, pointer));
  findings_.push_back(std::move(finding));
}

std::string FindingSink::Where(std::string_view pointer) const {
  if (source_ == nullptr) return std::string(pointer);
  plan::TextPosition at = plan::PositionOf(*source_, pointer);
  if (at.line == 0) return std::string(pointer);
  return (source_->name.empty() ? std::string("plan") : source_->name) + ":" +
         std::to_string(at.line) + ":" + std::to_string(at.column);
}

void FindingSink::Nic(const checks::CheckSpec& spec, const checks::NicContext& nic,
                      std::string expected, std::string found, std::string message,
                      std::string fix, SettingDelta setting) {
  Nic(spec, nic.node, nic.nic, nic.port, std::move(expected), std::move(found), std::move(message),
      std::move(fix), std::move(setting));
}

void FindingSink::Nic(const checks::CheckSpec& spec, const plan::Node& node, const plan::Nic& nic,
                      std::string port, std::string expected, std::string found,
                      std::string message, std::string fix, SettingDelta setting) {
  Finding f;
  f.check = std::string(spec.id);
  f.severity = spec.severity;
  f.node = node.name;
  f.device = nic.ib_dev;
  f.port = std::move(port);
  f.netdev = nic.netdev;
  f.expected = std::move(expected);
  f.found = std::move(found);
  f.message = std::move(message);
  f.fix = std::move(fix);
  f.setting = std::move(setting);
  Add(std::move(f));
}

void FindingSink::Node(const checks::CheckSpec& spec, const plan::Node& node, std::string device,
                       std::string netdev, std::string expected, std::string found,
                       std::string message, std::string fix) {
  Finding f;
  f.check = std::string(spec.id);
  f.severity = spec.severity;
  f.node = node.name;
  f.device = std::move(device);
  f.netdev = std::move(netdev);
  f.expected = std::move(expected);
  f.found = std::move(found);
  f.message = std::move(message);
  f.fix = std::move(fix);
  Add(std::move(f));
}

std::vector<Finding> FindingSink::Finish() {
  std::vector<Finding> out;
  out.reserve(findings_.size());
  if (source_ == nullptr) {
    out = std::move(findings_);
  } else {
    std::vector<std::size_t> order(findings_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return std::pair(positions_[a].line, positions_[a].column) <
             std::pair(positions_[b].line, positions_[b].column);
    });
    for (std::size_t i : order) out.push_back(std::move(findings_[i]));
  }
  findings_.clear();
  positions_.clear();
  return out;
}

}  // namespace rocewatch::lint
