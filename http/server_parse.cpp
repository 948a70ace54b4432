#include "http/server_loop.h"

namespace rocewatch::http {

void Server::Loop::Read(ServerConnection* c) {
  const std::uint64_t id = c->id;
  char buf[kReadChunk];
  int answered = 0;
  for (;;) {
    // Every complete request already buffered (pipelined) is answered now, up to a share.
    while (!c->in.empty()) {
      if (++answered > kRequestsPerTurn) {
        ready_.push_back(id);
        return;
      }
      if (!Process(c)) break;  // an incomplete head: read on
      if (!Alive(id) || (c->state != State::kHead && c->state != State::kIdle)) return;
    }
    std::size_t n = 0;
    const Io r = ReadSome(c, buf, sizeof buf, &n);
    if (r == Io::kWantRead) {
      Interest(c, EPOLLIN);
      return;
    }
    if (r == Io::kWantWrite) {
      Interest(c, EPOLLOUT);
      return;
    }
    if (r == Io::kClosed) {
      if (c->state == State::kHead && !c->in.empty()) {
        // The client ended its side inside a head: an unterminated line is refused, not
        // served as if it were complete.
        c->in.clear();
        Refuse(c, 400, "connection closed inside the request head");
        return;
      }
      Close(c);
      return;
    }
    if (c->state == State::kIdle) {
      // The next request's head has the header deadline from its first byte.
      c->state = State::kHead;
      c->deadline = Clock::now() + cfg_.limits.header_timeout;
      c->run_deadline.reset();
      c->unread_answers = 0;
    }
    c->in.append(buf, n);
  }
}

// Parses the head buffered in c->in and starts its answer; false when it is incomplete.
bool Server::Loop::Process(ServerConnection* c) {
  ParsedHead parsed = ParseRequestHead(c->in, cfg_.limits.request);
  if (parsed.kind == ParsedHead::Kind::kIncomplete) return false;
  if (parsed.kind == ParsedHead::Kind::kBad) {
    http_log::Debug("HTTP request refused", {{"client", c->client},
                                             {"status", std::to_string(parsed.status)},
                                             {"reason", parsed.reason}});
    c->in.clear();
    Refuse(c, parsed.status, parsed.reason);
    return true;
  }
  c->in.erase(0, parsed.consumed);
  c->request = std::move(parsed.head);
  c->served += 1;
  stats_.requests += 1;
  c->head_only = c->request.method == "HEAD";
  // A request body is never read: answer, then close rather than parse it as the next
  // request (what it still sends is dropped in kDrain).
  c->keep_alive = c->request.WantsKeepAlive() && !c->request.HasBody() && !stopping_ &&
                  c->served < cfg_.limits.max_requests_per_connection;
  c->config = cfg_.web_config ? cfg_.web_config->Current() : nullptr;
  if (c->config == nullptr || c->config->config.users.empty()) {
    Authorized(c, true);
    return true;
  }
  const std::string* header = c->request.Header("authorization");
  auto credentials = header != nullptr ? ParseBasicAuthorization(*header) : std::nullopt;
  if (!credentials) {
    Authorized(c, false);
    return true;
  }
  if (auth_->CachedAllows(c->config->config.users, *credentials)) {
    Authorized(c, true);
    return true;
  }
  Authenticate(c, std::move(*credentials));
  return true;
}

}  // namespace rocewatch::http
