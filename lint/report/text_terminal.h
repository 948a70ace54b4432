#pragma once

// roce-lint's standard error as people read it: every line written through it passes
// rocewatch::escape::TerminalText, line breaks and tabs kept. Error messages quote names from the
// plan, answers of exporters and of Prometheus, file names: none of them can send an escape
// sequence or a control character to the operator's terminal.

#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>

namespace rocewatch::lint::report {

class TerminalTextBuf : public std::streambuf {
 public:
  explicit TerminalTextBuf(std::ostream& sink) : sink_(sink) {}
  ~TerminalTextBuf() override;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void Emit(bool flush);  // writes the pending line, escaped, to the sink

  std::mutex mu_;  // a worker thread may report while another writes
  std::ostream& sink_;
  std::string line_;
};

// An ostream over TerminalTextBuf (the buffer lives as long as the stream).
class TerminalTextStream : public std::ostream {
 public:
  explicit TerminalTextStream(std::ostream& sink) : std::ostream(nullptr), buf_(sink) {
    rdbuf(&buf_);
  }

 private:
  TerminalTextBuf buf_;
};

}  // namespace rocewatch::lint::report
