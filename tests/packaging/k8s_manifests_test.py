#!/usr/bin/env python3
"""deploy/kubernetes checked offline, with what Debian ships.

The kustomization is rendered (resources, namespace and images, the only features it uses; where a
kubectl with kustomize is installed its output must be the same objects), then every object is
validated: Namespace, DaemonSet, Deployment, Service and ConfigMap against the Kubernetes
OpenAPI models of python3-kubernetes (no undefined field, declared types, required fields),
ServiceMonitor and PrometheusRule with python3-jsonschema against the CRD schemas checked in
under deploy/kubernetes/schemas (PROVENANCE.md), made strict (no undefined field). Then what
the issue asks of them: the DaemonSet's host mounts read-only, hostNetwork, only NET_ADMIN, a
node selector, requests at least the measured peak RSS; Services select the pods and carry
the job names the bundled rules select on; the exporter is reachable only through
kube-rbac-proxy (it listens on loopback, the one host port is the proxy's TLS port with the
exporter as upstream, the ServiceMonitor scrapes it over https with a bearer token, the proxy's
account may create TokenReviews and SubjectAccessReviews); the PrometheusRule holds exactly
dashboards/prometheus/rocewatch-rules.yml and the ConfigMap the example plan (generate.py
--check). Broken copies must be rejected (a misspelt field, a rule without expr, an exporter
listening on every address, a plain-HTTP ServiceMonitor), so the validators can fail.
"""

import copy
import json
import pathlib
import re
import shutil
import subprocess
import sys

