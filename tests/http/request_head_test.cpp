// http::ParseRequestHead: the framing and smuggling cases RFC 9112 makes errors (duplicate
// Content-Length, duplicate Host, Content-Length with Transfer-Encoding, obs-fold, bare LF,
// NUL and other controls), each refused with 400; and heads split at every byte parse to
// the same request as whole ones.

#include "http/request_head.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace rocewatch::http {
namespace {

using namespace std::string_literals;

ParsedHead Parse(const std::string& s) { return ParseRequestHead(s); }

TEST(RequestHead, ParsesAWholeHead) {
  const ParsedHead p = Parse("GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\nGET");
  ASSERT_EQ(p.kind, ParsedHead::Kind::kComplete) << p.reason;
  EXPECT_EQ(p.consumed, 51u);
  EXPECT_EQ(p.head.method, "GET");
  EXPECT_EQ(p.head.path, "/metrics");
  ASSERT_NE(p.head.Header("accept"), nullptr);
  EXPECT_EQ(*p.head.Header("accept"), "*/*");
}

// Every framing case a proxy could read otherwise: 400, with the reason.
TEST(RequestHead, RefusesAmbiguousFraming) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n",
       "more than one Content-Length header field"},
      {"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\n",
       "more than one content-length header field"},
      {"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "more than one Host header field"},
      {"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
       "both Content-Length and Transfer-Encoding"},
      {"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n",
       "more than one Transfer-Encoding header field"},
      {"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 1\r\n\r\n",
       "Content-Length is not a decimal number"},
      {"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
       "Content-Length is not a decimal number"},
      {"GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", "obsolete header line folding"},
      {"GET / HTTP/1.1\nHost: a\r\n\r\n", "line ended by a bare LF"},
      {"GET / HTTP/1.1\r\nHost: a\n\r\n", "line ended by a bare LF"},
      {"GET / HTTP/1.1\r\nHost: a\r\n\n", "line ended by a bare LF"},
      {"\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", "line ended by a bare LF"},
      {"GET / HTTP/1.1\r\nHost: a\r\nX: a\0b\r\n\r\n"s, "control character in a header value"},
      {"GET / HTTP/1.1\r\nHost: a\r\nX\0: b\r\n\r\n"s, "malformed header field name"},
      {"GET /\0 HTTP/1.1\r\nHost: a\r\n\r\n"s,
       "request target with control or non-ASCII characters"},
      {"GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", "control character in a header value"},
      {"GET / HTTP/1.1\r\nHost: a\r\nX: a\x01\r\n\r\n", "control character in a header value"},
      {"GET / HTTP/1.1\rHost: a\r\n\r\n", "malformed request line"},
      {"GET / HTTP/1.1\r\nHost : a\r\n\r\n", "malformed header field name"},
  };
  for (const auto& [head, reason] : cases) {
    const ParsedHead p = Parse(head);
    EXPECT_EQ(p.kind, ParsedHead::Kind::kBad) << head;
    EXPECT_EQ(p.status, 400) << head;
    EXPECT_EQ(p.reason, reason) << head;
  }
}

// A bare LF is refused as soon as its line is there, not only once the head is complete.
TEST(RequestHead, RefusesABareLfBeforeTheHeadEnds) {
  const ParsedHead p = Parse("GET / HTTP/1.1\r\nHost: a\nX-More: ");
  EXPECT_EQ(p.kind, ParsedHead::Kind::kBad);
  EXPECT_EQ(p.status, 400);
}

