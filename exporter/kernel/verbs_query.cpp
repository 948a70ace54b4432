#include "exporter/kernel/verbs_query.h"

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstring>

namespace rocewatch::kernel {

Answer QueryVerbsPort(const std::string& device, std::uint32_t port) {
  int count = 0;
  ibv_device** list = ibv_get_device_list(&count);
  if (list == nullptr) return Answer{{}, ENODEV};
  Answer answer{{}, ENODEV};
  for (int i = 0; i < count; ++i) {
    if (device != ibv_get_device_name(list[i])) continue;
    ibv_context* ctx = ibv_open_device(list[i]);
    if (ctx == nullptr) {
      answer.error = errno != 0 ? errno : EIO;
      break;
    }
    ibv_port_attr attr;
    std::memset(&attr, 0, sizeof attr);
    int rc = ibv_query_port(ctx, static_cast<std::uint8_t>(port), &attr);
    if (rc == 0) {
      answer.bytes.resize(sizeof attr);
      std::memcpy(answer.bytes.data(), &attr, sizeof attr);
      answer.error = 0;
    } else {
      answer.error = rc;
    }
    ibv_close_device(ctx);
    break;
  }
  ibv_free_device_list(list);
  return answer;
}

}  // namespace rocewatch::kernel
