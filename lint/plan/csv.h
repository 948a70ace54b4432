#pragma once

// An RFC 4180 CSV reader for spreadsheet exports: quoted fields with "" for a quote and line
// breaks inside, CRLF or LF line ends, a UTF-8 byte order mark at the start. Unquoted fields
// are trimmed of surrounding blanks (spreadsheets pad them); quoted fields are kept as written.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::lint::plan {

struct CsvRecord {
  std::size_t row = 0;   // 1-based record number, as a spreadsheet numbers rows (header = 1)
  std::size_t line = 0;  // 1-based line where the record starts in the file
  std::vector<std::string> fields;
};

// Errors name the row and the column letter ("nics.csv row 4, column C: …").
Result<std::vector<CsvRecord>> ParseCsv(std::string_view text, std::string_view source_name);

// Spreadsheet column letters: 0 -> "A", 25 -> "Z", 26 -> "AA".
std::string ColumnLetter(std::size_t index);

}  // namespace rocewatch::lint::plan
