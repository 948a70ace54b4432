#include "lint/observe/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <mutex>

#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {
namespace {

struct Sink {
  std::string* body;
  std::size_t max_bytes;
  bool too_large = false;
};

// The capacity to grow a body of `capacity` bytes to, so that it can take `needed` bytes.
// Doubling while the new capacity stays at or below half the limit, then the limit itself: a
// growth copies at most `capacity` bytes into a new buffer, so old and new together never hold
// more than the limit, and a body costs at most its limit at any moment (docs/security.md).
std::size_t GrownCapacity(std::size_t capacity, std::size_t needed, std::size_t max_bytes) {
  std::size_t grown = std::max<std::size_t>({needed, 2 * capacity, 64u << 10});
  return grown > max_bytes / 2 ? std::max(needed, max_bytes) : grown;
}

std::size_t Write(char* data, std::size_t size, std::size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  std::size_t n = size * count;
  if (sink->body->size() + n > sink->max_bytes) {
    sink->too_large = true;
    std::string().swap(*sink->body);  // give the memory back now, not when the request ends
    return 0;  // makes curl stop with CURLE_WRITE_ERROR
  }
  if (sink->body->size() + n > sink->body->capacity())
    sink->body->reserve(GrownCapacity(sink->body->capacity(), sink->body->size() + n, sink->max_bytes));
  sink->body->append(data, n);
  return n;
}

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

std::string HttpResponse::Describe() const {
  if (!error.empty()) return error;
  std::string first = body.substr(0, body.find('\n'));
  if (first.size() > 200) first = first.substr(0, 200) + "…";
  std::string out = "HTTP " + std::to_string(status);
  if (status >= 300 && status < 400)
    out += redirect.empty() ? " (a redirect without a Location; roce-lint follows none)"
                            : " (a redirect to " + Quote(redirect, 200) + "; roce-lint follows none: give that URL)";
  return out + (first.empty() ? "" : ": " + escape::TerminalText(first));
}

std::string UrlEncode(std::string_view text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

HttpResponse Fetch(const HttpRequest& request) {
  GlobalInit();
  HttpResponse response;
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    response.error = "cannot initialise libcurl";
    return response;
  }
  Sink sink{&response.body, request.max_bytes};
  char errbuf[CURL_ERROR_SIZE] = {};
  curl_slist* headers = nullptr;
  for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());
  long timeout_ms = static_cast<long>(request.timeout_seconds * 1000);
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for timeouts
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip and deflate
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(request.max_bytes));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Write);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "roce-lint");
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  if (headers != nullptr) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (request.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
  if (!request.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, request.ca_file.c_str());
  if (!request.client_cert.empty()) {
    curl_easy_setopt(curl, CURLOPT_SSLCERT, request.client_cert.c_str());
    curl_easy_setopt(curl, CURLOPT_SSLKEY, request.client_key.c_str());
  }
  if (!request.username.empty()) {
    curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(curl, CURLOPT_USERNAME, request.username.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, request.password.c_str());
  }
  CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  if (response.status >= 300 && response.status < 400) {
    char* location = nullptr;
    if (curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location != nullptr)
      response.redirect = location;
  }
  if (rc != CURLE_OK) {
    if (sink.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
      response.error = "body larger than " + std::to_string(request.max_bytes) + " bytes";
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "timed out after %g s", request.timeout_seconds);
      response.error = buf;
    } else {
      response.error = errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc);
    }
    response.body.clear();
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return response;
}

}  // namespace rocewatch::lint::observe
