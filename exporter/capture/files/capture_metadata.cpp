#include "exporter/capture/files/capture_metadata.h"

#include <cerrno>

#include <nlohmann/json.hpp>

#include "exporter/fs/beneath.h"
#include "rocewatch/json_duplicate_key.h"

namespace rocewatch::replay {
namespace {

using Json = nlohmann::json;

// An optional string member: absent or null leaves `out` empty, another type is an error.
Status OptionalString(const Json& doc, const char* key, const std::string& where,
                      std::string& out) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return {};
  if (!it->is_string()) return Error{where + ": \"" + key + "\" must be a string"};
  out = it->get<std::string>();
  return {};
}

}  // namespace

std::string CaptureMetadata::ToJson() const {
  // ordered_json: the file reads in this order, format and version first.
  nlohmann::ordered_json doc = {{"format", kCaptureFormat}, {"version", kCaptureVersion},
                                {"hostname", hostname},     {"kernel", kernel},
                                {"created_by", created_by}};
  if (created_unix) doc["created_unix"] = *created_unix;
  doc["description"] = description;
  doc["collectors"] = collectors;
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string CaptureMetadata::Summary() const {
  std::string out = hostname.empty() ? "unknown host" : hostname;
  if (!kernel.empty()) out += ", kernel " + kernel;
  if (!created_by.empty()) out += ", " + created_by;
  return out;
}

Result<CaptureMetadata> ParseCaptureMetadata(std::string_view text, const std::string& where) {
  Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Error{where + ": not a JSON object"};
  if (auto dup = FindDuplicateJsonKey(text)) return Error{where + ": " + DuplicateKeyMessage(*dup)};
  auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || *format != kCaptureFormat)
    return Error{where + ": \"format\" must be \"" + std::string(kCaptureFormat) +
                 "\" (not a roce_exporter capture)"};
  auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer())
    return Error{where + ": \"version\" must be an integer"};
  if (*version != kCaptureVersion)
    return Error{where + ": capture layout version " + version->dump() + "; this roce_exporter " +
                 "reads version " + std::to_string(kCaptureVersion)};

  CaptureMetadata m;
  for (auto [key, out] : {std::pair{"hostname", &m.hostname}, {"kernel", &m.kernel},
                          {"created_by", &m.created_by}, {"description", &m.description}}) {
    Status ok = OptionalString(doc, key, where, *out);
    if (!ok.ok()) return ok.error();
  }
  if (auto it = doc.find("created_unix"); it != doc.end() && !it->is_null()) {
    if (!it->is_number_integer()) return Error{where + ": \"created_unix\" must be an integer"};
    m.created_unix = it->get<std::int64_t>();
  }
  if (auto it = doc.find("collectors"); it != doc.end() && !it->is_null()) {
    if (!it->is_array()) return Error{where + ": \"collectors\" must be a list of names"};
    for (const Json& name : *it) {
      if (!name.is_string()) return Error{where + ": \"collectors\" must be a list of names"};
      m.collectors.push_back(name.get<std::string>());
    }
  }
  return m;
}

Result<std::optional<CaptureMetadata>> LoadCaptureMetadata(const std::string& capture_dir) {
  const std::string path = capture_dir + "/capture.json";
  auto text = fs::ReadFileBeneath(capture_dir, "capture.json", 1u << 20);
  if (!text) {
    if (text.error().code == ENOENT) return std::optional<CaptureMetadata>();
    return text.error();
  }
  auto meta = ParseCaptureMetadata(*text, path);
  if (!meta) return meta.error();
  return std::optional<CaptureMetadata>(std::move(*meta));
}

}  // namespace rocewatch::replay
