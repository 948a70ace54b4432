#include "exporter/collectors/rdma_cm/source.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "exporter/collectors/attribute_reader.h"
#include "exporter/collectors/sysfs_values.h"
#include "exporter/log.h"
#include "rocewatch/strings.h"

namespace rocewatch::collectors {
namespace {

using Outcome = AttributeReader::Outcome;

struct CmPort {
  std::string device;
  std::uint32_t port = 0;
  fs::Attribute mode, tos;
  std::string dir;  // rdma_cm/<dev>/ports/<n>: the object
};

class RdmaCmSource final : public Source {
 public:
  RdmaCmSource(const SourceEnv& env, bool create_groups)
      : configfs_(*env.configfs), create_groups_(create_groups) {}

  void Prepare(const Inventory& inventory) override {
    ports_.clear();
    for (const auto& dev : inventory.devices) {
      std::string group = "rdma_cm/" + dev.name;
      if (create_groups_ && !configfs_.IsDirectory(group) && configfs_.IsDirectory("rdma_cm")) {
        if (::mkdir(configfs_.Abs(group).c_str(), 0755) != 0 && errno != EEXIST) {
          log::Warn("cannot create rdma_cm configfs group",
                    {{"path", configfs_.Abs(group)}, {"error", std::strerror(errno)}});
        }
      }
      for (const auto& port : dev.ports) {
        std::string dir = group + "/ports/" + std::to_string(port.number);
        if (!configfs_.IsDirectory(dir)) continue;
        ports_.push_back({dev.name, port.number, fs::Attribute(&configfs_, dir + "/default_roce_mode"),
                          fs::Attribute(&configfs_, dir + "/default_roce_tos"), dir});
        ports_.back().mode.set_vanish_sentinel(true);
      }
    }
  }

  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    // configfs fills an open attribute file's buffer at its first read and never again (a
    // held descriptor re-read with pread kept serving the first value on kernel 6.1: the
    // guest test tests/vm/checks/rdma_cm_late.sh), and a group made while the exporter runs
    // (`mkdir rdma_cm/<dev>`, what `roce-lint fix` prints) changes no inventory: the groups'
    // ports are looked up and their two files opened anew every scrape (a few files a node).
    Prepare(inventory);
    std::string text;
    for (auto& p : ports_) {
      RdmaCmSnapshot snap;
      snap.device = p.device;
      snap.port = p.port;
      Outcome o = reader_.Read(p.mode, p.dir, text, status);
      if (o == Outcome::kGone) {
        reader_.Vanished(status);
        continue;
      }
      if (o == Outcome::kOk) {
        auto mode = ParseRoceMode(text);
        if (mode) snap.roce_mode = *mode;
        else reader_.ParseError(configfs_.Abs(p.mode.rel()), mode.error().message);
      }
      o = reader_.Read(p.tos, p.dir, text, status);
      if (o == Outcome::kGone) {
        reader_.Vanished(status);
        continue;
      }
      if (o == Outcome::kOk) {
        auto tos = ParseU64(text);
        if (tos && *tos <= 255) snap.tos = static_cast<double>(*tos);
        else reader_.ParseError(configfs_.Abs(p.tos.rel()), "cannot parse a ToS (0-255) from " + Quote(Trim(text)));
      }
      out.rdma_cm.push_back(std::move(snap));
    }
    reader_.Finish(status);
  }

 private:
  const fs::Tree& configfs_;
  bool create_groups_;
  std::vector<CmPort> ports_;
  AttributeReader reader_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeRdmaCmSource(const SourceEnv& env) {
  const std::string& create = env.Option("create-groups");
  if (create != "true" && create != "false")
    return Error{"--collector.rdma_cm.create-groups: expected true or false, got " + Quote(create)};
  return std::unique_ptr<Source>(std::make_unique<RdmaCmSource>(env, create == "true"));
}

}  // namespace rocewatch::collectors
