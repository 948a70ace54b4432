#include "lint/plan/gpudirect_load.h"

#include <regex>

namespace rocewatch::lint::plan {
namespace {

using i18n::Phrase;

const std::vector<std::string> kKeys = {"max_relation", "iommu_passthrough", "peer_memory",
                                        "min_max_read_request_bytes", "max_aer_correctable"};

bool Bool(JsonReader& l, const json& obj, const std::string& pointer, const std::string& key) {
  const json* v = JsonReader::Member(obj, key);
  if (v == nullptr) return false;
  if (!v->is_boolean()) {
    l.TypeError(JsonReader::Child(pointer, key), *v, Phrase::Of("plan.schema.kind.boolean", {}));
    return false;
  }
  return v->get<bool>();
}

}  // namespace

const std::vector<std::string>& GpuDirectKeys() { return kKeys; }

std::optional<GpuDirectSettings> LoadGpuDirect(JsonReader& l, const json& profile, const std::string& pointer,
                                               const Phrase& what) {
  const json* v = JsonReader::Member(profile, "gpudirect");
  if (v == nullptr) return std::nullopt;
  const std::string gp = JsonReader::Child(pointer, "gpudirect");
  i18n::StoredArgs args = {{"key", "gpudirect"}};
  AddPhraseArg(args, "what", what);
  if (!l.Object(*v, gp, kKeys, {}, Phrase::Of("plan.schema.member_of", std::move(args)))) return std::nullopt;
  GpuDirectSettings s;
  std::vector<std::string> relations(GpuRelations().begin(), GpuRelations().end());
  s.max_relation = l.Enum(*v, gp, "max_relation", relations);
  s.iommu_passthrough = Bool(l, *v, gp, "iommu_passthrough");
  s.peer_memory = Bool(l, *v, gp, "peer_memory");
  s.min_max_read_request_bytes = l.Integer(*v, gp, "min_max_read_request_bytes", 128, 4096);
  s.max_aer_correctable = l.Integer(*v, gp, "max_aer_correctable", 0);
  return s;
}

std::optional<std::string> LoadNicGpu(JsonReader& l, const json& nic, const std::string& pointer) {
  auto gpu = l.String(nic, pointer, "gpu");
  if (!gpu) return std::nullopt;
  static const std::regex kAddress("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-1][0-9a-f]\\.[0-7]");
  if (*gpu == "nearest" || std::regex_match(*gpu, kAddress)) return gpu;
  l.TypeError(JsonReader::Child(pointer, "gpu"), *JsonReader::Member(nic, "gpu"),
              Phrase::Of("plan.schema.kind.gpu", {}));
  return std::nullopt;
}

}  // namespace rocewatch::lint::plan