import jsonschema
import kubernetes.client as k8s
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
KUBE = ROOT / "deploy" / "kubernetes"
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding"}
MODELS = {("v1", "Namespace"): "V1Namespace", ("apps/v1", "DaemonSet"): "V1DaemonSet",
          ("apps/v1", "Deployment"): "V1Deployment", ("v1", "Service"): "V1Service",
          ("v1", "ConfigMap"): "V1ConfigMap", ("v1", "ServiceAccount"): "V1ServiceAccount",
          ("rbac.authorization.k8s.io/v1", "ClusterRole"): "V1ClusterRole",
          ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"): "V1ClusterRoleBinding"}
CRDS = {("monitoring.coreos.com/v1", "ServiceMonitor"): "monitoring.coreos.com_v1_servicemonitors.json",
        ("monitoring.coreos.com/v1", "PrometheusRule"): "monitoring.coreos.com_v1_prometheusrules.json"}


def render(directory, namespace=None):
    k = yaml.safe_load((directory / "kustomization.yaml").read_text())
    unknown = set(k) - {"apiVersion", "kind", "namespace", "resources", "images"}
    if unknown:
        raise ValueError(f"{directory}/kustomization.yaml uses {unknown}, which this renderer does not implement")
    namespace = k.get("namespace", namespace)
    out = []
    for res in k.get("resources", []):
        path = directory / res
        if path.is_dir():
            out += render(path, namespace)
        else:
            out += [d for d in yaml.safe_load_all(path.read_text()) if d]
    for d in out:
        if namespace and d["kind"] not in CLUSTER_SCOPED:
            d.setdefault("metadata", {})["namespace"] = namespace
        set_images(d, k.get("images", []))
    return out


def set_images(doc, images):
    """kustomize's images: a container whose image is `name` or `name:tag` gets newName and newTag."""
    pod = doc.get("spec", {}).get("template", {}).get("spec", {})
    for c in pod.get("containers", []) + pod.get("initContainers", []):
        name, _, tag = c["image"].rpartition(":") if ":" in c["image"].rsplit("/", 1)[-1] else (c["image"], "", "")
        for i in images:
            if i["name"] == name:
                tag = i.get("newTag", tag)
                c["image"] = i.get("newName", name) + (":" + tag if tag else "")


def check_model(value, type_name, where):
    """Errors of value against a python3-kubernetes model type ('V1DaemonSet', 'list[V1Volume]', …)."""
    errors = []
    m = re.fullmatch(r"list\[(.+)\]", type_name)
    if m:
        if not isinstance(value, list):
            return [f"{where}: expected a list"]
        for i, v in enumerate(value):
            errors += check_model(v, m.group(1), f"{where}[{i}]")
        return errors
    m = re.fullmatch(r"dict\(str, (.+)\)", type_name)
    if m:
        if not isinstance(value, dict):
            return [f"{where}: expected a map"]
        for key, v in value.items():
            errors += check_model(v, m.group(1), f"{where}.{key}")
        return errors
    simple = {"str": str, "bool": bool, "float": (int, float), "object": object}
    if type_name == "int":
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: expected an integer"]
    if type_name in simple:
        ok = isinstance(value, simple[type_name]) and not (type_name == "float" and isinstance(value, bool))
        return [] if ok else [f"{where}: expected {type_name}, got {value!r}"]
    cls = getattr(k8s, type_name)
    if not isinstance(value, dict):
        return [f"{where}: expected an object ({type_name})"]
    by_json = {j: p for p, j in cls.attribute_map.items()}
    kwargs = {}
    for key, v in value.items():
        if key not in by_json:
            errors.append(f"{where}: {type_name} has no field {key!r}")
            continue
        errors += check_model(v, cls.openapi_types[by_json[key]], f"{where}.{key}")
        kwargs[by_json[key]] = v
    try:
        cls(**kwargs)  # the generated setters reject missing required fields and bad enums
    except ValueError as e:
        errors.append(f"{where}: {e}")
    return errors


def strict(schema):
    """The CRD schema with additionalProperties: false wherever properties are listed."""
    if isinstance(schema, dict):
        schema = {k: strict(v) for k, v in schema.items()}
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
        return schema
    if isinstance(schema, list):
        return [strict(v) for v in schema]
    return schema


def validate(doc):
    key = (doc.get("apiVersion"), doc.get("kind"))
    where = f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
    if key in MODELS:
        return check_model(doc, MODELS[key], where)
    if key in CRDS:
        schema = strict(json.loads((KUBE / "schemas" / CRDS[key]).read_text()))
        return [f"{where}: {e.message} at {list(e.absolute_path)}"
                for e in jsonschema.Draft7Validator(schema).iter_errors(doc)]
    return [f"{where}: no schema for {key}"]


def exposure_errors(objs):
    """What would let a scrape reach the exporter without kube-rbac-proxy's TLS and token check."""
    errors = []
    ds = objs[("DaemonSet", "roce-exporter")]
    pod = ds["spec"]["template"]["spec"]
    containers = {c["name"]: c for c in pod["containers"]}
    exporter, proxy = containers.get("roce-exporter"), containers.get("kube-rbac-proxy")
    if exporter is None or proxy is None:
        return [f"containers {sorted(containers)}: expected roce-exporter and kube-rbac-proxy"]
    flags = dict(a.split("=", 1) for a in exporter.get("args", []) if "=" in a)
    listen = flags.get("--web.listen-address", ":9879")
    host, _, port = listen.rpartition(":")
    if host not in ("127.0.0.1", "[::1]", "localhost"):
        errors.append(f"the exporter listens on {listen!r}: with hostNetwork that is every host interface")
    if exporter.get("ports"):
        errors.append(f"the exporter container declares ports {exporter['ports']}")
    host_ports = [(c["name"], p) for c in pod["containers"] for p in c.get("ports", []) if p.get("hostPort")]
    pflags = dict(a.split("=", 1) for a in proxy.get("args", []) if "=" in a)
    if [n for n, _ in host_ports] != ["kube-rbac-proxy"]:
        errors.append(f"host ports {host_ports}: only kube-rbac-proxy's may be one")
    if pflags.get("--upstream", "").rstrip("/") != f"http://{host}:{port}":
        errors.append(f"the proxy's upstream {pflags.get('--upstream')} is not the exporter's {listen}")
    if pflags.get("--allow-paths") != "/metrics":
        errors.append(f"the proxy lets {pflags.get('--allow-paths', 'every path')} through, not only /metrics")
    if not pflags.get("--secure-listen-address", "").endswith(":" + str(host_ports[0][1]["containerPort"]
                                                                        if host_ports else "")):
        errors.append(f"the proxy's TLS listener {pflags.get('--secure-listen-address')} is not its host port")
    if pod.get("automountServiceAccountToken") is not True or not pod.get("serviceAccountName"):
        errors.append("the proxy has no ServiceAccount token for its reviews")
    sa = pod.get("serviceAccountName")
    granted = set()
    for (kind, name), b in objs.items():
        if kind != "ClusterRoleBinding":
            continue
        if not any(s.get("kind") == "ServiceAccount" and s.get("name") == sa
                   and s.get("namespace") == ds["metadata"]["namespace"] for s in b.get("subjects", [])):
            continue
        role = objs.get(("ClusterRole", b["roleRef"]["name"]), {})
        for r in role.get("rules", []):
            if "create" in r.get("verbs", []):
                granted |= {(g, res) for g in r.get("apiGroups", []) for res in r.get("resources", [])}
    for need in (("authentication.k8s.io", "tokenreviews"), ("authorization.k8s.io", "subjectaccessreviews")):
        if need not in granted:
            errors.append(f"the proxy's account {sa} may not create {need[1]}")
    sm = objs[("ServiceMonitor", "roce-exporter")]
    svc_ports = {p["name"]: p for p in objs[("Service", "roce-exporter")]["spec"]["ports"]}
    proxy_ports = {p["name"] for p in proxy.get("ports", [])}
    for e in sm["spec"]["endpoints"]:
        if e.get("scheme") != "https" or not (e.get("bearerTokenFile") or e.get("authorization")):
            errors.append(f"the ServiceMonitor endpoint {e.get('port')} does not scrape https with a token")
        if svc_ports.get(e.get("port"), {}).get("targetPort") not in proxy_ports:
            errors.append(f"the ServiceMonitor port {e.get('port')} does not reach the proxy")
    return errors


def main():
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    docs = render(KUBE)
    objs = {(d["kind"], d["metadata"]["name"]): d for d in docs}
    print(f"== {len(docs)} objects: {sorted(objs)}")
    for d in docs:
        for e in validate(d):
            failures.append(e)

    # The validators must reject broken copies.
    ds = objs[("DaemonSet", "roce-exporter")]
    broken = copy.deepcopy(ds)
    broken["spec"]["template"]["spec"]["hostNetwrk"] = True
    del broken["spec"]["template"]["spec"]["containers"][0]["name"]
    errs = validate(broken)
    check(any("hostNetwrk" in e for e in errs) and any("name" in e for e in errs),
          f"a DaemonSet with a misspelt field and no container name passed: {errs}")
    rule = copy.deepcopy(objs[("PrometheusRule", "rocewatch")])
    del rule["spec"]["groups"][0]["rules"][0]["expr"]
    check(validate(rule) != [], "a PrometheusRule rule without expr passed")

    exposed = exposure_errors(objs)
    for e in exposed:
        failures.append(e)
    open_copy = copy.deepcopy(objs)
    exporter_c = next(c for c in open_copy[("DaemonSet", "roce-exporter")]["spec"]["template"]["spec"]["containers"]
                      if c["name"] == "roce-exporter")
    exporter_c["args"] = ["--web.listen-address=:9879" if a.startswith("--web.listen-address") else a
                          for a in exporter_c["args"]]
    check(any("every host interface" in e for e in exposure_errors(open_copy)),
          "an exporter listening on every address passed")
    plain = copy.deepcopy(objs)
    for e in plain[("ServiceMonitor", "roce-exporter")]["spec"]["endpoints"]:
        e["scheme"] = "http"
    check(any("https" in e for e in exposure_errors(plain)), "a plain-HTTP ServiceMonitor passed")

    pod = ds["spec"]["template"]["spec"]
    c = next(x for x in pod["containers"] if x["name"] == "roce-exporter")
    check(pod.get("hostNetwork") is True, "the exporter DaemonSet is not hostNetwork")
    check(pod.get("nodeSelector"), "the exporter DaemonSet has no node selector")
    sc = c["securityContext"]
    check(sc["capabilities"] == {"drop": ["ALL"], "add": ["NET_ADMIN"]} and not sc.get("privileged")
          and sc.get("allowPrivilegeEscalation") is False and sc.get("readOnlyRootFilesystem") is True,
          f"exporter security context: {sc}")
    host = {v["name"]: v["hostPath"]["path"] for v in pod["volumes"] if "hostPath" in v}
    check(sorted(host.values()) == ["/sys", "/sys/kernel/config", "/sys/kernel/debug"], f"host paths {host}")
    mounts = {m["name"]: m for m in c["volumeMounts"]}
    check(all(m.get("readOnly") is True for m in mounts.values()), f"a mount is writable: {mounts}")
    flags = dict(a.split("=", 1) for a in c["args"] if "=" in a)
    for flag, host_path in (("--path.sysfs", "/sys"), ("--path.configfs", "/sys/kernel/config"),
                            ("--path.debugfs", "/sys/kernel/debug")):
        name = [n for n, p in host.items() if p == host_path]
        check(name and flags.get(flag) == mounts[name[0]]["mountPath"],
              f"{flag}={flags.get(flag)} is not where {host_path} is mounted")
    perf = (ROOT / "docs" / "performance.md").read_text()
    rss = re.search(r"n32, every collector, 300 scrapes \| \*\*([0-9.]+) MiB", perf)
    req = c["resources"]["requests"]
    check(rss and req["memory"].endswith("Mi") and float(req["memory"][:-2]) >= float(rss.group(1)),
          f"memory request {req} below the measured peak RSS {rss and rss.group(1)} MiB")
    check("cpu" in req, "no CPU request")

    rules_text = (ROOT / "dashboards" / "prometheus" / "rocewatch-rules.yml").read_text()
    for svc_name, job in (("roce-exporter", "roce_exporter"), ("roce-lint", "roce_lint")):
        svc = objs[("Service", svc_name)]
        sm = objs[("ServiceMonitor", svc_name)]
        workload = objs.get(("DaemonSet", svc_name)) or objs[("Deployment", svc_name)]
        labels = workload["spec"]["template"]["metadata"]["labels"]
        check(all(labels.get(k) == v for k, v in svc["spec"]["selector"].items()), f"{svc_name}: selects no pod")
        check(all(svc["metadata"]["labels"].get(k) == v for k, v in sm["spec"]["selector"]["matchLabels"].items()),
              f"{svc_name}: the ServiceMonitor selects no Service")
        check(svc["metadata"]["labels"].get(sm["spec"]["jobLabel"]) == job and f'job="{job}"' in rules_text,
              f"{svc_name}: job label is not {job}, which the rules select on")
        ports = {p["name"] for p in svc["spec"]["ports"]}
        check(all(e["port"] in ports for e in sm["spec"]["endpoints"]), f"{svc_name}: ServiceMonitor port")
        check(svc["metadata"]["namespace"] == "rocewatch", f"{svc_name}: namespace not applied")

    prom_rule = objs[("PrometheusRule", "rocewatch")]
    check(prom_rule["spec"]["groups"] == yaml.safe_load(rules_text)["groups"],
          "the PrometheusRule does not hold exactly the bundled rules")
    cm = objs[("ConfigMap", "roce-lint-plan")]
    check(json.loads(cm["data"]["plan.json"]) == json.loads((ROOT / "examples/demo/plan.json").read_text()),
          "the plan ConfigMap is not the example plan")
    dep = objs[("Deployment", "roce-lint")]["spec"]["template"]["spec"]
    vol = [v for v in dep["volumes"] if v.get("configMap", {}).get("name") == "roce-lint-plan"]
    mount = [m for m in dep["containers"][0]["volumeMounts"] if vol and m["name"] == vol[0]["name"]]
    check(mount and dep["containers"][0]["args"][1] == mount[0]["mountPath"] + "/plan.json",
          "roce-lint serve does not read the plan from the ConfigMap")
    gen = subprocess.run([sys.executable, str(KUBE / "generate.py"), "--check"], capture_output=True, text=True)
    check(gen.returncode == 0, f"generated manifests out of date: {gen.stdout}{gen.stderr}")

    kubectl = shutil.which("kubectl")
    if kubectl:
        p = subprocess.run([kubectl, "kustomize", str(KUBE)], capture_output=True, text=True, timeout=60)
        if p.returncode == 0:
            theirs = sorted(json.dumps(d, sort_keys=True) for d in yaml.safe_load_all(p.stdout) if d)
            ours = sorted(json.dumps(d, sort_keys=True) for d in docs)
            check(theirs == ours, "kubectl kustomize renders other objects than this test")
            print("== kubectl kustomize renders the same objects")
        else:
            print(f"== kubectl kustomize unavailable here ({p.stderr.strip()[:200]})")
    else:
        print("== no kubectl here: the rendering is this test's own")

    for f in failures:
        print("FAIL:", f)
    print("FAILED" if failures else "OK")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
