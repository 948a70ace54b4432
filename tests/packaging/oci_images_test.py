#!/usr/bin/env python3
"""The OCI images built, loaded into Podman, run and scraped (needs root; exit 77 = skipped).

1. packaging/build-images.sh writes rocewatch/roce-exporter:TAG and rocewatch/roce-lint:TAG
   as OCI archives (reusing the .deb files in --debs when they are current); its time is
   printed;
2. each archive, read as files: the reference, the tag (= the package version), the labels
   (source, revision = HEAD, version), the user (exporter 0, roce-lint 65534) and entrypoint,
   and the layer: the binary there, and no shell, dpkg, apt, compiler, man page, locale or doc
   but copyright files (the layer's size is printed);
3. `podman load -i` of each; the exporter runs as its docs say (host network, --read-only,
   --cap-drop=ALL --cap-add=NET_ADMIN, no-new-privileges) on the replayed capture --fixture
   bind-mounted read-only, listens on 127.0.0.1:0, and /metrics, scraped from here, serves the
   capture's ports; its process has uid 0, CapEff = CAP_NET_ADMIN only and NoNewPrivs;
4. `roce-lint check` in its image (read-only, no capability) scrapes that exporter for a plan
   of the capture's node and gives the findings `--metrics-dir` gives on the saved scrape, with
   the node reached; a plan pointing at a closed port gives inventory.exporter-unreachable;
5. deploy/kubernetes/kustomization.yaml's `images:` names exactly these images and tags, and
   every rocewatch container of the rendered manifests uses one of them (sidecars of other
   images are not ours to check).
Podman's default runtime (crun) is tried first; where it cannot start a container here (crun
1.8 refuses cgroup v1/v2 hybrid hosts) runc is used, and the test says which.
"""

import argparse
import gzip
import io
import json
import os
import pathlib
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request

SKIP = 77
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import k8s_manifests_test  # noqa: E402  (the kustomization renderer)

IMAGES = {"roce-exporter": {"binary": "usr/bin/roce_exporter", "user": "0:0"},
          "roce-lint": {"binary": "usr/bin/roce-lint", "user": "65534:65534"}}
FORBIDDEN = [r"^(usr/)?bin/(sh|bash|dash)$", r"^usr/bin/(dpkg|apt|apt-get|perl|gcc|cc|c\+\+|g\+\+)$",
             r"^var/lib/(apt|dpkg)/", r"^var/cache/apt/", r"^usr/share/(man|info|locale|lintian)/",
             r"^usr/lib/gcc/", r"^usr/include/"]


