#include "http/server_loop.h"

namespace rocewatch::http {

// bcrypt, off the loop: the connection holds no thread while it waits. Each client address
// has a share of the pool, and credentials that succeeded before have room kept and go
// first, so a flood of wrong passwords from anywhere delays a known scraper by one check.
void Server::Loop::Authenticate(ServerConnection* c, BasicCredentials credentials) {
  const ServerLimits& l = cfg_.limits;
  const bool known = auth_->SucceededBefore(c->config->config.users, credentials);
  std::size_t& mine = auth_per_client_[c->client];
  const std::size_t open_room =
      l.max_queued_auth > l.auth_reserved ? l.max_queued_auth - l.auth_reserved : 1;
  const bool room = known ? auth_outstanding_ < std::max(l.max_queued_auth, open_room)
                          : auth_outstanding_ < open_room &&
                                mine < std::max<std::size_t>(1, l.max_auth_per_client);
  if (!room) {
    if (mine == 0) auth_per_client_.erase(c->client);
    OPENSSL_cleanse(credentials.password.data(), credentials.password.size());
    stats_.busy += 1;
    Refuse(c, 503, "too many authentication checks in progress");
    return;
  }
  c->state = State::kAuth;
  c->deadline = Clock::time_point::max();
  Interest(c, 0);
  const bool queued = auth_pool_->TrySubmit(
      [mailbox = mailbox_, auth = auth_, config = c->config, id = c->id, client = c->client,
       creds = std::move(credentials)]() mutable {
        Completion done;
        done.conn = id;
        done.client = std::move(client);
        done.auth = true;
        done.allowed = auth->Verify(config->config.users, creds);
        OPENSSL_cleanse(creds.password.data(), creds.password.size());
        mailbox->Post(std::move(done));
      },
      known);
  if (!queued) {
    if (mine == 0) auth_per_client_.erase(c->client);
    stats_.busy += 1;
    Refuse(c, 503, "too many authentication checks in progress");
    return;
  }
  mine += 1;
  auth_outstanding_ += 1;
}

void Server::Loop::Mail() {
  // Resets the counter; EAGAIN (nothing posted since the last read) leaves nothing to do.
  eventfd_t count = 0;
  ::eventfd_read(mailbox_->event_fd, &count);
  std::vector<Completion> items;
  {
    std::lock_guard<std::mutex> lock(mailbox_->mu);
    items.swap(mailbox_->items);
  }
  for (Completion& done : items) {
    if (done.auth) {
      auth_outstanding_ -= 1;
      if (auto share = auth_per_client_.find(done.client);
          share != auth_per_client_.end() && --share->second == 0)
        auth_per_client_.erase(share);
    }
    auto it = by_id_.find(done.conn);
    if (it == by_id_.end()) continue;  // closed meanwhile: the answer is dropped
    ServerConnection* c = it->second;
    if (done.auth && c->state == State::kAuth) {
      Authorized(c, done.allowed);
    } else if (!done.auth && c->state == State::kWork) {
      Answer(c, std::move(done.response));
    }
  }
}

}  // namespace rocewatch::http
