#pragma once

// Interning of metric and label names: each distinct name gets a dense 32-bit id, so samples
// store 4-byte ids instead of strings and comparisons are integer compares. The table stores
// string_views; the caller keeps the characters alive (the exposition text itself).

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace rocewatch::lint::observe {

class NameTable {
 public:
  static constexpr std::uint32_t kNotFound = 0xFFFFFFFFu;

  NameTable() : slots_(kInitialSlots, 0) {}

  // The id of `name`, adding it when new. `name` must outlive the table.
  std::uint32_t Intern(std::string_view name) {
    std::uint64_t h = Hash(name);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      std::uint32_t slot = slots_[i];
      if (slot == 0) {
        auto id = static_cast<std::uint32_t>(names_.size());
        names_.push_back(name);
        hashes_.push_back(h);
        slots_[i] = id + 1;
        if (names_.size() * 2 > slots_.size()) Grow();
        return id;
      }
      std::uint32_t id = slot - 1;
      if (hashes_[id] == h && names_[id] == name) return id;
    }
  }

  // The id of `name`, or kNotFound.
  std::uint32_t Find(std::string_view name) const {
    std::uint64_t h = Hash(name);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      std::uint32_t slot = slots_[i];
      if (slot == 0) return kNotFound;
      std::uint32_t id = slot - 1;
      if (hashes_[id] == h && names_[id] == name) return id;
    }
  }

  std::string_view Name(std::uint32_t id) const { return names_[id]; }
  std::size_t size() const { return names_.size(); }

  // 64-bit hash, 8 bytes a step: one multiply per word, one full mix at the end (names are
  // short ASCII; a lookup per check query makes speed matter more than quality).
  static std::uint64_t Hash(std::string_view s) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
    const char* p = s.data();
    std::size_t n = s.size();
    while (n >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      h = (Rotl(h, 5) ^ w) * 0x517CC1B727220A95ull;
      p += 8;
      n -= 8;
    }
    if (n > 0) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, n);
      h = (Rotl(h, 5) ^ w) * 0x517CC1B727220A95ull;
    }
    return Mix(h);
  }

 private:
  static constexpr std::size_t kInitialSlots = 256;

  static std::uint64_t Rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

  static std::uint64_t Mix(std::uint64_t x) {
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 29;
    return x;
  }

  void Grow() {
    std::vector<std::uint32_t> slots(slots_.size() * 2, 0);
    std::size_t mask = slots.size() - 1;
    for (std::uint32_t id = 0; id < names_.size(); ++id) {
      std::size_t i = hashes_[id] & mask;
      while (slots[i] != 0) i = (i + 1) & mask;
      slots[i] = id + 1;
    }
    slots_ = std::move(slots);
  }

  std::vector<std::string_view> names_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::uint32_t> slots_;  // id + 1; 0 = empty
};

}  // namespace rocewatch::lint::observe
