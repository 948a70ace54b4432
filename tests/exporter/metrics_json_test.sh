#!/bin/sh
# docs/metrics.json is the output of `roce_exporter catalogue` (the exporter's spec tables):
# fails, with the difference, when a metric is added, renamed or changed without regenerating it.
#   usage: metrics_json_test.sh ROCE_EXPORTER SOURCE_DIR
set -eu
exporter=$1
json=$2/docs/metrics.json
out=$(mktemp)
trap 'rm -f "$out"' EXIT INT TERM
"$exporter" catalogue >"$out"
if ! diff -u "$json" "$out"; then
  echo "docs/metrics.json differs from the exporter's spec tables; regenerate it with" >&2
  echo "  build/exporter/roce_exporter catalogue > docs/metrics.json" >&2
  echo "and update docs/metrics.md (tests/exporter/catalogue_test.cpp checks it)." >&2
  exit 1
fi
