// What a hostile HTTP client sends before anything is authenticated: the request head
// (http/request_head.h), the router's decision (http/routes.h) and the Authorization
// header (http/basic_auth.h). A complete head consumed no more than the buffer, its path
// starts with '/', a bad one carries one of the refusal statuses, and routing is exact.

#include <cstddef>
#include <cstdint>

#include "fuzz_check.h"
#include "http/basic_auth.h"
#include "http/request_head.h"
#include "http/routes.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::http;
  const std::string_view text = rocewatch::fuzz::Text(data, size);
  const ParsedHead parsed = ParseRequestHead(text);
  if (parsed.kind == ParsedHead::Kind::kBad) {
    FUZZ_CHECK(parsed.status == 400 || parsed.status == 414 || parsed.status == 431 ||
               parsed.status == 505);
    return 0;
  }
  if (parsed.kind != ParsedHead::Kind::kComplete) return 0;
  FUZZ_CHECK(parsed.consumed <= text.size() && parsed.consumed <= RequestLimits{}.max_head_bytes);
  const RequestHead& head = parsed.head;
  FUZZ_CHECK(!head.path.empty() && head.path.front() == '/');
  FUZZ_CHECK(head.path.find_first_of("?#") == std::string::npos);
  Router router;
  router.Add(RouteSpec{"/metrics", nullptr, true, true, {}});
  router.Add(RouteSpec{"/", nullptr, false, false, {}});
  const Router::Decision d = router.Decide(head.method, head.path, true);
  if (d.route == Route::kServe) {
    FUZZ_CHECK(head.method == "GET" || head.method == "HEAD");
    FUZZ_CHECK(head.path == "/metrics" || head.path == "/");
  }
  FUZZ_CHECK(router.Decide(head.method, head.path, false).route == Route::kUnauthorized);
  if (const std::string* auth = head.Header("authorization")) {
    if (auto creds = ParseBasicAuthorization(*auth)) {
      FUZZ_CHECK(creds->user.find(':') == std::string::npos);
      FUZZ_CHECK(creds->user.find('\0') == std::string::npos &&
                 creds->password.find('\0') == std::string::npos);
    }
  }
  return 0;
}
