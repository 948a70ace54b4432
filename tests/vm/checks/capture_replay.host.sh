# The guest's capture replayed here serves what the live exporter served in the guest
# (capture_replay.sh): the same series and values, the run-dependent ones aside.
set -eu
art=$1
src=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xf "$art/capture.tar"
python3 - "$ROCEWATCH_BUILD/exporter/roce_exporter" "$tmp/cap" "$art/live.prom" $(cat "$art/flags") <<PY
import difflib, sys
sys.path.insert(0, "$src/tests/e2e")
from exporter_process import Exporter, stable_lines
binary, cap, live = sys.argv[1:4]
flags = sys.argv[4:]
def roce(lines):
    return [l for l in lines if l.startswith("roce_") and not l.startswith("roce_exporter_")]
with Exporter(binary, ["--replay", cap, *flags]) as exp:
    status, body = exp.get("/metrics")
    assert status == 200, status
replayed = roce(stable_lines(body))
served = roce(stable_lines(open(live).read()))
if replayed != served:
    print("\n".join(difflib.unified_diff(served, replayed, "live in the guest", "replayed here", lineterm="", n=0)))
    sys.exit("the replayed capture differs from the live exporter")
print(f"{len(served)} series equal, live in the guest and replayed on the host")
PY
