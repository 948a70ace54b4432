// ParsePerftestOutput: perftest's text, line by line, into PerftestOutput (perftest_output.h).

#include "lint/verify/perftest/perftest_output.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::verify {
namespace {

// Bits per second in one unit of the bandwidth columns (see the header's comment: perftest's
// print_report_bw() divides bytes per second by 0x100000 or by 125000000).
constexpr double kBitsPerMebibyte = 1048576.0 * 8.0;
constexpr double kBitsPerGigabit = 1e9;
constexpr double kPacketsPerMega = 1e6;
// Endpoint lines kept: one local and one remote per queue pair (-q), which perftest caps far
// lower than this.
constexpr std::size_t kMaxEndpoints = 4096;
// A row has at most 10 columns (the per-port format plus CPU_Util); a line with more tokens is
// not a row, however long it is.
constexpr std::size_t kMaxRowTokens = 12;
// The largest value a column may hold in its base unit (bits or packets per second,
// microseconds): 1e15 is a petabit per second, far above any link, and far below where a
// product or a sum of such values stops being finite ("1e308" Gb/s times 1e9 is inf).
constexpr double kMaxPlausibleValue = 1e15;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool Contains(std::string_view s, std::string_view what) {
  return s.find(what) != std::string_view::npos;
}

// A line kept for display: at most kMaxPerftestKeptLine bytes, every control character and
// escape sequence made inert (escape::TerminalText).
std::string Kept(std::string_view line) {
  if (line.size() <= kMaxPerftestKeptLine) return escape::TerminalText(line);
  std::string out = escape::TerminalText(line.substr(0, kMaxPerftestKeptLine));
  out += " [" + std::to_string(line.size() - kMaxPerftestKeptLine) + " more bytes]";
  return out;
}

// Up to kMaxRowTokens whitespace-separated tokens of a line, without allocating (a row
// costs no heap allocation however many rows the text holds).
struct RowTokens {
  std::array<std::string_view, kMaxRowTokens> items;
  std::size_t size = 0;
  bool too_many = false;
};
RowTokens Tokens(std::string_view s) {
  RowTokens out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && IsSpace(s[i])) ++i;
    if (i == s.size()) break;
    std::size_t start = i;
    while (i < s.size() && !IsSpace(s[i])) ++i;
    if (out.size == kMaxRowTokens) {
      out.too_many = true;
      return out;
    }
    out.items[out.size++] = s.substr(start, i - start);
  }
  return out;
}

// The value of header field `key` in `line` (" Mtu             : 4096[B]",
// " Dual-port       : OFF\t\tDevice         : mlx5_0"): the text after the colon that follows
// the key (blanks allowed between), up to a tab, two blanks or the end. nullopt when the line
// does not hold the key at a word start followed by a colon.
std::optional<std::string_view> Field(std::string_view line, std::string_view key) {
  std::size_t from = 0;
  while (true) {
    std::size_t at = line.find(key, from);
    if (at == std::string_view::npos) return std::nullopt;
    from = at + 1;
    if (at > 0 && !IsSpace(line[at - 1])) continue;
    std::size_t i = at + key.size();
    while (i < line.size() && IsSpace(line[i])) ++i;
    if (i == line.size() || line[i] != ':') continue;
    ++i;
    while (i < line.size() && IsSpace(line[i])) ++i;
    std::size_t end = i;
    while (end < line.size() && line[end] != '\t' &&
           !(line[end] == ' ' && end + 1 < line.size() && line[end + 1] == ' ')) {
      ++end;
    }
    return Trim(line.substr(i, end - i));
  }
}

