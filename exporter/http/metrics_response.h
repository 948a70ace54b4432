#pragma once

// The answer to a scrape, the same for both transports (civetweb for plain
// HTTP, the TLS listener): the exposition text of a coalesced pass, gzipped
// when the client accepts it.

#include <memory>
#include <optional>
#include <string_view>

#include "collect/scrape_coalescer.h"
#include "http/routes.h"

namespace rocewatch::http {

// `accept_encoding`: the request's Accept-Encoding header, if any. Errors
// become a 500 with a short text body; nothing throws.
HttpResponse MetricsResponse(const ScrapeCoalescer& metrics, std::optional<std::string_view> accept_encoding);

}  // namespace rocewatch::http
