#include "rocewatch/json_duplicate_key.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch {
namespace {

void AppendUtf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Scanner {
 public:
  explicit Scanner(std::string_view t, std::size_t max_depth) : t_(t), max_depth_(max_depth) {}

  std::optional<JsonDuplicateKey> Run() {
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '{' || c == '[') {
        if (stack_.size() >= max_depth_) return std::nullopt;
        std::string token;
        if (!stack_.empty()) token = stack_.back().object ? stack_.back().last_key : std::to_string(stack_.back().index);
        stack_.push_back(Frame{c == '{', c == '{', 0, std::move(token), {}, {}});
        ++i_;
      } else if (c == '}' || c == ']') {
        if (stack_.empty()) return std::nullopt;
        stack_.pop_back();
        ++i_;
      } else if (c == ',') {
        if (stack_.empty()) return std::nullopt;
        if (stack_.back().object) stack_.back().want_key = true;
        else ++stack_.back().index;
        ++i_;
      } else if (c == '"') {
        const std::size_t at = i_;
        std::string s;
        const bool is_key = !stack_.empty() && stack_.back().object && stack_.back().want_key;
        if (!ReadString(is_key ? &s : nullptr)) return std::nullopt;
        if (is_key) {
          Frame& f = stack_.back();
          f.want_key = false;
          auto [it, fresh] = f.keys.emplace(s, at);
          if (!fresh) return Found(s, it->second, at);
          f.last_key = std::move(s);
        }
      } else {
        ++i_;  // ':', blanks, the characters of numbers, true, false, null
      }
    }
    return std::nullopt;
  }

 private:
  struct Frame {
    bool object;
    bool want_key;
    std::size_t index;  // arrays: the element being read
    std::string token;  // this container's reference token in its parent
    std::string last_key;
    std::unordered_map<std::string, std::size_t> keys;  // key -> offset of its first quote
  };

  bool ReadString(std::string* out) {
    ++i_;  // the opening quote
    while (i_ < t_.size()) {
      const char c = t_[i_++];
      if (c == '"') return true;
      if (c != '\\') {
        if (out) *out += c;
        continue;
      }
      if (i_ >= t_.size()) return false;
      const char e = t_[i_++];
      switch (e) {
        case 'b': if (out) *out += '\b'; break;
        case 'f': if (out) *out += '\f'; break;
        case 'n': if (out) *out += '\n'; break;
        case 'r': if (out) *out += '\r'; break;
        case 't': if (out) *out += '\t'; break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!Hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && i_ + 1 < t_.size() && t_[i_] == '\\' && t_[i_ + 1] == 'u') {
            i_ += 2;
            std::uint32_t low = 0;
            if (!Hex4(low)) return false;
            if (low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (out) {
              AppendUtf8(*out, cp);
              cp = low;
            }
          }
          if (out) AppendUtf8(*out, cp);
          break;
        }
        default: if (out) *out += e;  // '"', '\\', '/'
      }
    }
    return false;
  }

  bool Hex4(std::uint32_t& cp) {
    if (i_ + 4 > t_.size()) return false;
    for (int k = 0; k < 4; ++k) {
      const int h = Hex(t_[i_++]);
      if (h < 0) return false;
      cp = cp * 16 + static_cast<std::uint32_t>(h);
    }
    return true;
  }

  void Position(std::size_t offset, std::size_t& line, std::size_t& column) const {
    line = 1;
    column = 1;
    for (std::size_t k = 0; k < offset && k < t_.size(); ++k) {
      const auto c = static_cast<unsigned char>(t_[k]);
      if (c == '\n') {
        ++line;
        column = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++column;
      }
    }
  }

  static void AppendToken(std::string& pointer, std::string_view token) {
    pointer += '/';
    for (char c : token) {
      if (c == '~') pointer += "~0";
      else if (c == '/') pointer += "~1";
      else pointer += c;
    }
  }

  std::optional<JsonDuplicateKey> Found(const std::string& key, std::size_t first, std::size_t again) {
    JsonDuplicateKey d;
    for (std::size_t k = 1; k < stack_.size(); ++k) AppendToken(d.pointer, stack_[k].token);
    AppendToken(d.pointer, key);
    d.key = key;
    Position(first, d.first_line, d.first_column);
    Position(again, d.line, d.column);
    return d;
  }

  std::string_view t_;
  std::size_t max_depth_;
  std::size_t i_ = 0;
  std::vector<Frame> stack_;
};

}  // namespace

std::optional<JsonDuplicateKey> FindDuplicateJsonKey(std::string_view text, std::size_t max_depth) {
  return Scanner(text, max_depth).Run();
}

std::string DuplicateKeyMessage(const JsonDuplicateKey& d) {
  const std::string parent = d.pointer.substr(0, d.pointer.rfind('/'));
  return (parent.empty() ? std::string("/") : escape::TerminalText(parent)) + ": key " + Quote(d.key, 200) +
         " appears twice in one object (first at " + std::to_string(d.first_line) + ":" +
         std::to_string(d.first_column) + ", again at " + std::to_string(d.line) + ":" + std::to_string(d.column) +
         "); only the last one counts";
}

}  // namespace rocewatch
