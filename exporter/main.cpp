// roce_exporter: Prometheus exporter for the RoCE/RDMA NICs of a node.

#include <cstring>

#include "cli/serve_command.h"

int main(int argc, char** argv) {
  return rocewatch::cli::RunServe(argc, argv);
}
