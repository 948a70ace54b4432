#include "collect/collector.h"

#include <chrono>
#include <exception>

#include "fs/fd_budget.h"
#include "util/log.h"

namespace rocewatch {

std::map<std::string, std::string> WithDefaults(const sources::SourceInfo& info,
                                                std::map<std::string, std::string> given) {
  for (const auto& opt : info.options) given.try_emplace(std::string(opt.name), opt.default_value);
  return given;
}

Collector::Collector(CollectorConfig config)
    : config_(std::move(config)),
      sysfs_("sysfs", config_.sysfs_root),
      configfs_("configfs", config_.configfs_root),
      debugfs_("debugfs", config_.debugfs_root) {
  if (config_.sysfs_transform) sysfs_.set_transform(config_.sysfs_transform);
}

Result<std::unique_ptr<Collector>> Collector::Create(CollectorConfig config) {
  std::unique_ptr<Collector> c(new Collector(std::move(config)));
  if (!c->config_.kernel) c->config_.kernel = kernel::MakeLiveKernel();
  for (const auto& name : c->config_.enabled_sources) {
    const sources::SourceInfo* info = sources::FindSource(name);
    if (info == nullptr) return Error{"unknown collector " + name};
    sources::SourceEnv env;
    env.sysfs = &c->sysfs_;
    env.configfs = &c->configfs_;
    env.debugfs = &c->debugfs_;
    env.kernel = c->config_.kernel.get();
    auto it = c->config_.source_options.find(name);
    env.options = WithDefaults(*info, it == c->config_.source_options.end()
                                          ? std::map<std::string, std::string>{}
                                          : it->second);
    auto source = info->make(env);
    if (!source) return source.error();
    c->sources_.push_back({info, std::move(*source)});
  }
  return c;
}

void Collector::SetRecorder(fs::Recorder* recorder) {
  sysfs_.set_recorder(recorder);
  configfs_.set_recorder(recorder);
  debugfs_.set_recorder(recorder);
}

void Collector::Rediscover() {
  inventory_ = Discover(sysfs_, config_.discover, inventory_.generation + 1);
  for (const auto& e : inventory_.errors) log::Warn("device skipped", {{"reason", e}});
  for (auto& e : sources_) e.source->Prepare(inventory_);
  stats_.discoveries_total += 1;
  need_discovery_ = false;
  log::Debug("inventory", {{"devices", std::to_string(inventory_.devices.size())},
                           {"netdevs", std::to_string(inventory_.netdevs.size())}});
}

NodeSnapshot Collector::Collect() {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  if (need_discovery_ || ListingKey(sysfs_) != inventory_.listing_key) Rediscover();

  NodeSnapshot snap;
  for (auto& e : sources_) {
    SourceStatus status;
    status.name = std::string(e.info->name);
    auto t0 = Clock::now();
    try {
      e.source->Collect(inventory_, snap, status);
    } catch (const std::exception& ex) {
      // Sources do not throw by contract; a bug must still not fail the scrape.
      status.success = false;
      status.errors.push_back(std::string("internal error: ") + ex.what());
    }
    status.duration_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
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
  return snap;
}

}  // namespace rocewatch
