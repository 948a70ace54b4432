// http::WebConfigReloader against changes an attacker or a slip makes (issue 28 items 3 and
// 4): a FIFO or a device in place of the certificate or the web config is refused without
// blocking, and a change that removes every user is refused and the old config stays.

#include "http/web_config_reloader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "common/test_dir.h"
#include "http/self_signed.h"

namespace rocewatch::http {
namespace {

using rocewatch::testing::TestDir;

// bcrypt, cost 4, of "s3cret" (as in web_config_test.cpp).
constexpr const char* kHash = "$2b$04$FIWYvvElPBNBO.3aY1CaruBowNhi4n1DmfpzJKGLUJFSmk8q/9cP.";

void MakeFifo(const std::string& path) {
  ::unlink(path.c_str());
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
}

TEST(WebConfigReloader, AFifoInPlaceOfTheCertificateIsRefusedWithoutBlocking) {
  TestDir dir;
  const testing::Pem pem = testing::SelfSigned("127.0.0.1");
  dir.Write("server.crt", pem.cert);
  dir.Write("server.key", pem.key);
  dir.Write("web.yml", "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n");
  auto r = WebConfigReloader::Open(dir / "web.yml", std::chrono::milliseconds(0));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto before = (*r)->Current();
  MakeFifo(dir / "server.crt");
  EXPECT_FALSE((*r)->CheckNow());  // returns: the FIFO is never opened
  EXPECT_EQ((*r)->Current(), before);
  // At startup the same file is an error naming it and what it is.
  auto loaded = LoadWebConfig(dir / "web.yml");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("server.crt: cannot read"), std::string::npos)
      << loaded.error().message;
  EXPECT_NE(loaded.error().message.find("not a regular file (a FIFO)"), std::string::npos)
      << loaded.error().message;
}

TEST(WebConfigReloader, AFifoOrADeviceAsTheWebConfigIsRefused) {
  TestDir dir;
  MakeFifo(dir / "web.yml");
  auto fifo = ReadWebConfigFile(dir / "web.yml");
  ASSERT_FALSE(fifo.ok());
  EXPECT_EQ(fifo.error().message,
            dir / "web.yml" + ": cannot read the web config: not a regular file (a FIFO)");
  auto device = ReadWebConfigFile("/dev/zero");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.error().message,
            "/dev/zero: cannot read the web config: not a regular file (a character device)");
}

TEST(WebConfigReloader, AnEmptiedWebConfigIsRefusedAndTheUsersStay) {
  TestDir dir;
  dir.Write("web.yml", "basic_auth_users:\n  alice: " + std::string(kHash) + "\n");
  auto r = WebConfigReloader::Open(dir / "web.yml", std::chrono::milliseconds(0));
  ASSERT_TRUE(r.ok()) << r.error().message;
  dir.Write("web.yml", "");  // : > web.yml
  EXPECT_FALSE((*r)->CheckNow());
  EXPECT_EQ((*r)->Current()->config.users.count("alice"), 1u);
  dir.Write("web.yml", "basic_auth_users: {}\n# every user removed\n");
  EXPECT_FALSE((*r)->CheckNow());
  EXPECT_EQ((*r)->Current()->config.users.count("alice"), 1u);
  EXPECT_EQ((*r)->reloads(), 0u);
  // Replacing the users is a reload like any other.
  dir.Write("web.yml", "basic_auth_users:\n  bob: " + std::string(kHash) + "\n");
  EXPECT_TRUE((*r)->CheckNow());
  EXPECT_EQ((*r)->Current()->config.users.count("bob"), 1u);
}

// The watcher thread reloads on its own: Current() only hands out what is in force.
TEST(WebConfigReloader, TheWatcherReloadsOffTheCallersThread) {
  TestDir dir;
  dir.Write("web.yml", "basic_auth_users:\n  alice: " + std::string(kHash) + "\n");
  auto r = WebConfigReloader::Open(dir / "web.yml", std::chrono::milliseconds(10));
  ASSERT_TRUE(r.ok()) << r.error().message;
  dir.Write("web.yml", "basic_auth_users:\n  bob: " + std::string(kHash) + "\n# longer\n");
  for (int i = 0; i < 500 && (*r)->reloads() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ((*r)->reloads(), 1u);
  EXPECT_EQ((*r)->Current()->config.users.count("bob"), 1u);
}

}  // namespace
}  // namespace rocewatch::http
