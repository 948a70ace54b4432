#include "lint/verify/pairs.h"

#include <map>
#include <set>

#include "rocewatch/strings.h"

namespace rocewatch::lint::verify {
namespace {

// A pairs file is written by hand: these bound what one can cost.
constexpr std::size_t kMaxPairsFileBytes = 4u << 20;
constexpr std::size_t kMaxLineBytes = 4096;

std::optional<std::int64_t> SharedRail(const plan::Plan& plan, const Endpoint& a,
                                       const Endpoint& b) {
  const auto& ra = plan.nodes[a.node].nics[a.nic].rail;
  const auto& rb = plan.nodes[b.node].nics[b.nic].rail;
  if (ra && rb && *ra == *rb) return ra;
  return std::nullopt;
}

Pair MakePair(const plan::Plan& plan, Endpoint server, Endpoint client, std::string origin) {
  Pair p{server, client, SharedRail(plan, server, client), std::move(origin)};
  return p;
}

}  // namespace

std::string EndpointName(const plan::Plan& plan, const Endpoint& e) {
  const plan::Node& node = plan.nodes[e.node];
  return node.name + "/" + node.nics[e.nic].ib_dev;
}

std::string PairName(const plan::Plan& plan, const Pair& pair) {
  return EndpointName(plan, pair.client) + " -> " + EndpointName(plan, pair.server);
}

std::vector<Pair> PairsFromPlan(const plan::Plan& plan, PairMode mode,
                                std::vector<std::string>* unpaired) {
  std::map<std::int64_t, std::vector<Endpoint>> rails;
  for (std::size_t n = 0; n < plan.nodes.size(); ++n) {
    for (std::size_t i = 0; i < plan.nodes[n].nics.size(); ++i) {
      const auto& rail = plan.nodes[n].nics[i].rail;
      if (rail) {
        rails[*rail].push_back({n, i});
      } else if (unpaired) {
        unpaired->push_back(EndpointName(plan, {n, i}) + ": no rail in the plan");
      }
    }
  }
  std::vector<Pair> out;
  for (const auto& [rail, nics] : rails) {
    const std::string origin = "rail " + std::to_string(rail);
    if (nics.size() < 2) {
      if (unpaired)
        for (const auto& e : nics)
          unpaired->push_back(EndpointName(plan, e) + ": the only NIC on " + origin);
      continue;
    }
    if (mode == PairMode::kAll) {
      for (std::size_t i = 0; i < nics.size(); ++i)
        for (std::size_t j = i + 1; j < nics.size(); ++j)
          out.push_back(MakePair(plan, nics[i], nics[j], origin));
      continue;
    }
    for (std::size_t i = 0; i + 1 < nics.size(); i += 2)
      out.push_back(MakePair(plan, nics[i], nics[i + 1], origin));
    if (nics.size() % 2 == 1) out.push_back(MakePair(plan, nics.front(), nics.back(), origin));
  }
  return out;
}

Result<std::vector<Pair>> ParsePairsFile(std::string_view text, const std::string& name,
                                         const plan::Plan& plan) {
  if (text.size() > kMaxPairsFileBytes)
    return Error{name + ": " + std::to_string(text.size()) + " bytes; a pairs file is at most " +
                 std::to_string(kMaxPairsFileBytes)};
  std::map<std::string, std::size_t, std::less<>> node_index;
  std::vector<std::string> node_names;
  for (std::size_t n = 0; n < plan.nodes.size(); ++n) {
    node_index.emplace(plan.nodes[n].name, n);
    node_names.push_back(plan.nodes[n].name);
  }
  std::vector<Pair> out;
  std::vector<std::string> errors;
  std::size_t line_no = 0;
  for (std::string_view line : Split(text, '\n')) {
    ++line_no;
    const std::string where = name + ":" + std::to_string(line_no);
    if (errors.size() >= 20) break;
    if (line.size() > kMaxLineBytes) {
      errors.push_back(where + ": a line of " + std::to_string(line.size()) +
                       " bytes; at most " + std::to_string(kMaxLineBytes));
      continue;
    }
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::string_view> words;
    for (auto w : Split(line, ' '))
      for (auto t : Split(w, '\t')) {
        t = Trim(t);
        if (!t.empty()) words.push_back(t);
      }
    if (words.empty()) continue;
    if (words.size() != 2) {
      errors.push_back(where + ": expected two NICs, NODE[/IBDEV] NODE[/IBDEV] (server first), got " +
                       std::to_string(words.size()) + " words");
      continue;
    }
    Endpoint ends[2];
    bool ok = true;
    for (int k = 0; k < 2 && ok; ++k) {
      std::string_view word = words[k];
      std::string_view node_name = word, dev;
      if (auto slash = word.find('/'); slash != std::string_view::npos) {
        node_name = word.substr(0, slash);
        dev = word.substr(slash + 1);
      }
      auto it = node_index.find(node_name);
      if (it == node_index.end()) {
        std::string msg = where + ": no node " + Quote(node_name) + " in the plan";
        if (auto s = DidYouMean(std::string(node_name), node_names)) msg += "; did you mean \"" + *s + "\"?";
        errors.push_back(msg);
        ok = false;
        break;
      }
      const plan::Node& node = plan.nodes[it->second];
      if (dev.empty()) {
        if (node.nics.size() != 1) {
          errors.push_back(where + ": node " + Quote(node.name) + " has " +
                           std::to_string(node.nics.size()) + " NICs; say which: " + node.name +
                           "/IBDEV");
          ok = false;
          break;
        }
        ends[k] = {it->second, 0};
        continue;
      }
      bool found = false;
      std::vector<std::string> devs;
      for (std::size_t i = 0; i < node.nics.size(); ++i) {
        devs.push_back(node.nics[i].ib_dev);
        if (node.nics[i].ib_dev == dev) {
          ends[k] = {it->second, i};
          found = true;
        }
      }
      if (!found) {
        std::string msg = where + ": node " + Quote(node.name) + " has no NIC " +
                          Quote(dev) + " in the plan";
        if (auto s = DidYouMean(std::string(dev), devs)) msg += "; did you mean \"" + *s + "\"?";
        errors.push_back(msg);
        ok = false;
      }
    }
    if (!ok) continue;
    if (ends[0] == ends[1]) {
      errors.push_back(where + ": " + EndpointName(plan, ends[0]) + " cannot be tested against itself");
      continue;
    }
    out.push_back(MakePair(plan, ends[0], ends[1], where));
  }
  if (!errors.empty()) {
    std::string msg;
    for (const auto& e : errors) msg += (msg.empty() ? "" : "\n") + e;
    return Error{msg};
  }
  if (out.empty()) return Error{name + ": no pairs (one a line: NODE[/IBDEV] NODE[/IBDEV])"};
  return out;
}

std::vector<std::vector<Pair>> ScheduleRounds(const std::vector<Pair>& pairs) {
  std::vector<std::vector<Pair>> rounds;
  std::vector<std::set<std::pair<std::size_t, std::size_t>>> busy;
  for (const Pair& p : pairs) {
    auto a = std::pair(p.server.node, p.server.nic), b = std::pair(p.client.node, p.client.nic);
    std::size_t r = 0;
    while (r < rounds.size() && (busy[r].count(a) || busy[r].count(b))) ++r;
    if (r == rounds.size()) {
      rounds.emplace_back();
      busy.emplace_back();
    }
    rounds[r].push_back(p);
    busy[r].insert(a);
    busy[r].insert(b);
  }
  return rounds;
}

}  // namespace rocewatch::lint::verify
