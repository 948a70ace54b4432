#pragma once

// Reading a switch's JSON as hostile input (lint/switch/): the one error type of the readers,
// carrying the JSON path of the value at fault, and the typed getters they share. The readers
// throw Bad inside and ParseSwitchConfig turns it into an Error naming file and path, so each
// reader stays a straight walk over the tables it knows. Unknown keys are never an error.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::lint::switch_config {

using json = nlohmann::json;

struct Bad {
  std::string path;  // "/PORT_QOS_MAP/Ethernet0/pfc_enable"
  std::string what;  // "expected a string, found an array"
};

// "/a/b" + "c" → "/a/b/c", escaping '~' and '/' as JSON Pointer does.
std::string Child(const std::string& path, std::string_view key);
// "an object", "an array", "a string", "a number", "a boolean", "null".
std::string_view KindOf(const json& v);

// The member `key` of the object `obj`, nullptr when absent; Bad when `obj` is not an object.
const json* Member(const json& obj, const std::string& path, std::string_view key);
// `v` must be an object (Bad otherwise).
const json& Object(const json& v, const std::string& path);
// A string value, or an integer written as a number (config_db writes numbers as strings; a
// hand-edited file may not).
std::string Text(const json& v, const std::string& path);
// An integer in [min, max] from a string or a number.
std::int64_t Integer(const json& v, const std::string& path, std::int64_t min, std::int64_t max);
// An integer in [min, max] from text (a key or a list item), Bad naming `path` otherwise.
std::int64_t IntegerText(std::string_view text, const std::string& path, std::int64_t min, std::int64_t max);

// The integer keys of the object `v` ({"26": "3"}), each in [min, max] (max - min below 4096),
// with their values, in the object's order. Two keys that read as one number ("3", " 3",
// "\t3", "03") are Bad, as a repeated key is: JSON keeps both, and a reader that trims blanks
// must not see two entries for one priority (nor walk them again for every port).
std::vector<std::pair<std::int64_t, const json*>> IntegerKeys(const json& v, const std::string& path,
                                                              std::int64_t min, std::int64_t max);

// The Bad of a file that names more than kMaxSwitchPorts ports (`path`: where the one too many is).
Bad TooManyPorts(const std::string& path);

// `text` as JSON, refused before parsing when it is larger than `max_bytes` or nests deeper than
// `max_depth`; errors start with `source` ("sw1.json: invalid JSON: …") and name `what`
// ("a switch configuration") and why the depth is enough (`depth_why`).
Result<json> ParseBoundedJson(std::string_view text, const std::string& source,
                              std::size_t max_bytes, std::size_t max_depth,
                              std::string_view what, std::string_view depth_why);

}  // namespace rocewatch::lint::switch_config
