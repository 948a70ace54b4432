#include "lint/cli/transport_flags.h"

#include "rocewatch/strings.h"

namespace rocewatch::lint::cli {

const std::vector<FlagSpec>& TransportFlagSpecs() {
  static const std::vector<FlagSpec> kSpecs = {
      {"--transport", "", true,
       "ssh (default), or a local shell for every node (tests, or a node\n"
       "applying its own script)",
       "ssh|local"},
      {"--ssh-command", "", true,
       "how to reach a node; {host} and {node} are replaced, the remote\n"
       "command is appended (default\n"
       "\"ssh -o BatchMode=yes -o ConnectTimeout=10 {host}\")",
       "TEMPLATE"},
      {"--host", "", true, "what {host} is (default management-ip, the plan's management_ip)",
       "management-ip|name"},
      {"--remote-shell", "", true,
       "the shell that reads the script on the node (default \"sh -s --\";\n"
       "e.g. \"sudo -n sh -s --\" when not logging in as root)",
       "CMD"}};
  return kSpecs;
}

std::optional<std::string> ReadTransportFlags(const ParsedArgs& args, fix::BatchOptions& options) {
  const std::string transport = args.Value("--transport").value_or("ssh");
  if (transport == "local") {
    options.transport = fix::BatchOptions::Transport::kLocal;
  } else if (transport != "ssh") {
    return "--transport " + Quote(transport) + ": expected ssh or local";
  }
  if (auto cmd = args.Value("--ssh-command")) {
    if (cmd->find("{host}") == std::string::npos && cmd->find("{node}") == std::string::npos)
      return "--ssh-command must contain {host} or {node}: where to connect";
    options.ssh_command = *cmd;
  }
  const std::string host = args.Value("--host").value_or("management-ip");
  if (host == "name") {
    options.host_from = fix::BatchOptions::HostFrom::kName;
  } else if (host != "management-ip") {
    return "--host " + Quote(host) + ": expected management-ip or name";
  }
  if (auto shell = args.Value("--remote-shell")) options.remote_shell = *shell;
  return std::nullopt;
}

}  // namespace rocewatch::lint::cli
