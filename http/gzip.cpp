#include "http/gzip.h"

#include <zlib.h>

#include "rocewatch/strings.h"

namespace rocewatch::http {

bool AcceptsGzip(std::string_view accept_encoding) {
  for (std::string_view item : Split(accept_encoding, ',')) {
    item = Trim(item);
    std::string_view coding = item;
    std::string_view params;
    if (auto semi = item.find(';'); semi != std::string_view::npos) {
      coding = Trim(item.substr(0, semi));
      params = Trim(item.substr(semi + 1));
    }
    std::string lower(coding);
    for (char& c : lower) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower != "gzip" && lower != "x-gzip" && lower != "*") continue;
    if (params.size() >= 2 && (params[0] == 'q' || params[0] == 'Q') && params[1] == '=') {
      auto q = ParseDouble(params.substr(2));
      if (q && *q <= 0) continue;
    }
    return true;
  }
  return false;
}

std::optional<std::string> GzipCompress(std::string_view data) {
  z_stream zs{};
  // 15 window bits + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return std::nullopt;
  std::string out;
  out.resize(deflateBound(&zs, static_cast<uLong>(data.size())));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  const std::size_t produced = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return std::nullopt;
  out.resize(produced);
  return out;
}

}  // namespace rocewatch::http
