#pragma once

// The `.errno` files of a capture (docs/capture.md): a read or kernel call that failed on the
// captured node is kept as `<path>.errno` holding "<errno> <description>" ("13 Permission
// denied"), and replays as that errno. One reader for the trees (fs::Tree) and the kernel
// answers (kernel/capture_files), pure and fuzzed (tests/fuzz/capture_metadata_fuzz.cpp).

#include <string_view>

namespace rocewatch::fs {

// The errno at the start of `text` (1–4095, the range the kernel uses); EIO for anything else
// (empty, not a number, 0, negative, out of range): the call failed, for a reason lost.
int ParseErrnoRecord(std::string_view text);

}  // namespace rocewatch::fs
