#!/usr/bin/env python3
"""Prints, one line each, NAME<TAB>KEY for every key_* function of tools/gen/kernel_answers.py
(the capture keys the fixture generators write answers under), each called with the arguments
argv[1] (a JSON object) gives by parameter name. kernel_calls_test compares the keys with the
Key() of every call of exporter/kernel/calls.h, so the two cannot drift apart.

usage: generator_keys.py '{"netdev": "eth0", ...}'
"""

import inspect
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "gen"))
import kernel_answers  # noqa: E402

args = json.loads(sys.argv[1])
for name, fn in sorted(vars(kernel_answers).items()):
    if not (name.startswith("key_") and inspect.isfunction(fn)):
        continue
    params = inspect.signature(fn).parameters
    missing = [p for p, spec in params.items() if p not in args and spec.default is inspect.Parameter.empty]
    if missing:
        sys.exit(f"{name}: no value given for {', '.join(missing)}")
    print(f"{name}\t{fn(**{p: args[p] for p in params if p in args})}")
