#include "lint/checks/check.h"

namespace rocewatch::lint::checks {

void FindingSink::Nic(const CheckSpec& spec, const NicContext& nic, std::string expected,
                      std::string found, std::string message, std::string fix) {
  Nic(spec, nic.node, nic.nic, nic.port, std::move(expected), std::move(found), std::move(message),
      std::move(fix));
}

void FindingSink::Nic(const CheckSpec& spec, const plan::Node& node, const plan::Nic& nic,
                      std::string port, std::string expected, std::string found,
                      std::string message, std::string fix) {
  Finding f;
  f.check = std::string(spec.id);
  f.severity = spec.severity;
  f.node = node.name;
  f.device = nic.ib_dev;
  f.port = std::move(port);
  f.netdev = nic.netdev;
  f.expected = std::move(expected);
  f.found = std::move(found);
  f.message = std::move(message);
  f.fix = std::move(fix);
  findings_.push_back(std::move(f));
}

void FindingSink::Node(const CheckSpec& spec, const plan::Node& node, std::string device,
                       std::string netdev, std::string expected, std::string found,
                       std::string message, std::string fix) {
  Finding f;
  f.check = std::string(spec.id);
  f.severity = spec.severity;
  f.node = node.name;
  f.device = std::move(device);
  f.netdev = std::move(netdev);
  f.expected = std::move(expected);
  f.found = std::move(found);
  f.message = std::move(message);
  f.fix = std::move(fix);
  findings_.push_back(std::move(f));
}

}  // namespace rocewatch::lint::checks