// Leading decimal digits of `value` ("4096[B]" -> 4096) as a uint32; nullopt when none or too big.
std::optional<std::uint32_t> LeadingU32(std::string_view value) {
  std::size_t n = 0;
  while (n < value.size() && IsDigit(value[n])) ++n;
  if (n == 0 || n > 10) return std::nullopt;
  auto v = ParseU64(value.substr(0, n));
  if (!v || *v > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

// A number perftest printed with %#x ("0x1907", or "0000" for zero).
std::optional<std::uint32_t> HexU32(std::string_view s) {
  std::optional<std::uint64_t> v;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    v = ParseU64Auto(s);
  } else {
    v = ParseU64Auto("0x" + std::string(s));
  }
  if (!v || *v > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

// " GID: 00:00:...:255:255:10:00:00:05": sixteen bytes, each printed in decimal (PERF_GID_FMT).
void ParseGid(std::string_view text, PerftestEndpoint& endpoint) {
  endpoint.gid = Kept(text);
  auto parts = Split(text, ':');
  if (parts.size() != 16) return;
  std::array<std::uint8_t, 16> bytes{};
  for (std::size_t i = 0; i < 16; ++i) {
    auto v = ParseU64(parts[i]);
    if (!v || *v > 255 || parts[i].size() > 3) return;
    bytes[i] = static_cast<std::uint8_t>(*v);
  }
  endpoint.gid_bytes = bytes;
  bool mapped = bytes[10] == 0xff && bytes[11] == 0xff;
  for (std::size_t i = 0; i < 10; ++i) mapped = mapped && bytes[i] == 0;
  if (mapped) {
    endpoint.ipv4 = std::to_string(bytes[12]) + "." + std::to_string(bytes[13]) + "." +
                    std::to_string(bytes[14]) + "." + std::to_string(bytes[15]);
  }
}

// " local address: LID 0x1907 QPN 0x0867 PSN 0x6d058e RKey 0x1fffb9 VAddr 0x007f58a406e000".
PerftestEndpoint ParseEndpoint(std::string_view rest) {
  PerftestEndpoint endpoint;
  auto tokens = Tokens(rest);
  for (std::size_t i = 0; i + 1 < tokens.size; ++i) {
    if (tokens.items[i] == "LID") endpoint.lid = HexU32(tokens.items[i + 1]);
    if (tokens.items[i] == "QPN") endpoint.qpn = HexU32(tokens.items[i + 1]);
    if (tokens.items[i] == "PSN") endpoint.psn = HexU32(tokens.items[i + 1]);
  }
  return endpoint;
}

// Substrings that mark a line perftest (or the verbs library under it) printed because
// something failed: the fprintf(stderr, ...) texts of perftest's mains and
// perftest_{resources,communication,parameters}.c ("Couldn't connect to %s:%d", "Unable to open
// file descriptor for socket connection", "Failed to modify QP to RTR", " Did not detect
// devices", "No IB devices found", "Current implementation is not compatible with versions
// older than 5.70", "Completion with error at client", ...).
constexpr std::string_view kErrorMarkers[] = {
    "Couldn't",        "Could not",     "Couldnt",        "Unable to",      "unable to",
    "Failed",          "failed",        "Error",          "error",          "ERROR",
    "Did not detect",  "No IB devices", "not compatible", "Incompatibility", "Problem",
    "Can't",           "Cannot",        "cannot",         "timed out",      "Timeout",
    "timeout",         "not supported", "Not supported",  "Invalid",        "invalid",
    "refused",         "No such",       "Segmentation fault", "syndrom",    "Aborted",
    "mismatch",        "Killed",        "Permission denied", "Connection reset",
};

bool IsErrorLine(std::string_view trimmed) {
  for (auto marker : kErrorMarkers) {
    if (Contains(trimmed, marker)) return true;
  }
  return false;
}

// perftest's own warnings (" WARNING: BW peak won't be measured in this run.", "Warning: Large
// message requested and CQ moderation enabled", get_clock.c's "Conflicting CPU frequency values
// detected: ...") and the verbs library's ("libibverbs: Warning: couldn't load driver
// 'libmana-rdmav34.so': ... No such file or directory", which is not a failure of the test).
bool IsWarningLine(std::string_view trimmed) {
  return trimmed.starts_with("WARNING") || trimmed.starts_with("Warning") ||
         trimmed.starts_with("warning") || Contains(trimmed, "Warning:") ||
         Contains(trimmed, "WARNING:") || Contains(trimmed, "Conflicting CPU frequency");
}

// The table a header line announces, and how its rows are laid out.
enum class Table { kNone, kBandwidth, kLatency, kLatencyDuration };
struct TableFormat {
  Table table = Table::kNone;
  double bits_per_unit = 0;   // bandwidth: bits per second in one printed unit
  bool service_level = false; // " #bytes    #sl      #iterations ..." (RESULT_FMT_QOS)
  bool per_port = false;      // "... BW Port1[..] MsgRate Port1[Mpps] BW Port2 ..."
  bool cpu_util = false;      // "CPU_Util[%]" at the end
  std::size_t latency_columns = 0;  // after #bytes #iterations: t_min .. 99.9% present
  bool percentiles = false;
};

std::optional<TableFormat> TableHeader(std::string_view trimmed) {
  if (!trimmed.starts_with("#bytes")) return std::nullopt;
  TableFormat f;
  f.cpu_util = Contains(trimmed, "CPU_Util");
  if (Contains(trimmed, "BW peak") || Contains(trimmed, "BW average")) {
    f.table = Table::kBandwidth;
    if (Contains(trimmed, "[Gb/sec]")) {
      f.bits_per_unit = kBitsPerGigabit;
    } else if (Contains(trimmed, "[MB/sec]") || Contains(trimmed, "[MiB/sec]")) {
      f.bits_per_unit = kBitsPerMebibyte;
    } else {
      return std::nullopt;
    }
    f.service_level = Contains(trimmed, "#sl");
    f.per_port = Contains(trimmed, "Port1");
    return f;
  }
  if (Contains(trimmed, "t_min")) {
    f.table = Table::kLatency;
    f.percentiles = Contains(trimmed, "99.9");
    // t_min t_max t_typical, then (perftest 2.x and later) t_avg t_stdev, then (4.x and later)
    // the 99% and 99.9% percentiles.
    f.latency_columns = 3;
    if (Contains(trimmed, "t_avg")) f.latency_columns += 1;
    if (Contains(trimmed, "t_stdev")) f.latency_columns += 1;
    if (f.percentiles) f.latency_columns += 2;
    return f;
  }
  if (Contains(trimmed, "t_avg") && Contains(trimmed, "tps")) {
    f.table = Table::kLatencyDuration;
    return f;
  }
  return std::nullopt;
}

class Parser {
 public:
  Result<PerftestOutput> Run(std::string_view text) {
    std::size_t number = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      ++number;
      std::string_view line = text.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (auto error = Line(line, number)) return *error;
      if (end == text.size()) break;
      start = end + 1;
    }
    if (!recognized_) {
      return Error{"line 1: not perftest output: none of its " + std::to_string(number) +
                   " lines is a perftest test header, result table or error line"};
    }
    return std::move(out_);
  }

 private:
  // Handles one line; an Error only for a malformed table row.
  std::optional<Error> Line(std::string_view line, std::size_t number) {
    std::string_view t = Trim(line);
    bool continues_error = previous_was_error_;
    previous_was_error_ = false;
    if (t.empty()) return std::nullopt;

    if (t.starts_with("----")) {
      if (table_.table != Table::kNone && rows_in_table_ > 0) {
        table_.table = Table::kNone;
        out_.table_closed = true;
      }
      return std::nullopt;
    }
    if (auto format = TableHeader(t)) {
      table_ = *format;
      rows_in_table_ = 0;
      out_.table_closed = false;
      recognized_ = true;
      if (table_.table == Table::kBandwidth) {
        out_.kind = PerftestKind::kBandwidth;
        out_.bandwidth_unit = table_.bits_per_unit == kBitsPerGigabit
                                  ? PerftestBandwidthUnit::kGigabitsPerSecond
                                  : PerftestBandwidthUnit::kMebibytesPerSecond;
      } else {
        out_.kind = PerftestKind::kLatency;
      }
      return std::nullopt;
    }
    if (table_.table != Table::kNone && IsDigit(t.front())) {
      auto tokens = Tokens(t);
      // "-U"/"-H" print one sample a line ("1, 2.34") between the header and the report.
      if (tokens.size > 0 && tokens.items[0].back() == ',') return std::nullopt;
      return Row(t, tokens, number);
    }
    if (t == "Local results:") {
      scope_ = PerftestRowScope::kLocal;
      return std::nullopt;
    }
    if (t == "Remote results:") {
      scope_ = PerftestRowScope::kRemote;
      return std::nullopt;
    }
    if (TestName(t)) return std::nullopt;
    if (t.starts_with("local address:") || t.starts_with("remote address:")) {
      bool local = t.starts_with("local");
      auto& list = local ? out_.local : out_.remote;
      if (list.size() < kMaxEndpoints) {
        list.push_back(ParseEndpoint(t.substr(t.find(':') + 1)));
        last_endpoint_ = &list.back();
      } else {
        last_endpoint_ = nullptr;
      }
      recognized_ = true;
      return std::nullopt;
    }
    if (t.starts_with("GID:") || t.starts_with("MGID:")) {
      if (last_endpoint_ != nullptr && last_endpoint_->gid.empty()) {
        ParseGid(Trim(t.substr(t.find(':') + 1)), *last_endpoint_);
      }
      last_endpoint_ = nullptr;
      return std::nullopt;
    }
    if (t.starts_with("Version:")) {
      out_.version = Kept(Trim(t.substr(8)).substr(0, 32));
      recognized_ = true;
      return std::nullopt;
    }
    if (Contains(t, "Waiting for client")) {
      out_.server_waited = true;
      recognized_ = true;
      return std::nullopt;
    }
    if (HeaderFields(line)) return std::nullopt;
    // get_clock.c could not measure the cycle counter's rate (its samples correlate below r^2
    // 0.9: a loaded or virtualized host). perftest returns a rate of 0 and, under -F, goes on:
    // every time and bandwidth it then prints is 0 or arbitrary, not a measurement.
    if (Contains(t, "Correlation coefficient r^2")) {
      if (out_.errors.size() < kMaxPerftestMessages) {
        out_.errors.push_back("its cycle clock could not be calibrated (" + Kept(t) +
                              "), so its times and bandwidths are not measurements; run it again "
                              "on a less loaded host");
      }
      recognized_ = true;
      return std::nullopt;
    }
    if (IsWarningLine(t)) {
      if (out_.warnings.size() < kMaxPerftestMessages) out_.warnings.push_back(Kept(t));
      return std::nullopt;
    }
    // A failure, or the hint perftest prints under one (" Did not detect devices" /
    // " If device exists, check if driver is up").
    if (IsErrorLine(t) || continues_error) {
      if (out_.errors.size() < kMaxPerftestMessages) out_.errors.push_back(Kept(t));
      previous_was_error_ = true;
      recognized_ = true;
    }
    return std::nullopt;
  }

  // "                    RDMA_Write Bidirectional BW Test" (ctx_print_test_info): a verb
  // name of testsStr[], then words, ending in "Test".
  bool TestName(std::string_view t) {
    if (!t.ends_with(" Test") || t.size() > 128 || Contains(t, ":")) return false;
    constexpr std::string_view kVerbs[] = {"Send ",          "Send_imm ", "RDMA_Write ",
                                           "RDMA_Write_imm ", "RDMA_Read ", "Atomic ",
                                           "Raw Ethernet "};
    bool verb = false;
    for (auto v : kVerbs) verb = verb || t.starts_with(v);
    if (!verb) return false;
    bool latency = Contains(t, " Latency ") || Contains(t, " Lat ");
    bool bw = Contains(t, " BW ");
    if (!latency && !bw) return false;
    out_.test = Kept(t);
    out_.kind = latency ? PerftestKind::kLatency : PerftestKind::kBandwidth;
    out_.bidirectional = Contains(t, " Bidirectional ");
    out_.post_list_test = Contains(t, " Post List ");
    recognized_ = true;
    return true;
  }

  // The " Key : value" lines of ctx_print_test_info; true when the line held one.
  bool HeaderFields(std::string_view line) {
    bool any = false;
    auto text = [&](std::string_view key, std::string& into) {
      if (auto v = Field(line, key)) {
        into = Kept(v->substr(0, 64));
        any = true;
      }
    };
    auto number = [&](std::string_view key, std::optional<std::uint32_t>& into) {
      if (auto v = Field(line, key)) {
        into = LeadingU32(*v);
        any = true;
      }
    };
    text("Device", out_.device);
    text("Link type", out_.link_type);
    text("Transport type", out_.transport_type);
    text("Connection type", out_.connection_type);
    text("Data ex. method", out_.data_exchange);
    number("Mtu", out_.mtu);
    number("GID index", out_.gid_index);
    number("Number of qps", out_.queue_pairs);
    number("TX depth", out_.tx_depth);
    number("RX depth", out_.rx_depth);
    number("CQ Moderation", out_.cq_moderation);
    number("Post List", out_.post_list);
    number("Outstand reads", out_.outstanding_reads);
    number("Max inline data", out_.max_inline_bytes);
    number("TOS", out_.tos);
    for (std::string_view other : {"Dual-port", "Using SRQ", "PCIe relax order", "ibv_wr* API",
                                   "rdma_cm QPs", "CQE Poll Batch", "NUMA node", "Lock-free"}) {
      any = any || Field(line, other).has_value();
    }
    if (any) recognized_ = true;
    return any;
  }

  std::optional<Error> Malformed(std::size_t number, std::string_view t, std::string_view why) {
    return Error{"line " + std::to_string(number) + ": malformed perftest result row (" +
                 std::string(why) + "): " + Quote(t, 120)};
  }

  std::optional<Error> Row(std::string_view t, const RowTokens& row_tokens, std::size_t number) {
    const auto& tokens = row_tokens.items;
    std::size_t want = 0;
    switch (table_.table) {
      case Table::kBandwidth:
        want = table_.per_port ? 9 : (table_.service_level ? 6 : 5);
        break;
      case Table::kLatency:
        want = 2 + table_.latency_columns;
        break;
      case Table::kLatencyDuration:
        want = 4;
        break;
      case Table::kNone:
        return std::nullopt;
    }
    if (table_.cpu_util) ++want;
    if (row_tokens.too_many || row_tokens.size != want) {
      return Malformed(number, t,
                       "expected " + std::to_string(want) + " columns, found " +
                           (row_tokens.too_many
                                ? std::string("more than ") + std::to_string(kMaxRowTokens)
                                : std::to_string(row_tokens.size)));
    }
    auto bytes = ParseU64(tokens[0]);
    if (!bytes) return Malformed(number, t, "#bytes is not a whole number in range");
    std::size_t next = 1;
    std::optional<std::uint32_t> sl;
    if (table_.table == Table::kBandwidth && table_.service_level) {
      auto v = ParseU64(tokens[next++]);
      if (!v || *v > 0xffffffffULL) return Malformed(number, t, "#sl is not a whole number");
      sl = static_cast<std::uint32_t>(*v);
    }
    auto iterations = ParseU64(tokens[next++]);
    if (!iterations) return Malformed(number, t, "#iterations is not a whole number in range");
    std::array<double, kMaxRowTokens> values{};
    std::size_t count = 0;
    bool finite = true;
    for (std::size_t i = next; i < row_tokens.size; ++i) {
      auto v = ParseDouble(tokens[i]);
      if (!v) {
        return Malformed(number, t, "column " + std::to_string(i + 1) + " is not a number");
      }
      finite = finite && std::isfinite(*v);
      values[count++] = *v;
    }
    rows_in_table_++;
    // A bandwidth column counts in its table's unit: judge it scaled to bits per second.
    const double scale = table_.table == Table::kBandwidth ? table_.bits_per_unit : 1.0;
    for (std::size_t i = 0; i < count && finite; ++i) {
      const double base = values[i] * (table_.table == Table::kBandwidth && i < 2 ? scale : 1.0);
      finite = std::isfinite(base) && base >= 0 && base <= kMaxPlausibleValue;
    }
    if (!finite) {
      if (out_.errors.size() < kMaxPerftestMessages) {
        out_.errors.push_back(
            "line " + std::to_string(number) +
            ": perftest printed a value that is not a finite number (or is negative, or above "
            "1e15 in its base unit): a malformed result row: " +
            Kept(t));
      }
      return std::nullopt;
    }
    if (out_.bandwidth.size() + out_.latency.size() >= kMaxPerftestRows) {
      out_.rows_dropped++;
      return std::nullopt;
    }
    std::optional<double> cpu;
    if (table_.cpu_util) cpu = values[count - 1];
    if (table_.table == Table::kBandwidth) {
      PerftestBandwidthRow row;
      row.bytes = *bytes;
      row.iterations = *iterations;
      row.peak_bits_per_second = values[0] * table_.bits_per_unit;
      row.average_bits_per_second = values[1] * table_.bits_per_unit;
      row.message_rate_pps = values[2] * kPacketsPerMega;
      row.service_level = sl;
      row.cpu_util_percent = cpu;
      row.scope = scope_;
      row.line = number;
      out_.bandwidth.push_back(row);
      return std::nullopt;
    }
    PerftestLatencyRow row;
    row.bytes = *bytes;
    row.iterations = *iterations;
    row.cpu_util_percent = cpu;
    row.line = number;
    if (table_.table == Table::kLatencyDuration) {
      row.has_distribution = false;
      row.average_us = values[0];
      row.transactions_per_second = values[1];
    } else {
      row.min_us = values[0];
      row.max_us = values[1];
      row.typical_us = values[2];
      std::size_t i = 3;
      if (table_.latency_columns >= 4) row.average_us = values[i++];
      if (table_.latency_columns >= 5) row.stdev_us = values[i++];
      if (table_.percentiles) {
        row.p99_us = values[i++];
        row.p99_9_us = values[i++];
      }
    }
    out_.latency.push_back(row);
    return std::nullopt;
  }

  PerftestOutput out_;
  TableFormat table_;
  std::size_t rows_in_table_ = 0;
  PerftestRowScope scope_ = PerftestRowScope::kTotal;
  PerftestEndpoint* last_endpoint_ = nullptr;
  bool previous_was_error_ = false;
  bool recognized_ = false;
};

}  // namespace

Result<PerftestOutput> ParsePerftestOutput(std::string_view text) { return Parser().Run(text); }

}  // namespace rocewatch::lint::verify
