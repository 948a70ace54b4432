#include "http/server_loop.h"

namespace rocewatch::http {

void Server::Loop::Authorized(ServerConnection* c, bool allowed) {
  const Router::Decision d = cfg_.router.Decide(c->request.method, c->request.path, allowed);
  if (d.route != Route::kServe) {
    Answer(c, RouteResponse(d.route, cfg_.realm));
    return;
  }
  const RouteSpec& spec = *d.spec;
  if (spec.offload && c->head_only) {
    // HEAD: the headers a GET would carry, without running the expensive handler for it.
    HttpResponse r;
    r.headers = spec.head_headers;
    Answer(c, std::move(r), false);
    return;
  }
  if (!spec.offload) {
    HttpResponse r = spec.handler(c->request);
    if (spec.compress) MaybeCompress(r, c->request);
    Answer(c, std::move(r));
    return;
  }
  c->state = State::kWork;
  c->deadline = Clock::time_point::max();
  Interest(c, 0);
  const bool queued =
      work_->TrySubmit([mailbox = mailbox_, handler = spec.handler, compress = spec.compress,
                        request = c->request, id = c->id] {
        Completion done;
        done.conn = id;
        try {
          done.response = handler(request);
          if (compress) MaybeCompress(done.response, request);
        } catch (const std::exception& ex) {
          http_log::Error("HTTP handler failed", {{"path", request.path}, {"error", ex.what()}});
          done.response = HttpResponse{500,
                                       {{"Content-Type", "text/plain; charset=utf-8"}},
                                       "Internal Server Error\n",
                                       nullptr,
                                       nullptr};
        }
        std::shared_ptr<const void> release = std::move(done.response.release_after);
        mailbox->Post(std::move(done));
        release.reset();
      });
  if (!queued) {
    stats_.busy += 1;
    Refuse(c, 503, "too many requests in progress");
  }
}

void Server::Loop::Refuse(ServerConnection* c, int status, const std::string& reason) {
  HttpResponse r;
  r.status = status;
  r.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
  if (status == 503) r.headers.emplace_back("Retry-After", "1");
  r.body = std::string(StatusText(status)) + ": " + reason + "\n";
  c->keep_alive = false;
  c->head_only = false;
  Answer(c, std::move(r));
}

void Server::Loop::Answer(ServerConnection* c, HttpResponse r, bool with_length) {
  static const HeaderList kNone;
  const auto now = Clock::now();
  // A run of pipelined answers shares one write deadline; a client that let too many of
  // them wait gets this one as its last.
  if (!c->run_deadline) c->run_deadline = now + cfg_.limits.write_timeout;
  if (c->unread_answers >= cfg_.limits.max_unread_answers) c->keep_alive = false;
  const std::optional<std::size_t> length =
      with_length ? std::optional<std::size_t>(r.Body().size()) : std::nullopt;
  c->out_head =
      ResponseHead(r, length, c->keep_alive, c->config ? c->config->config.headers : kNone);
  c->out = std::move(r);
  c->off = 0;
  c->state = State::kWrite;
  c->deadline = *c->run_deadline;
  c->write_blocked = false;
  c->last_progress = now;
  Write(c);
}

}  // namespace rocewatch::http
