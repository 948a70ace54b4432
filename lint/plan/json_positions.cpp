#include "lint/plan/json_positions.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>

namespace rocewatch::lint::plan {
namespace {

bool IsContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

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

class Scanner {
 public:
  explicit Scanner(std::string_view text) : t_(text) {}

  JsonPositions Run() {
    out_.complete = Scan();
    out_.values.Seal();
    out_.keys.Seal();
    return std::move(out_);
  }

 private:
  struct Frame {
    bool is_object = false;
    std::size_t index = 0;
    std::size_t pointer_length = 0;
    std::map<std::string, TextPosition> seen;  // object keys met so far
  };

  bool AtEnd() const { return i_ >= t_.size(); }
  char Peek() const { return AtEnd() ? '\0' : t_[i_]; }
  TextPosition Here() const { return {line_, column_}; }

  void Advance() {
    if (AtEnd()) return;
    unsigned char c = static_cast<unsigned char>(t_[i_++]);
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else if (!IsContinuationByte(c)) {
      ++column_;
    }
  }

  void SkipWhitespace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) {
      Advance();
    }
  }

  // At an opening quote: reads the string and decodes its escapes into `out`.
  bool ReadString(std::string* out) {
    if (Peek() != '"') return false;
    Advance();
    while (!AtEnd()) {
      char c = Peek();
      if (c == '"') {
        Advance();
        return true;
      }
      if (c != '\\') {
        if (out) *out += c;
        Advance();
        continue;
      }
      Advance();
      if (AtEnd()) return false;
      char e = Peek();
      Advance();
      switch (e) {
        case '"':
        case '\\':
        case '/':
          if (out) *out += e;
          break;
        case 'b':
          if (out) *out += '\b';
          break;
        case 'f':
          if (out) *out += '\f';
          break;
        case 'n':
          if (out) *out += '\n';
          break;
        case 'r':
          if (out) *out += '\r';
          break;
        case 't':
          if (out) *out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!ReadHex4(&cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {  // high surrogate: a low one must follow
            if (Peek() != '\\') return false;
            Advance();
            if (Peek() != 'u') return false;
            Advance();
            std::uint32_t low = 0;
            if (!ReadHex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return false;
          }
          if (out) AppendUtf8(*out, cp);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  bool ReadHex4(std::uint32_t* cp) {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      int h = HexValue(Peek());
      if (h < 0) return false;
      v = v * 16 + static_cast<std::uint32_t>(h);
      Advance();
    }
    *cp = v;
    return true;
  }

  // Numbers and the literals true/false/null: everything up to a delimiter.
  bool SkipScalar() {
    std::size_t start = i_;
    while (!AtEnd()) {
      char c = Peek();
      if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        break;
      }
      Advance();
    }
    return i_ > start;
  }

  bool Scan() {
    std::vector<Frame> stack;
    SkipWhitespace();
    enum class State { kValue, kAfterValue, kKey };
    State state = State::kValue;
    while (true) {
      switch (state) {
        case State::kValue: {
          out_.values.Set(pointer_, Here());
          char c = Peek();
          if (c == '{' || c == '[') {
            if (stack.size() >= kMaxJsonDepth) return false;
            Frame frame;
            frame.is_object = (c == '{');
            frame.pointer_length = pointer_.size();
            stack.push_back(std::move(frame));
            Advance();
            SkipWhitespace();
            if (Peek() == (c == '{' ? '}' : ']')) {
              Advance();
              stack.pop_back();
              state = State::kAfterValue;
            } else if (c == '{') {
              state = State::kKey;
            } else {
              pointer_ += "/0";
              state = State::kValue;
            }
          } else if (c == '"') {
            if (!ReadString(nullptr)) return false;
            state = State::kAfterValue;
          } else {
            if (!SkipScalar()) return false;
            state = State::kAfterValue;
          }
          break;
        }
        case State::kKey: {
          if (stack.empty() || !stack.back().is_object) return false;
          TextPosition at = Here();
          std::string key;
          if (!ReadString(&key)) return false;
          SkipWhitespace();
          if (Peek() != ':') return false;
          Advance();
          SkipWhitespace();
          Frame& frame = stack.back();
          pointer_.resize(frame.pointer_length);
          AppendPointerToken(pointer_, key);
          out_.keys.Set(pointer_, at);
          auto [it, inserted] = frame.seen.emplace(key, at);
          if (!inserted) out_.duplicate_keys.push_back({pointer_, it->second, at});
          state = State::kValue;
          break;
        }
        case State::kAfterValue: {
          if (stack.empty()) {
            SkipWhitespace();
            return AtEnd();
          }
          SkipWhitespace();
          Frame& frame = stack.back();
          pointer_.resize(frame.pointer_length);
          char c = Peek();
          if (c == ',') {
            Advance();
            SkipWhitespace();
            if (frame.is_object) {
              state = State::kKey;
            } else {
              ++frame.index;
              pointer_ += '/';
              pointer_ += std::to_string(frame.index);
              state = State::kValue;
            }
          } else if (c == (frame.is_object ? '}' : ']')) {
            Advance();
            stack.pop_back();
            state = State::kAfterValue;
          } else {
            return false;
          }
          break;
        }
      }
    }
  }

  std::string_view t_;
  std::size_t i_ = 0;
  std::size_t line_ = 1;
  std::size_t column_ = 1;
  std::string pointer_;
  JsonPositions out_;
};

}  // namespace

JsonPositions IndexJsonPositions(std::string_view text) { return Scanner(text).Run(); }

void PointerIndex::Set(std::string_view pointer, TextPosition at) {
  constexpr std::size_t kMax = std::numeric_limits<std::uint32_t>::max();
  if (text_.size() + pointer.size() > kMax || at.line > kMax || at.column > kMax) return;  // unknown, not wrong
  entries_.push_back({static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(pointer.size()),
                      static_cast<std::uint32_t>(at.line), static_cast<std::uint32_t>(at.column)});
  text_.append(pointer);
}

void PointerIndex::Seal() {
  std::stable_sort(entries_.begin(), entries_.end(),
                   [&](const Entry& a, const Entry& b) { return Pointer(a) < Pointer(b); });
  // Of equal pointers keep the last one set (the stable sort kept their order).
  std::vector<Entry> kept;
  kept.reserve(entries_.size());
  for (const Entry& e : entries_) {
    if (!kept.empty() && Pointer(kept.back()) == Pointer(e)) kept.back() = e;
    else kept.push_back(e);
  }
  entries_ = std::move(kept);
  entries_.shrink_to_fit();
  text_.shrink_to_fit();
}

std::optional<TextPosition> PointerIndex::Find(std::string_view pointer) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), pointer,
                             [&](const Entry& e, std::string_view p) { return Pointer(e) < p; });
  if (it == entries_.end() || Pointer(*it) != pointer) return std::nullopt;
  return TextPosition{it->line, it->column};
}

TextPosition PositionOfOffset(std::string_view text, std::size_t offset) {
  TextPosition pos{1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++pos.line;
      pos.column = 1;
    } else if (!IsContinuationByte(c)) {
      ++pos.column;
    }
  }
  return pos;
}

void AppendPointerToken(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
}

}  // namespace rocewatch::lint::plan