def run(cmd, timeout=600, check=True, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if check and p.returncode != 0:
        raise RuntimeError(f"{cmd} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


def read_archive(path):
    """(ref name, config, the layer's names but directories', compressed and uncompressed bytes)."""
    with tarfile.open(path) as t:
        def blob(digest):
            return t.extractfile("./blobs/sha256/" + digest.split(":", 1)[1]).read()
        index = json.loads(t.extractfile("./index.json").read())
        (desc,) = index["manifests"]
        manifest = json.loads(blob(desc["digest"]))
        config = json.loads(blob(manifest["config"]["digest"]))
        names, packed, unpacked = [], 0, 0
        for layer in manifest["layers"]:
            data = blob(layer["digest"])
            packed += len(data)
            if layer["mediaType"].endswith("+gzip"):
                data = gzip.decompress(data)
            unpacked += len(data)
            with tarfile.open(fileobj=io.BytesIO(data)) as lt:
                names += [m.name.removeprefix("./") for m in lt.getmembers() if not m.isdir()]
        return desc.get("annotations", {}).get("org.opencontainers.image.ref.name"), config, names, packed, unpacked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True, help="repository root")
    ap.add_argument("--out", required=True, help="where build-images.sh writes the archives")
    ap.add_argument("--debs", required=True, help="where the .deb files are (built there if not current)")
    ap.add_argument("--fixture", required=True, help="a capture to replay in the exporter's image")
    args = ap.parse_args()
    source = pathlib.Path(args.source)
    if os.geteuid() != 0:
        print("SKIPPED: the image test needs root (mmdebstrap, rootful podman)")
        return SKIP
    for tool in ("mmdebstrap", "umoci", "podman", "dpkg-parsechangelog"):
        if not shutil.which(tool):
            print(f"FAIL: {tool} is missing: scripts/install-deps.sh installs it")
            return 1

    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    started = time.monotonic()
    built = run([str(source / "packaging/build-images.sh")], timeout=1800,
                env=dict(os.environ, OUT=args.out, DEBS=args.debs))
    print(built.stdout.strip())
    print(f"== build-images.sh: {time.monotonic() - started:.1f} s")
    version = run(["dpkg-parsechangelog", "-l", str(source / "packaging/debian/changelog"),
                   "-SVersion"]).stdout.strip()
    tag = re.sub(r"[+~]", "-", re.sub(r"^\d+:", "", version))
    commit = run(["git", "-C", str(source), "rev-parse", "HEAD"]).stdout.strip()
    refs = {name: f"rocewatch/{name}:{tag}" for name in IMAGES}

    # 2. The archives as files.
    for name, want in IMAGES.items():
        archive = pathlib.Path(args.out) / f"{name}_{tag}.oci.tar"
        if not archive.exists():
            failures.append(f"{archive} was not written")
            continue
        ref, config, names, packed, unpacked = read_archive(archive)
        print(f"== {name}: archive {archive.stat().st_size / 2**20:.1f} MiB, layer {packed / 2**20:.1f} MiB"
              f" compressed, {unpacked / 2**20:.1f} MiB unpacked, {len(names)} files")
        check(ref == refs[name], f"{name}: ref.name {ref!r}, expected {refs[name]!r}")
        c = config.get("config", {})
        labels = c.get("Labels", {})
        check(labels.get("org.opencontainers.image.version") == version
              and labels.get("org.opencontainers.image.revision") == commit
              and labels.get("org.opencontainers.image.source", "").startswith("https://"),
              f"{name}: labels {labels}")
        check(c.get("User") == want["user"], f"{name}: user {c.get('User')!r}, expected {want['user']}")
        check(c.get("Entrypoint") == ["/" + want["binary"]], f"{name}: entrypoint {c.get('Entrypoint')}")
        check(want["binary"] in names, f"{name}: the layer lacks {want['binary']}")
        bad = [n for n in names for pat in FORBIDDEN if re.search(pat, n)]
        bad += [n for n in names if n.startswith("usr/share/doc/")
                and not n.endswith("/copyright") and not n.startswith("usr/share/doc/roce-lint/examples/")]
        check(not bad, f"{name}: the layer holds what an image does not need: {bad[:20]}")
        check(packed < 32 * 2**20, f"{name}: layer of {packed} bytes")

    # 3. Podman.
    for name in IMAGES:
        load = run(["podman", "load", "-i", str(pathlib.Path(args.out) / f"{name}_{tag}.oci.tar")], check=False)
        check(load.returncode == 0 and refs[name] in load.stdout + load.stderr,
              f"podman load {name}: {load.returncode} {load.stdout} {load.stderr}")
    hard_nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    hard_nproc = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    nproc = 4096 if hard_nproc == resource.RLIM_INFINITY else min(4096, hard_nproc)
    # Podman raises the limits beyond the sandbox's hard limits unless told these.
    limits = ["--ulimit", f"nofile={hard_nofile}:{hard_nofile}", "--ulimit", f"nproc={nproc}:{nproc}"]
    runtime = None
    for candidate in ([], ["--runtime", "runc"]):
        probe = run(["podman", *candidate, "run", "--rm", *limits, "--network", "none",
                     refs["roce-exporter"], "--version"], check=False, timeout=120)
        if probe.returncode == 0 and probe.stdout.startswith(f"roce_exporter {version}"):
            runtime = candidate
            break
        print(f"== podman {' '.join(candidate) or '(default runtime)'} cannot run a container here:"
              f" {probe.stderr.strip()[-300:]}")
    if runtime is None:
        failures.append("podman runs no container here with crun or runc")
        return report(failures, started)
    print(f"== podman runs the images with {'runc' if runtime else 'its default runtime'}")
    podman = ["podman", *runtime]
    work = pathlib.Path(tempfile.mkdtemp(prefix="oci-images-"))
    exporter = None
    try:
        exporter = run([*podman, "run", "-d", *limits, "--network", "host", "--read-only",
                        "--cap-drop", "ALL", "--cap-add", "NET_ADMIN", "--security-opt", "no-new-privileges",
                        "-v", f"{pathlib.Path(args.fixture).resolve()}:/capture:ro", refs["roce-exporter"],
                        "--replay", "/capture", "--web.listen-address=127.0.0.1:0"]).stdout.strip()
        port = None
        for _ in range(100):
            logs = run([*podman, "logs", exporter], check=False)
            m = re.search(r"msg=listening address=127\.0\.0\.1:(\d+)", logs.stdout + logs.stderr)
            if m:
                port = int(m.group(1))
                break
            time.sleep(0.1)
        if port is None:
            failures.append(f"the exporter's container did not listen:\n{logs.stdout}{logs.stderr}")
            return report(failures, started)
        body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
        golden = (source / "tests/e2e/golden" / f"{pathlib.Path(args.fixture).name}.prom")
        want_ports = sorted(line for line in golden.read_text().splitlines() if line.startswith("roce_port_info{"))
        got_ports = sorted(line for line in body.splitlines() if line.startswith("roce_port_info{"))
        check(want_ports and got_ports == want_ports, f"scraped ports {got_ports}, capture's {want_ports}")
        check('roce_exporter_collector_success{collector="rdma"} 1' in body, "the rdma collector failed in the image")
        print(f"== scraped {len(body)} bytes, {len(got_ports)} ports from the exporter's container on :{port}")
        inspect = json.loads(run([*podman, "inspect", exporter]).stdout)[0]
        check(inspect["HostConfig"].get("ReadonlyRootfs") is True, "the exporter's root is writable")
        status = pathlib.Path(f"/proc/{inspect['State']['Pid']}/status").read_text()
        fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
        check(fields.get("Uid", "").split() == ["0"] * 4, f"exporter uid {fields.get('Uid')}")
        check(fields.get("CapEff", "").strip() == "0000000000001000", f"exporter CapEff {fields.get('CapEff')}")
        check(fields.get("NoNewPrivs", "").strip() == "1", "exporter may gain privileges")

        # 4. roce-lint in its image.
        demo = json.loads((source / "examples/demo/plan.json").read_text())
        nics = [dict(zip(("ib_dev", "netdev"), re.search(r'device="([^"]+)".*netdev="([^"]+)"', p).groups()),
                     profile="roce-400g") for p in want_ports]
        for i, nic in enumerate(nics):
            nic["roce_ip"] = f"10.{10 + i}.0.1/24"
        node = {"name": "node-1", "management_ip": "127.0.0.1", "exporter": f"127.0.0.1:{port}", "nics": nics}
        plan_dir, metrics_dir = work / "plan", work / "metrics"
        plan_dir.mkdir()
        metrics_dir.mkdir()
        plan = {k: v for k, v in demo.items() if k != "nodes"} | {"nodes": [node]}
        (plan_dir / "plan.json").write_text(json.dumps(plan))
        (plan_dir / "closed.json").write_text(json.dumps(plan | {"nodes": [node | {"exporter": "127.0.0.1:1"}]}))
        (metrics_dir / "node-1.prom").write_text(body)
        os.chmod(work, 0o755)
        for d in (plan_dir, metrics_dir):
            os.chmod(d, 0o755)
            for f in d.iterdir():
                os.chmod(f, 0o644)

        def lint(*extra):
            p = run([*podman, "run", "--rm", *limits, "--network", "host", "--read-only", "--cap-drop", "ALL",
                     "--security-opt", "no-new-privileges", "-v", f"{plan_dir}:/plan:ro",
                     "-v", f"{metrics_dir}:/metrics:ro", refs["roce-lint"], "check", *extra, "--format", "json"],
                    check=False, timeout=120)
            try:
                return p.returncode, json.loads(p.stdout)
            except json.JSONDecodeError:
                return p.returncode, {"error": p.stdout[-2000:] + p.stderr[-2000:]}

        def findings(report_):
            return sorted((f["check"], f["node"], f["device"], f["netdev"], f["found"])
                          for f in report_.get("findings", []))

        rc_scrape, scraped = lint("/plan/plan.json")
        rc_dir, from_dir = lint("/plan/plan.json", "--metrics-dir", "/metrics")
        rc_closed, closed = lint("/plan/closed.json")
        print(f"== roce-lint in its image: scrape rc {rc_scrape}, {len(scraped.get('findings', []))} findings;"
              f" --metrics-dir rc {rc_dir}; closed port rc {rc_closed}")
        check(rc_scrape in (0, 1) and "findings" in scraped, f"roce-lint check (scrape): rc {rc_scrape} {scraped}")
        check(findings(scraped) == findings(from_dir) and rc_scrape == rc_dir,
              f"scrape and --metrics-dir differ:\n{findings(scraped)}\n{findings(from_dir)}")
        check(not any(f[0] == "inventory.exporter-unreachable" for f in findings(scraped)),
              "roce-lint in its image did not reach the exporter")
        check(rc_closed == 1 and any(f[0] == "inventory.exporter-unreachable" for f in findings(closed)),
              f"a closed port gave no unreachable finding: rc {rc_closed} {closed}")
    finally:
        if exporter:
            run([*podman, "rm", "-f", exporter], check=False)
        for ref in refs.values():
            run(["podman", "rmi", "-f", ref], check=False)
        shutil.rmtree(work, ignore_errors=True)

    # 5. The manifests name exactly these images.
    k = k8s_manifests_test.yaml.safe_load((source / "deploy/kubernetes/kustomization.yaml").read_text())
    named = sorted((i.get("name"), i.get("newName", i.get("name")), i.get("newTag")) for i in k.get("images", []))
    want = sorted((f"rocewatch/{n}", f"rocewatch/{n}", tag) for n in IMAGES)
    check(named == want, f"kustomization images: {named}, expected {want}")
    containers = [c for d in k8s_manifests_test.render(source / "deploy/kubernetes")
                  if d["kind"] in ("DaemonSet", "Deployment")
                  for c in d["spec"]["template"]["spec"].get("containers", [])
                  + d["spec"]["template"]["spec"].get("initContainers", [])]
    ours = {c["name"]: c["image"] for c in containers if c["image"].split(":")[0].startswith("rocewatch/")}
    check(ours and set(ours.values()) <= set(refs.values()), f"manifest images {ours}, built {sorted(refs.values())}")
    check(set(refs.values()) <= set(ours.values()), f"a built image is used by no manifest: {ours}")
    return report(failures, started)


def report(failures, started):
    for f in failures:
        print("FAIL:", f)
    print(f"{'FAILED' if failures else 'OK'} in {time.monotonic() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
