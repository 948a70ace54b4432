#pragma once

// Reads a whole file into memory, refusing files above a size limit (hostile or mistaken input:
// a plan or a metrics file is never gigabytes).

#include <cstddef>
#include <string>

#include "rocewatch/result.h"

namespace rocewatch {

// "-" reads standard input. Errors name the path and carry errno in Error::code.
Result<std::string> ReadFileCapped(const std::string& path, std::size_t max_bytes);

}  // namespace rocewatch
