#include "lint/report/text_terminal.h"

#include "rocewatch/escape.h"

namespace rocewatch::lint::report {

TerminalTextBuf::~TerminalTextBuf() {
  std::lock_guard lock(mu_);
  Emit(true);
}

void TerminalTextBuf::Emit(bool flush) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line_.size(); ++i) {
    if (i < line_.size() && line_[i] != '\n' && line_[i] != '\t') continue;
    out += escape::TerminalText(std::string_view(line_).substr(start, i - start));
    if (i < line_.size()) out += line_[i];
    start = i + 1;
  }
  line_.clear();
  sink_ << out;
  if (flush) sink_.flush();
}

TerminalTextBuf::int_type TerminalTextBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  std::lock_guard lock(mu_);
  line_ += traits_type::to_char_type(c);
  if (line_.back() == '\n') Emit(false);
  return c;
}

std::streamsize TerminalTextBuf::xsputn(const char* s, std::streamsize n) {
  std::lock_guard lock(mu_);
  line_.append(s, static_cast<std::size_t>(n));
  if (!line_.empty() && line_.find('\n') != std::string::npos) {
    // Everything up to the last line break now; the rest waits for its line to end.
    std::size_t last = line_.rfind('\n');
    std::string rest = line_.substr(last + 1);
    line_.resize(last + 1);
    Emit(false);
    line_ = std::move(rest);
  }
  return n;
}

int TerminalTextBuf::sync() {
  std::lock_guard lock(mu_);
  Emit(true);
  return 0;
}

}  // namespace rocewatch::lint::report
