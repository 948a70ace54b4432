#include "http/server_loop.h"

namespace rocewatch::http {

void Server::Loop::Sweep() {
  const auto now = Clock::now();
  if (now < next_sweep_) return;
  next_sweep_ = now + std::chrono::milliseconds(50);
  if (accept_paused_ && now >= accept_resume_) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listen_fd_;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &ev);
    accept_paused_ = false;
  }
  std::vector<std::uint64_t> expired;
  for (auto& [fd, c] : conns_) {
    const bool stuck = c->state == State::kWrite && c->write_blocked &&
                       now - c->last_progress >= cfg_.limits.stall_timeout;
    if (now >= c->deadline || stuck) expired.push_back(c->id);
  }
  for (std::uint64_t id : expired) {
    auto it = by_id_.find(id);
    if (it == by_id_.end()) continue;
    ServerConnection* c = it->second;
    stats_.timed_out += 1;
    if (c->state == State::kHead && !c->in.empty()) {
      // A head that did not arrive in time (slowloris): say so, briefly, and close.
      c->in.clear();
      Refuse(c, 408, "request head not received in time");
      if (Alive(id) && c->state == State::kWrite) c->deadline = now + std::chrono::seconds(1);
      continue;
    }
    Abort(c);
  }
}

}  // namespace rocewatch::http
