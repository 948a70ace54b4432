// http::Server in process on port 0, driven over real loopback sockets: requests split at
// every byte and at random points (plain and TLS), pipelined requests answered without
// waiting for the loop's timeout, every framing case answered 400 and closed, the
// non-reading pipeliners of issue 28 against a scraper from the same address (and from four
// others), a wrong-password flood against a correct-password scraper, and a FIFO
// certificate and an emptied web config that change nothing.

#include "http/server.h"

#include <crypt.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/test_dir.h"
#include "http/self_signed.h"
#include "http/test_client.h"
#include "http/web_config_reloader.h"

namespace rocewatch::http {
namespace {

using rocewatch::testing::TestDir;
using testing::TestClient;

const std::string kBig(64 * 1024, 'm');  // a metrics page the non-readers never take

Router TestRouter() {
  Router router;
  RouteSpec metrics;
  metrics.path = "/metrics";
  metrics.offload = true;
  metrics.handler = [](const RequestHead&) {
    return HttpResponse{200, {{"Content-Type", "text/plain"}}, kBig, nullptr, nullptr};
  };
  router.Add(std::move(metrics));
  RouteSpec small;
  small.path = "/small";
  small.handler = [](const RequestHead& r) {
    return HttpResponse{
        200, {{"Content-Type", "text/plain"}}, "small " + r.target, nullptr, nullptr};
  };
  router.Add(std::move(small));
  return router;
}

std::unique_ptr<Server> StartServer(ServerLimits limits = {},
                                    std::shared_ptr<WebConfigReloader> web = nullptr) {
  ServerConfig config;
  config.listen = *ParseListenAddress("127.0.0.1:0");
  config.router = TestRouter();
  config.limits = limits;
  config.web_config = std::move(web);
  auto server = Server::Start(std::move(config));
  EXPECT_TRUE(server.ok()) << server.error().message;
  return server.ok() ? std::move(*server) : nullptr;
}

std::string Get(const std::string& target, const std::string& extra = "") {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + "\r\n";
}

// ---------------------------------------------------------------------------------------
// Splitting

TEST(Server, RequestsSplitAtEveryByteAreAnswered) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  TestClient c(server->port());
  ASSERT_TRUE(c.connected());
  const std::string request = Get("/small?q=1");
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(c.Send(request, 1));
    const testing::Answer a = c.Read();
    EXPECT_EQ(a.status, 200);
    EXPECT_EQ(a.body, "small /small?q=1");
  }
}

TEST(Server, PipelinedRequestsSplitAtRandomPointsAreAnsweredInOrder) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  std::mt19937 rng(28);
  for (int run = 0; run < 20; ++run) {
    TestClient c(server->port());
    ASSERT_TRUE(c.connected());
    std::string stream;
    for (int i = 0; i < 5; ++i) stream += Get("/small?n=" + std::to_string(i));
    for (std::size_t off = 0; off < stream.size();) {
      const std::size_t n = std::min<std::size_t>(1 + rng() % 40, stream.size() - off);
      ASSERT_TRUE(c.Send(stream.substr(off, n)));
      off += n;
    }
    for (int i = 0; i < 5; ++i) {
      const testing::Answer a = c.Read();
      EXPECT_EQ(a.status, 200);
      EXPECT_EQ(a.body, "small /small?n=" + std::to_string(i));
    }
  }
}

struct TlsDir {
  TestDir dir;
  std::string path;
  explicit TlsDir(const std::string& extra = "") {
    const testing::Pem pem = testing::SelfSigned("127.0.0.1");
    dir.Write("server.crt", pem.cert);
    dir.Write("server.key", pem.key);
    path = dir / "web.yml";
    dir.Write("web.yml",
              "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n" + extra);
  }
};

