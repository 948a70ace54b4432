#include "lint/plan/csv.h"

#include <algorithm>
#include <cstdio>

#include "rocewatch/strings.h"

namespace rocewatch::lint::plan {

std::string ColumnLetter(std::size_t index) {
  std::string out;
  std::size_t n = index + 1;
  while (n > 0) {
    out.insert(out.begin(), static_cast<char>('A' + (n - 1) % 26));
    n = (n - 1) / 26;
  }
  return out;
}

Result<std::vector<CsvRecord>> ParseCsv(std::string_view text, std::string_view source_name) {
  const std::string name(source_name);
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (const std::size_t bad = FirstInvalidUtf8(text); bad != std::string_view::npos) {
    const auto bad_line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X",
                  static_cast<unsigned>(static_cast<unsigned char>(text[bad])));
    return Error{name + " line " + std::to_string(bad_line) + ": byte " + byte +
                 " is not UTF-8; save the spreadsheet as \"CSV UTF-8\""};
  }

  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  bool field_quoted = false;
  std::size_t line = 1;
  std::size_t i = 0;
  const std::size_t n = text.size();

  auto where = [&](std::size_t row, std::size_t column) {
    return name + " row " + std::to_string(row) + ", column " + ColumnLetter(column);
  };
  auto end_field = [&]() {
    record.fields.push_back(field_quoted ? std::move(field) : std::string(Trim(field)));
    field.clear();
    field_quoted = false;
  };
  auto end_record = [&]() {
    end_field();
    record.row = records.size() + 1;
    records.push_back(std::move(record));
    record = CsvRecord{};
  };
  auto at_line_end = [&](std::size_t k) { return k < n && (text[k] == '\n' || text[k] == '\r'); };
  // Consumes one line end (CRLF, LF or CR) at i.
  auto skip_line_end = [&]() {
    if (text[i] == '\r' && i + 1 < n && text[i + 1] == '\n') ++i;
    ++i;
    ++line;
  };

  record.line = line;
  bool record_open = false;  // something (even an empty field) was read on this record
  while (i < n) {
    char c = text[i];
    const std::size_t row = records.size() + 1;
    const std::size_t column = record.fields.size();
    if (c == '"' && !field_quoted && Trim(field).empty()) {
      // Quoted field (blanks before the quote are dropped): runs to the next quote not doubled.
      const std::size_t open_line = line;
      field.clear();
      field_quoted = true;
      ++i;
      while (true) {
        if (i >= n) {
          return Error{where(row, column) + ": quoted field opened on line " +
                       std::to_string(open_line) + " is never closed"};
        }
        char q = text[i];
        if (q == '"') {
          if (i + 1 < n && text[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        if (q == '\n') ++line;
        field += q;
        ++i;
      }
      // After the closing quote: a separator, a line end or the end of the file.
      std::size_t k = i;
      while (k < n && (text[k] == ' ' || text[k] == '\t')) ++k;
      if (k < n && text[k] != ',' && !at_line_end(k)) {
        return Error{where(row, column) +
                     ": unexpected text after the closing quote: " + Quote(text.substr(k, 16))};
      }
      i = k;
      record_open = true;
      continue;
    }
    if (c == '"') {
      return Error{where(row, column) +
                   ": quote inside an unquoted field; quote the whole field and double the "
                   "quote (\"\")"};
    }
    if (c == ',') {
      end_field();
      ++i;
      record_open = true;
      continue;
    }
    if (c == '\n' || c == '\r') {
      skip_line_end();
      end_record();
      record.line = line;
      record_open = false;
      continue;
    }
    field += c;
    ++i;
    record_open = true;
  }
  if (record_open || !field.empty()) end_record();
  return records;
}

}  // namespace rocewatch::lint::plan
