#include "exporter/pass/runner.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "exporter/fs/fd_budget.h"
#include "exporter/log.h"

namespace rocewatch {

std::map<std::string, std::string> WithDefaults(const collectors::CollectorInfo& info,
                                                std::map<std::string, std::string> given) {
  for (const auto& opt : info.options) given.try_emplace(std::string(opt.name), opt.default_value);
  return given;
}

PassRunner::PassRunner(PassConfig config)
    : config_(std::move(config)),
      sysfs_("sysfs", config_.sysfs_root),
      configfs_("configfs", config_.configfs_root),
      debugfs_("debugfs", config_.debugfs_root),
      procfs_("procfs", config_.procfs_root) {
  if (config_.sysfs_transform) sysfs_.set_transform(config_.sysfs_transform);
}

Result<std::unique_ptr<PassRunner>> PassRunner::Create(PassConfig config) {
  std::unique_ptr<PassRunner> c(new PassRunner(std::move(config)));
  if (!c->config_.kernel) c->config_.kernel = kernel::MakeLiveKernel();
  std::vector<SourcePool::Entry> entries;
  for (const auto& name : c->config_.enabled_collectors) {
    const collectors::CollectorInfo* info = collectors::FindCollector(name);
    if (info == nullptr) return Error{"unknown collector " + name};
    collectors::SourceEnv env;
    env.sysfs = &c->sysfs_;
    env.configfs = &c->configfs_;
    env.debugfs = &c->debugfs_;
    env.procfs = &c->procfs_;
    env.kernel = c->config_.kernel.get();
    auto it = c->config_.collector_options.find(name);
    env.options = WithDefaults(*info, it == c->config_.collector_options.end()
                                          ? std::map<std::string, std::string>{}
                                          : it->second);
    auto source = info->make(env);
    if (!source) return source.error();
    entries.push_back({info, std::move(*source)});
  }
  c->pool_ = std::make_unique<SourcePool>(std::move(entries));
  return c;
}

void PassRunner::SetRecorder(fs::Recorder* recorder) {
  sysfs_.set_recorder(recorder);
  configfs_.set_recorder(recorder);
  debugfs_.set_recorder(recorder);
  procfs_.set_recorder(recorder);
}

void PassRunner::Rediscover() {
  // Workers prepare their sources for the new generation at their next pass.
  auto next = std::make_shared<Inventory>(Discover(sysfs_, config_.discover, inventory_->generation + 1));
  for (const auto& e : next->errors) log::Warn("device skipped", {{"reason", e}});
  stats_.discoveries_total += 1;
  need_discovery_ = false;
  log::Debug("inventory", {{"devices", std::to_string(next->devices.size())},
                           {"netdevs", std::to_string(next->netdevs.size())}});
  inventory_ = std::move(next);
}

NodeSnapshot PassRunner::Collect(std::optional<std::chrono::steady_clock::time_point> deadline) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto timeout = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(config_.source_timeout_seconds));
  Clock::time_point until = deadline ? std::min(*deadline, start + timeout) : start + timeout;
  if (need_discovery_) Rediscover();
  // Whether a device or netdev came or went (two directory listings) is looked at while the
  // sources run, not before them; a pass that ran over an inventory gone stale is run again
  // over the new one, so that a hot-plugged device is in the scrape that first lists it.
  std::string listing;
  std::vector<SourcePool::Outcome> outcomes =
      pool_->Run(inventory_, until, [&] { listing = listing_.Key(); });
  if (listing != inventory_->listing_key) {
    Rediscover();
    outcomes = pool_->Run(inventory_, until);
  }

  NodeSnapshot snap;
  timed_out_.clear();
  for (auto& [part, status, timed_out] : outcomes) {
    if (timed_out) timed_out_.push_back(status.name);
    if (timed_out) {
      log::Warn("collector timed out", {{"collector", status.name},
                                        {"seconds", std::to_string(status.duration_seconds)}});
    } else {
      AppendSnapshot(snap, std::move(part));
    }
    if (status.rediscover) need_discovery_ = true;
    for (const auto& err : status.errors) {
      log::Debug("collector error", {{"collector", status.name}, {"error", err}});
    }
    snap.sources.push_back(std::move(status));
  }
  snap.collection_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  stats_.collections_total += 1;
  stats_.open_attributes = static_cast<double>(fs::FdBudget::held());
  stats_.attribute_budget = static_cast<double>(fs::FdBudget::limit());
  stats_.refused_paths = {{"sysfs", static_cast<double>(sysfs_.refused_paths())},
                          {"configfs", static_cast<double>(configfs_.refused_paths())},
                          {"debugfs", static_cast<double>(debugfs_.refused_paths())},
                          {"procfs", static_cast<double>(procfs_.refused_paths())},
                          {"kernel", static_cast<double>(config_.kernel->refused_answers())}};
  return snap;
}

}  // namespace rocewatch
