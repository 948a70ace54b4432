#include "http/routes.h"


namespace rocewatch::http {

void Router::Add(RouteSpec spec) { routes_.push_back(std::move(spec)); }

Router::Decision Router::Decide(std::string_view method, std::string_view path,
                                bool authorized) const {
  if (!authorized) return {Route::kUnauthorized, nullptr};
  if (method != "GET" && method != "HEAD") return {Route::kMethodNotAllowed, nullptr};
  for (const RouteSpec& spec : routes_) {
    if (spec.path == path) return {Route::kServe, &spec};
  }
  return {Route::kNotFound, nullptr};
}

std::string_view StatusText(int status) {
  switch (status) {
    case 200:
      return "200 OK";
    case 400:
      return "400 Bad Request";
    case 401:
      return "401 Unauthorized";
    case 404:
      return "404 Not Found";
    case 405:
      return "405 Method Not Allowed";
    case 408:
      return "408 Request Timeout";
    case 414:
      return "414 URI Too Long";
    case 431:
      return "431 Request Header Fields Too Large";
    case 500:
      return "500 Internal Server Error";
    case 503:
      return "503 Service Unavailable";
    case 505:
      return "505 HTTP Version Not Supported";
    default:
      return "500 Internal Server Error";
  }
}

HttpResponse RouteResponse(Route route, std::string_view realm) {
  HttpResponse r;
  auto text = [&r](int status, std::string body) {
    r.status = status;
    r.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
    r.body = std::move(body);
  };
  switch (route) {
    case Route::kUnauthorized:
      text(401, "Unauthorized\n");
      r.headers.emplace_back("WWW-Authenticate",
                             "Basic realm=\"" + std::string(realm) + "\", charset=\"UTF-8\"");
      break;
    case Route::kMethodNotAllowed:
      text(405, "Method Not Allowed\n");
      r.headers.emplace_back("Allow", "GET, HEAD");
      break;
    case Route::kNotFound:
    case Route::kServe:  // answered by the route's handler; never asked for here
      text(404, "Not Found\n");
      break;
  }
  return r;
}

std::string ResponseHead(const HttpResponse& r, std::optional<std::size_t> content_length,
                         bool keep_alive, const HeaderList& extra_headers) {
  std::string out = "HTTP/1.1 ";
  out += StatusText(r.status);
  out += "\r\n";
  for (const auto& [name, value] : r.headers) out += name + ": " + value + "\r\n";
  for (const auto& [name, value] : extra_headers) out += name + ": " + value + "\r\n";
  if (content_length) out += "Content-Length: " + std::to_string(*content_length) + "\r\n";
  out += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
  out += "\r\n";
  return out;
}

}  // namespace rocewatch::http
