#!/usr/bin/env python3
"""`roce-lint check --format html` in a real headless Chromium (Debian's `chromium`).

Input: the demo cluster's fourteen replayed exporters (their /metrics saved to files), a firmware
label value made hostile on gpu-08, and one extra planned node with a hostile name and no
exporter (unreachable). For English and Chinese pages:
  - Chromium loads the page with no console message (script errors, CSP violations: the page's
    policy is default-src 'none', so any external asset would be one) and the inline script ran;
  - the DOM Chromium built holds one row per finding of the JSON report of the same input, in
    order, with its check, expected, found and fix texts; the hostile texts are text, not
    elements; the node grid has one cell per planned node, coloured by its worst finding;
  - a filter given in the URL (#severity=critical) hides every lower finding, and a malformed
    %-escape in it (#check=%E0%A4%A) is ignored without a script error;
  - the page's CSP allows its one inline script by its SHA-256, never 'unsafe-inline';
and a screenshot of each page is kept under --artifacts.
A control page with a deliberate script error must be reported, so the console check can fail.
"""

import argparse
import base64
import hashlib
import html.parser
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from exporter_process import Checks, Exporter  # noqa: E402

# A node name carrying markup is refused by the plan (plan.invalid-name: node names are host
# names), checked below; the extra node gets a valid name, and the markup that does reach the
# page comes from an exporter's label value (HOSTILE_FW) and the node's printable plan labels.
REFUSED_NODE = "gpu-99\"><img src=x onerror=alert(1)><script>alert(2)</script>"
HOSTILE_NODE = "gpu-99"
HOSTILE_FW = "28.36.1010<b id=pwn>x</b>&amp;"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--enable-logging=stderr", "--v=0"]


def chromium(binary, profile, url, *extra, timeout=90):
    """Runs headless Chromium on url; returns (stdout, console lines from its log)."""
    proc = subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra, url],
                          capture_output=True, text=True, timeout=timeout)
    console = [line for line in proc.stderr.splitlines() if "CONSOLE" in line]
    if proc.returncode != 0:
        raise RuntimeError(f"chromium exited {proc.returncode}:\n{proc.stderr[-3000:]}")
    return proc.stdout, console


