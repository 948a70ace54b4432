#!/usr/bin/env python3
"""The plan JSON Schema must accept exactly what roce-lint's loader accepts.

Usage: check_schema_corpus.py SCHEMA CORPUS_DIR EXAMPLE_PLAN

CORPUS_DIR/valid/*.json must validate and CORPUS_DIR/invalid/*.json must not; schema_test.cpp
feeds the same files to the loader and expects the same split (no "plan.schema.*" findings for
valid/, at least one for invalid/).
"""
import glob
import json
import os
import sys

import jsonschema


def main() -> int:
    schema_path, corpus, example = sys.argv[1:4]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []
    valid = sorted(glob.glob(os.path.join(corpus, "valid", "*.json"))) + [example]
    invalid = sorted(glob.glob(os.path.join(corpus, "invalid", "*.json")))
    if len(valid) < 2 or not invalid:
        failures.append(f"empty corpus under {corpus}")
    for path in valid:
        with open(path, encoding="utf-8") as f:
            errors = list(validator.iter_errors(json.load(f)))
        if errors:
            failures.append(f"{path}: schema rejects a valid plan: {errors[0].message}")
    for path in invalid:
        with open(path, encoding="utf-8") as f:
            if validator.is_valid(json.load(f)):
                failures.append(f"{path}: schema accepts an invalid plan")
    for line in failures:
        print(line)
    print(f"{len(valid)} valid and {len(invalid)} invalid plans checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