TEST(Server, TlsRecordsSplitAtEveryByteAndRandomPoints) {
  TlsDir d;
  auto web = WebConfigReloader::Open(d.path, std::chrono::milliseconds(0));
  ASSERT_TRUE(web.ok()) << web.error().message;
  auto server = StartServer({}, *web);
  ASSERT_NE(server, nullptr);
  ASSERT_TRUE(server->tls());
  {
    TestClient c(server->port());
    ASSERT_TRUE(c.StartTls(1));  // the handshake's records cut into one-byte segments
    ASSERT_TRUE(c.Send(Get("/small?tls=1"), 1));  // one-byte records
    const testing::Answer a = c.Read();
    EXPECT_EQ(a.status, 200);
    EXPECT_EQ(a.body, "small /small?tls=1");
  }
  std::mt19937 rng(1334);
  for (int run = 0; run < 5; ++run) {
    TestClient c(server->port());
    ASSERT_TRUE(c.StartTls(1 + rng() % 300));
    ASSERT_TRUE(c.Send(Get("/small?a") + Get("/small?b"), 1 + rng() % 30));
    EXPECT_EQ(c.Read().body, "small /small?a");
    EXPECT_EQ(c.Read().body, "small /small?b");
  }
}

// ---------------------------------------------------------------------------------------
// Pipelining: every buffered request is answered on this turn of the loop, not two per
// epoll timeout (issue 28 item 6). The figure is printed, not asserted.

TEST(Server, AThousandPipelinedRequestsAreAllAnswered) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  TestClient c(server->port());
  std::string stream;
  for (int i = 0; i < 1000; ++i) stream += Get("/nope" + std::to_string(i));
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(c.Send(stream));
  int answered = 0;
  for (int i = 0; i < 1000; ++i) {
    const testing::Answer a = c.Read();
    if (a.status != 404) break;
    ++answered;
  }
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(answered, 1000);
  std::printf("1000 pipelined 404s answered in %.1f ms\n",
              std::chrono::duration<double, std::milli>(took).count());
}

// ---------------------------------------------------------------------------------------
// Framing (issue 28 item 5): 400 and the connection closed.

TEST(Server, EveryFramingCaseIsAnswered400AndClosed) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  using namespace std::string_literals;
  const std::vector<std::string> cases = {
      "GET /small HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 7\r\n\r\n",
      "GET /small HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
      "GET /small HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n",
      "GET /small HTTP/1.1\r\nHost: a\r\nX: y\r\n  folded\r\n\r\n",
      "GET /small HTTP/1.1\nHost: a\n\n",
      "GET /small HTTP/1.1\r\nHost: a\r\nX: \0\r\n\r\n"s,
      "GET /small HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n",
  };
  for (const std::string& request : cases) {
    TestClient c(server->port());
    ASSERT_TRUE(c.Send(request + Get("/small")));  // a smuggled second request behind it
    const testing::Answer a = c.Read();
    EXPECT_EQ(a.status, 400) << request;
    EXPECT_NE(a.head.find("Connection: close"), std::string::npos) << a.head;
    EXPECT_TRUE(c.Closed()) << request;  // and the second is never answered
  }
  // An unterminated line: the client ends its side inside the head.
  TestClient c(server->port());
  ASSERT_TRUE(c.Send("GET /small HTTP/1.1\r\nHost: a"));
  ::shutdown(c.fd(), SHUT_WR);
  EXPECT_EQ(c.Read().status, 400);
  EXPECT_TRUE(c.Closed());
}

// ---------------------------------------------------------------------------------------
// Progress-based eviction (issue 28 item 1).

