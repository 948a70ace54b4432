#pragma once

// A bump allocator for strings that must outlive parsing (unescaped label values, HELP texts):
// memory in 64 KiB blocks that never move, so string_views into them stay valid when the owner
// is moved. Freed all at once with the arena.

#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace rocewatch::lint::observe {

class Arena {
 public:
  // Copies `s` into the arena and returns a view of the copy.
  std::string_view Store(std::string_view s) {
    char* p = Allocate(s.size());
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }

  // Uninitialized space for `n` bytes.
  char* Allocate(std::size_t n) {
    if (n > kBlockBytes / 4) {  // large: a block of its own
      blocks_.push_back(std::make_unique<char[]>(n == 0 ? 1 : n));
      return blocks_.back().get();
    }
    if (used_ + n > kBlockBytes || current_ == nullptr) {
      blocks_.push_back(std::make_unique<char[]>(kBlockBytes));
      current_ = blocks_.back().get();
      used_ = 0;
    }
    char* p = current_ + used_;
    used_ += n;
    return p;
  }

 private:
  static constexpr std::size_t kBlockBytes = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* current_ = nullptr;
  std::size_t used_ = 0;
};

}  // namespace rocewatch::lint::observe