TEST(RequestHead, AcceptsEmptyLinesBeforeTheRequestLine) {
  const ParsedHead p = Parse("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
  ASSERT_EQ(p.kind, ParsedHead::Kind::kComplete) << p.reason;
  EXPECT_EQ(p.head.path, "/");
}

// Split at every byte: every prefix is incomplete, and the whole parses the same.
TEST(RequestHead, EveryPrefixIsIncomplete) {
  const std::string head =
      "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic YTpi\r\n\r\n";
  for (std::size_t n = 0; n < head.size(); ++n) {
    const ParsedHead p = Parse(head.substr(0, n));
    EXPECT_EQ(p.kind, ParsedHead::Kind::kIncomplete) << n << ": " << p.reason;
  }
  const ParsedHead whole = Parse(head);
  ASSERT_EQ(whole.kind, ParsedHead::Kind::kComplete);
  EXPECT_EQ(whole.consumed, head.size());
}

TEST(RequestHead, ParsesGetWithHeadersAndLeavesThePipelinedRest) {
  const std::string two =
      "GET /metrics?x=1 HTTP/1.1\r\nHost: h\r\nAccept-Encoding: gzip\r\n"
      "X-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\nGET / HTTP/1.1\r\n";
  ParsedHead p = ParseRequestHead(two);
  ASSERT_EQ(p.kind, ParsedHead::Kind::kComplete) << p.reason;
  EXPECT_EQ(p.head.method, "GET");
  EXPECT_EQ(p.head.target, "/metrics?x=1");
  EXPECT_EQ(p.head.path, "/metrics");
  ASSERT_NE(p.head.Header("accept-encoding"), nullptr);
  EXPECT_EQ(*p.head.Header("accept-encoding"), "gzip");
  EXPECT_EQ(*p.head.Header("x-prometheus-scrape-timeout-seconds"), "10");
  EXPECT_TRUE(p.head.WantsKeepAlive());
  EXPECT_FALSE(p.head.HasBody());
  EXPECT_EQ(two.substr(p.consumed), "GET / HTTP/1.1\r\n");
  EXPECT_EQ(ParseRequestHead(two.substr(p.consumed)).kind, ParsedHead::Kind::kIncomplete);
}

TEST(RequestHead, KeepAliveAndBodies) {
  auto head = [](const std::string& text) { return ParseRequestHead(text).head; };
  EXPECT_FALSE(head("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n").WantsKeepAlive());
  EXPECT_FALSE(head("GET / HTTP/1.0\r\n\r\n").WantsKeepAlive());
  EXPECT_TRUE(head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").WantsKeepAlive());
  EXPECT_TRUE(head("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n").HasBody());
  EXPECT_TRUE(head("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n").HasBody());
  EXPECT_EQ(head("GET http://example:9879/metrics?a HTTP/1.1\r\nHost: h\r\n\r\n").path, "/metrics");
  EXPECT_EQ(head("\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n").path, "/");
  // A bare LF ends no line (request_head_test.cpp: the framing cases).
  EXPECT_EQ(ParseRequestHead("GET / HTTP/1.1\nHost: h\n\n").status, 400);
}

TEST(RequestHead, RefusesOversizedAndMalformedHeads) {
  RequestLimits limits;
  const std::string long_line = "GET /" + std::string(100 * 1024, 'a');
  ParsedHead p = ParseRequestHead(long_line, limits);  // no line end yet: refused already
  EXPECT_EQ(p.kind, ParsedHead::Kind::kBad);
  EXPECT_EQ(p.status, 414);
  EXPECT_EQ(p.reason, "request line longer than 8192 bytes");
  std::string many = "GET / HTTP/1.1\r\nHost: h\r\n";
  for (int i = 0; i < 70; ++i) many += "X-" + std::to_string(i) + ": 1\r\n";
  EXPECT_EQ(ParseRequestHead(many + "\r\n").status, 431);
  const std::string big = "GET / HTTP/1.1\r\nHost: h\r\nX: " + std::string(20000, 'b');
  EXPECT_EQ(ParseRequestHead(big).status, 431);
  EXPECT_EQ(ParseRequestHead("GET / HTTP/1.1\r\n\r\n").status, 400);  // no Host
  EXPECT_EQ(ParseRequestHead("GET / HTTP/2.0\r\nHost: h\r\n\r\n").status, 505);
  EXPECT_EQ(ParseRequestHead("GET  / HTTP/1.1\r\nHost: h\r\n\r\n").status, 400);
  EXPECT_EQ(ParseRequestHead("GET /\x01 HTTP/1.1\r\nHost: h\r\n\r\n").status, 400);
  EXPECT_EQ(ParseRequestHead("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n").status, 400);
  EXPECT_EQ(ParseRequestHead("GET / HTTP/1.1\r\nHost h\r\n\r\n").status, 400);
  EXPECT_EQ(ParseRequestHead("G(T / HTTP/1.1\r\nHost: h\r\n\r\n").status, 400);
  EXPECT_EQ(ParseRequestHead("GET / HTTP/1.1\r\nHo").kind, ParsedHead::Kind::kIncomplete);
}

}  // namespace
}  // namespace rocewatch::http
