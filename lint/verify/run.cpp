#include "lint/verify/run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "lint/plan/address.h"

namespace rocewatch::lint::verify {
namespace {

using Clock = std::chrono::steady_clock;

const plan::Nic& NicOf(const plan::Plan& plan, const Endpoint& e) { return plan.nodes[e.node].nics[e.nic]; }

PairResult RunPair(const plan::Plan& plan, const Pair& pair, std::size_t round, int tcp_port,
                   const VerifyOptions& o) {
  const plan::Nic& server_nic = NicOf(plan, pair.server);
  const plan::Profile* profile = plan.FindProfile(server_nic.profile);
  Thresholds t = profile ? ThresholdsFor(*profile) : Thresholds{};
  const std::string token = RandomToken();
  PerftestRun run;
  JudgeInput in;
  in.plan = &plan;
  in.pair = pair;
  in.round = round;
  in.thresholds = t;
  in.tool = o.tool;
  in.bidirectional = o.bidirectional;
  in.run = &run;
  auto server = InvocationFor(plan, pair, false, t, o, tcp_port, token + "s");
  auto client = InvocationFor(plan, pair, true, t, o, tcp_port, token + "c");
  if (!server.ok() || !client.ok()) {
    run.outcome = PerftestRun::Outcome::kFailed;
    run.detail = !server.ok() ? server.error().message : client.error().message;
    return Judge(in);
  }
  std::vector<std::size_t> nodes = {pair.server.node};
  if (pair.client.node != pair.server.node) nodes.push_back(pair.client.node);
  auto before = ScrapeSome(plan, nodes, o.scrape);
  const auto t0 = Clock::now();
  std::vector<observe::NodeView> during;
  run = RunPerftest(plan.nodes[pair.server.node], *server, plan.nodes[pair.client.node], *client, o.runner,
                    [&](const std::function<bool()>& client_done) {
    // Halfway through the test: is the link still up? (Not when the client ended already.)
    const auto half = Clock::now() + std::chrono::milliseconds(static_cast<long>(o.duration_seconds * 500));
    while (Clock::now() < half && !client_done()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!client_done()) during = ScrapeSome(plan, nodes, o.scrape);
  });
  auto after = ScrapeSome(plan, nodes, o.scrape);
  const double window = std::chrono::duration<double>(Clock::now() - t0).count();
  auto counters = [&](const Endpoint& e) {
    const std::size_t k = e.node == pair.server.node ? 0 : 1;
    if (!before[k].reachable()) {
      NicCounters c;
      c.error = "exporter before the test: " + before[k].error();
      return c;
    }
    if (after[k].reachable()) observe::AttachIncrease(after[k], before[k], window);
    return ReadNicCounters(after[k], during.size() > k ? &during[k] : nullptr, NicOf(plan, e));
  };
  in.server_counters = counters(pair.server);
  in.client_counters = counters(pair.client);
  if (run.outcome == PerftestRun::Outcome::kRan) in.client_output = ParsePerftestOutput(run.client.process.output);
  PairResult r = Judge(in);
  r.test_seconds = window;
  return r;
}

}  // namespace

Result<PerftestInvocation> InvocationFor(const plan::Plan& plan, const Pair& pair, bool client,
                                         const Thresholds& t, const VerifyOptions& o, int tcp_port,
                                         const std::string& token) {
  const Endpoint& self = client ? pair.client : pair.server;
  const plan::Nic& nic = NicOf(plan, self);
  auto own = plan::ParseIpPrefix(nic.roce_ip);
  if (!own.ok()) return Error{EndpointName(plan, self) + ": roce_ip " + nic.roce_ip + ": " + own.error().message};
  PerftestInvocation r;
  r.tool = o.tool;
  r.ib_dev = nic.ib_dev;
  r.gid = GidOfAddress(own->address);
  r.tcp_port = tcp_port;
  r.duration_seconds = o.duration_seconds;
  r.message_bytes = o.message_bytes.value_or(t.message_bytes);
  r.queue_pairs = t.queue_pairs;
  if (t.roce_dscp) r.traffic_class = TrafficClassForDscp(*t.roce_dscp);
  r.mtu = t.roce_mtu;
  r.bidirectional = o.bidirectional;
  r.pid_file = PidFileFor(token);
  r.timeout_seconds = o.duration_seconds + o.runner.slack_seconds;
  if (client) {
    auto server = plan::ParseIpPrefix(NicOf(plan, pair.server).roce_ip);
    if (!server.ok()) return Error{EndpointName(plan, pair.server) + ": roce_ip: " + server.error().message};
    r.server_address = server->address.ToString();
  }
  return r;
}

std::vector<PairResult> RunVerify(const plan::Plan& plan, const std::vector<std::vector<Pair>>& rounds,
                                  const VerifyOptions& o) {
  std::size_t total = 0;
  for (const auto& r : rounds) total += r.size();
  std::vector<PairResult> results;
  std::size_t done = 0;
  std::mutex mu;
  for (std::size_t round = 0; round < rounds.size(); ++round) {
    const auto& pairs = rounds[round];
    std::vector<PairResult> these(pairs.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
      for (std::size_t i = next++; i < pairs.size(); i = next++) {
        PairResult r = RunPair(plan, pairs[i], round + 1, o.base_tcp_port + static_cast<int>(i), o);
        std::lock_guard lock(mu);
        these[i] = std::move(r);
        ++done;
        if (o.on_result) o.on_result(these[i], done, total);
      }
    };
    std::size_t n = std::min<std::size_t>(pairs.size(), static_cast<std::size_t>(std::max(1, o.runner.transport.concurrency)));
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < n; ++k) threads.emplace_back(worker);
    for (auto& th : threads) th.join();
    for (auto& r : these) results.push_back(std::move(r));
  }
  return results;
}

}  // namespace rocewatch::lint::verify