class Dom(html.parser.HTMLParser):
    """The elements of Chromium's serialised DOM: tags counted, finding rows and grid cells with
    their cells' text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = {}
        self.rows = []    # (attrs, [cell texts])
        self.cells = []   # (attrs, text)
        self.body = {}
        self._row = None
        self._cell = None
        self._node = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "body":
            self.body = a
        if tag == "tr" and "finding" in a.get("class", "").split():
            self._row = (a, [])
        elif tag == "td" and self._row is not None:
            self._cell = []
        elif tag == "a" and "node" in a.get("class", "").split():
            self._node = (a, [])

    def handle_endtag(self, tag):
        if tag == "td" and self._row is not None and self._cell is not None:
            self._row[1].append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        elif tag == "a" and self._node is not None:
            self.cells.append((self._node[0], "".join(self._node[1])))
            self._node = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._node is not None:
            self._node[1].append(data)


def save_metrics(exporter_bin, demo, metrics):
    plan = json.loads((demo / "plan.json").read_text())
    for node in plan["nodes"]:
        name = node["name"]
        with Exporter(exporter_bin, ["--replay", str(demo / "nodes" / name)]) as e:
            with urllib.request.urlopen(f"http://127.0.0.1:{e.port}/metrics", timeout=30) as r:
                text = r.read().decode()
        if name == "gpu-08":
            assert 'fw_version="28.36.1010"' in text, "gpu-08 has no old firmware label to make hostile"
            text = text.replace('fw_version="28.36.1010"', 'fw_version="' + HOSTILE_FW.replace('"', '\\"') + '"')
        (metrics / f"{name}.prom").write_text(text)
    plan["nodes"].append({"name": HOSTILE_NODE, "exporter": "127.0.0.1:9", "management_ip": "192.168.100.99",
                          "nics": [dict(plan["nodes"][0]["nics"][0], roce_ip="10.10.0.99/24")]})
    return plan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--demo", required=True)
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = ap.parse_args()
    if not shutil.which(args.chromium):
        print(f"chromium not found ({args.chromium}): scripts/install-deps.sh installs it")
        return 1
    artifacts = pathlib.Path(args.artifacts).resolve()
    artifacts.mkdir(parents=True, exist_ok=True)
    check = Checks(echo=False)
    failures = check.failures
    with tempfile.TemporaryDirectory(prefix="pkg-html-") as tmp:
        tmp = pathlib.Path(tmp)
        metrics = tmp / "metrics"
        metrics.mkdir()
        plan = save_metrics(args.exporter, pathlib.Path(args.demo), metrics)
        plan_path = tmp / "plan.json"
        refused = json.loads(json.dumps(plan))
        refused["nodes"][-1]["name"] = REFUSED_NODE
        refused_path = tmp / "refused.json"
        refused_path.write_text(json.dumps(refused, indent=1))
        p = subprocess.run([args.lint, "check", str(refused_path), "--metrics-dir", str(metrics), "--format", "html"],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and "node name of nodes" in p.stderr and "<img" not in p.stdout,
              f"a node name with markup was not refused by the plan: exit {p.returncode}")
        plan_path.write_text(json.dumps(plan, indent=1))

        def lint(*extra):
            p = subprocess.run([args.lint, "check", str(plan_path), "--metrics-dir", str(metrics), *extra],
                               capture_output=True, text=True, timeout=60)
            if p.returncode not in (0, 1):
                raise RuntimeError(f"roce-lint check {' '.join(extra)} exited {p.returncode}: {p.stderr}")
            return p.stdout

        findings = json.loads(lint("--format", "json"))["findings"]
        check(len(findings) >= 14, f"the demo gives {len(findings)} findings, expected at least 14")
        check(any(HOSTILE_FW in f["found"] for f in findings), "no finding shows the hostile firmware")
        check(any(f["node"] == HOSTILE_NODE for f in findings), "no finding for the hostile node")

        control = tmp / "control.html"
        control.write_text("<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>")
        _, console = chromium(args.chromium, tmp / "profile-control", control.as_uri(), "--dump-dom")
        check(any("undefinedFunction" in line for line in console),
              f"the console check missed a script error: {console}")

        for lang in ("en", "zh"):
            page = artifacts / f"report-{lang}.html"
            page.write_text(lint("--format", "html", "--lang", lang))
            raw = page.read_text()
            check("<img" not in raw and raw.count("<script") == 1,
                  f"{lang}: hostile text became markup in the page source")
            check("unsafe-inline" not in raw, f"{lang}: the CSP still allows 'unsafe-inline'")
            script = raw[raw.index("<script>") + len("<script>"):raw.index("</script>")]
            want_hash = "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
            check(f"script-src {want_hash}\"" in raw,
                  f"{lang}: the CSP does not name the page's script by its hash {want_hash}")
            check("http:" not in raw.replace("http://127.0.0.1:9", "") and "https:" not in raw,
                  f"{lang}: the page names an external URL")
            dom_text, console = chromium(args.chromium, tmp / f"profile-{lang}", page.as_uri(), "--dump-dom")
            check(console == [], f"{lang}: console messages: {console}")
            dom = Dom()
            dom.feed(dom_text)
            check(dom.body.get("data-ready") == "1", f"{lang}: the page's script did not run")
            check(dom.tags.get("img", 0) == 0 and dom.tags.get("b", 0) == 0 and dom.tags.get("script") == 1,
                  f"{lang}: hostile text created elements: {dom.tags}")
            check(len(dom.rows) == len(findings),
                  f"{lang}: {len(dom.rows)} finding rows, the JSON report has {len(findings)}")
            # The rows in `lang`: the JSON report in the same language carries each text in it
            # (expected_zh, …) next to the English one.
            texts = findings if lang == "en" else json.loads(lint("--format", "json", "--lang", lang))["findings"]
            suffix = "" if lang == "en" else "_" + lang
            for (attrs, cells), f in zip(dom.rows, texts):
                check(attrs.get("data-check") == f["check"] and attrs.get("data-severity") == f["severity"],
                      f"{lang}: row {attrs} is not finding {f['check']}")
                check(len(cells) == 7 and cells[1].startswith(f["check"]) and cells[4] == f["expected" + suffix]
                      and cells[5] == f["found" + suffix] and cells[6] == f["fix" + suffix],
                      f"{lang}: row of {f['check']} on {f['node']}: {cells}")
            check(len(dom.cells) == len(plan["nodes"]),
                  f"{lang}: {len(dom.cells)} grid cells for {len(plan['nodes'])} nodes")
            names = [text for _, text in dom.cells]
            check(any(t.startswith(HOSTILE_NODE) for t in names), f"{lang}: hostile node name not shown as text")
            worst = {}
            rank = ["info", "warning", "error", "critical"]
            for f in findings:
                worst[f["node"]] = max(worst.get(f["node"], "info"), f["severity"], key=rank.index)
            for (attrs, text), node in zip(dom.cells, plan["nodes"]):
                unreachable = any(f["node"] == node["name"] and f["check"] == "inventory.exporter-unreachable"
                                  for f in findings)
                want = "unreachable" if unreachable else worst.get(node["name"], "passed")
                check(f"st-{want}" in attrs.get("class", "").split(),
                      f"{lang}: {node['name']} cell is {attrs.get('class')}, expected st-{want}")
            if lang == "zh":
                check("详情" in dom_text or "期望" in dom_text, "zh: no Chinese column labels")
            filtered, console = chromium(args.chromium, tmp / f"profile-{lang}-f", page.as_uri() + "#severity=critical",
                                         "--dump-dom")
            fdom = Dom()
            fdom.feed(filtered)
            visible = [a for a, _ in fdom.rows if "hidden" not in a]
            want_visible = [f for f in findings if f["severity"] == "critical"]
            check(console == [] and len(visible) == len(want_visible) and
                  all(a["data-severity"] == "critical" for a in visible),
                  f"{lang}: #severity=critical shows {len(visible)} rows, expected {len(want_visible)}")
            # A malformed %-escape in the fragment (decodeURIComponent throws URIError) is
            # ignored: the script still runs and applies the well-formed severity filter.
            broken, console = chromium(args.chromium, tmp / f"profile-{lang}-b",
                                       page.as_uri() + "#check=%E0%A4%A&severity=critical", "--dump-dom")
            bdom = Dom()
            bdom.feed(broken)
            bvisible = [a for a, _ in bdom.rows if "hidden" not in a]
            check(console == [] and bdom.body.get("data-ready") == "1" and len(bvisible) == len(want_visible),
                  f"{lang}: #check=%E0%A4%A&severity=critical: console {console}, ready "
                  f"{bdom.body.get('data-ready')}, {len(bvisible)} rows shown, expected {len(want_visible)}")
            shot = artifacts / f"report-{lang}.png"
            chromium(args.chromium, tmp / f"profile-{lang}-s", page.as_uri(), f"--screenshot={shot}",
                     "--window-size=1400,1800", "--hide-scrollbars")
            check(shot.exists() and shot.stat().st_size > 10000, f"{lang}: no screenshot at {shot}")
    for f in failures:
        print("FAIL:", f)
    print(f"{'FAILED' if failures else 'OK'}: pages and screenshots in {artifacts}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