// Opens `n` connections from `from` that pipeline 200 GET /metrics with a 2 KiB receive
// buffer and never read.
std::vector<std::unique_ptr<TestClient>> NonReaders(int port, const char* from, int n) {
  std::string stream;
  for (int i = 0; i < 200; ++i) stream += Get("/metrics");
  std::vector<std::unique_ptr<TestClient>> out;
  for (int i = 0; i < n; ++i) {
    auto c = std::make_unique<TestClient>(port, from, 2048);
    if (!c->connected()) continue;
    // Non-blocking send: what does not fit stays unsent, as the attacker does not care.
    (void)::send(c->fd(), stream.data(), stream.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    out.push_back(std::move(c));
  }
  return out;
}

ServerLimits SmallLimits() {
  ServerLimits l;
  l.max_connections = 64;
  l.max_connections_per_client = 16;
  l.stall_grace = std::chrono::milliseconds(300);
  l.stall_timeout = std::chrono::minutes(5);  // eviction alone must make room
  l.write_timeout = std::chrono::minutes(5);
  l.send_buffer_bytes = 16 * 1024;
  return l;
}

// A scrape from the attackers' own address after they have stalled.
void ExpectScrapeSucceeds(Server& server) {
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // past stall_grace
  for (int scrape = 0; scrape < 5; ++scrape) {
    TestClient c(server.port());
    ASSERT_TRUE(c.Send(Get("/metrics")));
    const testing::Answer a = c.Read();
    EXPECT_EQ(a.status, 200) << "scrape " << scrape;
    EXPECT_EQ(a.body.size(), kBig.size());
  }
}

TEST(Server, NonReadingPipelinersFromTheScrapersAddressDoNotLockItOut) {
  auto server = StartServer(SmallLimits());
  ASSERT_NE(server, nullptr);
  auto attackers = NonReaders(server->port(), "127.0.0.1", 32);
  ExpectScrapeSucceeds(*server);
  // The address's 16 places were all the attackers' when the first scrape came, so it evicted
  // one. How many more were evicted depends on timing only (CI once saw 1 under the
  // sanitizers): an attacker beyond the 16th evicts one whose answers wait unread, or is
  // refused if it came before any did, and each scrape leaves its place free for the next.
  EXPECT_GE(server->stats().evicted, 1u);
  // A stalled connection's pipelined answers: at most max_unread_answers were queued, then
  // it was told Connection: close. No stuck connection holds more than its bounded buffer.
}

TEST(Server, NonReadingPipelinersFromFourOtherAddressesDoNotLockOutTheScraper) {
  auto server = StartServer(SmallLimits());
  ASSERT_NE(server, nullptr);
  std::vector<std::unique_ptr<TestClient>> attackers;
  for (const char* from : {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"}) {
    for (auto& c : NonReaders(server->port(), from, 16)) attackers.push_back(std::move(c));
  }
  ExpectScrapeSucceeds(*server);
  EXPECT_GE(server->stats().evicted, 1u);  // the total was full: a stalled one made room
}

// Before any of them has stalled: a pipeliner whose earlier answer still waits in the kernel's
// send queue leaves answers unread, and that alone makes it the one evicted (stall_grace is
// out of reach here).
TEST(Server, NonReadingPipelinersAreEvictedBeforeTheyStall) {
  ServerLimits limits = SmallLimits();
  limits.stall_grace = std::chrono::minutes(5);
  auto server = StartServer(limits);
  ASSERT_NE(server, nullptr);
  auto attackers = NonReaders(server->port(), "127.0.0.1", 16);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // their second answers queue
  for (int scrape = 0; scrape < 5; ++scrape) {
    TestClient c(server->port());
    ASSERT_TRUE(c.Send(Get("/metrics")));
    const testing::Answer a = c.Read();
    EXPECT_EQ(a.status, 200) << "scrape " << scrape;
  }
  EXPECT_GE(server->stats().evicted, 1u);  // the first scrape made room; later ones reuse it
}

// A client that stops reading while its answer is written is closed (abortively) once it has
// made no progress for stall_timeout, whatever the write deadline.
TEST(Server, AStalledWriterIsClosedAtTheStallTimeout) {
  ServerLimits l = SmallLimits();
  l.stall_timeout = std::chrono::milliseconds(500);
  auto server = StartServer(l);
  ASSERT_NE(server, nullptr);
  auto attackers = NonReaders(server->port(), "127.0.0.1", 1);
  ASSERT_EQ(attackers.size(), 1u);
  // Reading now finds a reset (SO_LINGER 0) or the end after what was queued.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_GE(server->stats().timed_out, 1u);
}

// ---------------------------------------------------------------------------------------
// The auth pool (issue 28 item 2).

std::string Bcrypt(const std::string& password, int cost) {
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  if (crypt_gensalt_rn("$2b$", static_cast<unsigned long>(cost), nullptr, 0, salt, sizeof salt) ==
      nullptr)
    return "";
  crypt_data data{};
  const char* out = crypt_r(password.c_str(), salt, &data);
  return out != nullptr ? out : "";
}

std::string BasicHeader(const std::string& user_pass) {
  // base64 of "user:pass", by hand for the two credentials used here.
  static const char* kB64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < user_pass.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(user_pass[i]) << 16) |
                       (static_cast<unsigned char>(user_pass[i + 1]) << 8) |
                       static_cast<unsigned char>(user_pass[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kB64[(v >> s) & 63];
  }
  if (i < user_pass.size()) {
    unsigned v = static_cast<unsigned char>(user_pass[i]) << 16;
    if (i + 1 < user_pass.size()) v |= static_cast<unsigned char>(user_pass[i + 1]) << 8;
    out += kB64[(v >> 18) & 63];
    out += kB64[(v >> 12) & 63];
    out += i + 1 < user_pass.size() ? kB64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return "Authorization: Basic " + out + "\r\n";
}

TEST(Server, CorrectPasswordScrapesSucceedThroughAWrongPasswordFlood) {
  TestDir dir;
  const std::string hash = Bcrypt("s3cret", 10);
  ASSERT_EQ(hash.rfind("$2b$10$", 0), 0u);
  dir.Write("web.yml", "basic_auth_users:\n  prometheus: " + hash + "\n");
  auto web = WebConfigReloader::Open(dir / "web.yml", std::chrono::milliseconds(0));
  ASSERT_TRUE(web.ok()) << web.error().message;
  auto server = StartServer({}, *web);
  ASSERT_NE(server, nullptr);
  std::atomic<bool> stop{false};
  std::atomic<int> flood_answers{0};
  std::vector<std::thread> flood;
  for (const char* from : {"127.0.0.2", "127.0.0.3"}) {
    for (int t = 0; t < 12; ++t) {
      flood.emplace_back([&, from] {
        while (!stop) {
          TestClient c(server->port(), from);
          if (!c.Send(Get("/metrics", BasicHeader("prometheus:wrong")))) continue;
          if (c.Read(5000).status != 0) flood_answers += 1;
        }
      });
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the flood fills the pool
  int ok = 0;
  for (int scrape = 0; scrape < 10; ++scrape) {
    TestClient c(server->port());
    ASSERT_TRUE(c.Send(Get("/metrics", BasicHeader("prometheus:s3cret"))));
    const testing::Answer a = c.Read();
    EXPECT_EQ(a.status, 200) << "scrape " << scrape << ": " << a.head;
    ok += a.status == 200;
  }
  stop = true;
  for (auto& t : flood) t.join();
  EXPECT_EQ(ok, 10);
  EXPECT_GT(flood_answers.load(), 0);
  EXPECT_GT(server->stats().busy, 0u);  // the flood did overrun its shares
}

// ---------------------------------------------------------------------------------------
// Reloads (issue 28 items 3 and 4): a FIFO certificate, an emptied web config.

TEST(Server, AFifoCertificateChangesNothing) {
  TlsDir d;
  auto web = WebConfigReloader::Open(d.path, std::chrono::milliseconds(20));
  ASSERT_TRUE(web.ok()) << web.error().message;
  auto server = StartServer({}, *web);
  ASSERT_NE(server, nullptr);
  ::unlink((d.dir / "server.crt").c_str());
  ASSERT_EQ(::mkfifo((d.dir / "server.crt").c_str(), 0600), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the watcher saw it
  for (int i = 0; i < 3; ++i) {
    TestClient c(server->port());
    ASSERT_TRUE(c.StartTls());
    ASSERT_TRUE(c.Send(Get("/small")));
    EXPECT_EQ(c.Read(5000).status, 200);
  }
  EXPECT_EQ((*web)->reloads(), 0u);
}

TEST(Server, AnEmptiedWebConfigKeepsAuthenticationOn) {
  TestDir dir;
  dir.Write("web.yml", "basic_auth_users:\n  prometheus: " + Bcrypt("s3cret", 4) + "\n");
  auto web = WebConfigReloader::Open(dir / "web.yml", std::chrono::milliseconds(0));
  ASSERT_TRUE(web.ok()) << web.error().message;
  auto server = StartServer({}, *web);
  ASSERT_NE(server, nullptr);
  dir.Write("web.yml", "");
  EXPECT_FALSE((*web)->CheckNow());
  TestClient c(server->port());
  ASSERT_TRUE(c.Send(Get("/small")));
  EXPECT_EQ(c.Read().status, 401);
  ASSERT_TRUE(c.Send(Get("/small", BasicHeader("prometheus:s3cret"))));
  EXPECT_EQ(c.Read().status, 200);
}

}  // namespace
}  // namespace rocewatch::http
