// http::BasicAuthenticator's success cache (issue 28 item 2): a hit renews the entry, and an
// expired success is still known as one (the server keeps auth-pool room for it).

#include "http/basic_auth.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>

namespace rocewatch::http {
namespace {

// bcrypt, cost 4, of "s3cret" (as in web_config_test.cpp).
const std::map<std::string, std::string> kUsers = {
    {"alice", "$2b$04$FIWYvvElPBNBO.3aY1CaruBowNhi4n1DmfpzJKGLUJFSmk8q/9cP."}};

TEST(BasicAuth, AHitRenewsTheCachedSuccess) {
  BasicAuthenticator auth(std::chrono::seconds(2));
  const BasicCredentials good{"alice", "s3cret"};
  ASSERT_TRUE(auth.Verify(kUsers, good));
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  EXPECT_TRUE(auth.CachedAllows(kUsers, good));  // renews to 2 s from now
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  EXPECT_TRUE(auth.CachedAllows(kUsers, good));  // 2.6 s after the check: renewed
  EXPECT_EQ(auth.bcrypt_checks(), 1u);
}

TEST(BasicAuth, AnExpiredSuccessIsStillKnown) {
  BasicAuthenticator auth(std::chrono::seconds(1));
  const BasicCredentials good{"alice", "s3cret"};
  const BasicCredentials wrong{"alice", "guess"};
  EXPECT_FALSE(auth.SucceededBefore(kUsers, good));
  ASSERT_TRUE(auth.Verify(kUsers, good));
  EXPECT_FALSE(auth.Verify(kUsers, wrong));
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  EXPECT_FALSE(auth.CachedAllows(kUsers, good));  // expired: bcrypt again
  EXPECT_TRUE(auth.SucceededBefore(kUsers, good));
  EXPECT_FALSE(auth.SucceededBefore(kUsers, wrong));
  // A changed hash (a new password in the file) is a stranger again.
  const std::map<std::string, std::string> changed = {
      {"alice", "$2b$04$Wh/gjzuf4tRJoKSGDhyIge9sSn8dmD0jFcbcsn2xPwTjsvPNr3cDy"}};
  EXPECT_FALSE(auth.SucceededBefore(changed, good));
}

}  // namespace
}  // namespace rocewatch::http
