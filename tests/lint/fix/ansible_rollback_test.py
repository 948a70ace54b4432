#!/usr/bin/env python3
"""The Ansible role's RoCE tasks for real: apply, then `--tags rollback`, on one node.

Runs deploy/ansible's tasks files `roce_fix.yml` (precheck, dry run, apply) and then
`roce_rollback.yml` (dry run, restore) with ansible-playbook over a local connection, on a
writable copy of the mlx5-roce fixture tree with the stand-in tools of tests/lint/fix/fake-tools
(docs/fix.md "How it is tested"): the apply task reports changed, the rollback task reports
changed, and afterwards every file of the tree and of the tools' state is as before, byte for
byte; a second rollback changes nothing. Needs root (the script's precheck asks for it) and
ansible-playbook; skips (exit 77) without them.

Usage: ansible_rollback_test.py REPO_ROOT ROCE_LINT
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def snapshot(*dirs):
    out = {}
    for base in dirs:
        for path in sorted(base.rglob("*")):
            rel = f"{base.name}/{path.relative_to(base)}"
            if path.name == "calls":  # the stand-in tools' call log, not a setting
                continue
            if path.is_symlink():
                out[rel] = "-> " + os.readlink(path)
            elif path.is_file():
                out[rel] = path.read_bytes()
            else:
                out[rel + "/"] = b""
    return out


def recap(stdout):
    m = re.search(r"localhost\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", stdout)
    return tuple(map(int, m.groups())) if m else None


def main():
    repo, roce_lint = pathlib.Path(sys.argv[1]).resolve(), str(pathlib.Path(sys.argv[2]).resolve())
    if os.geteuid() != 0:
        print("SKIPPED: the scripts' precheck needs root")
        return SKIP
    if not shutil.which("ansible-playbook"):
        print("SKIPPED: ansible-playbook is missing (scripts/install-deps.sh installs it)")
        return SKIP
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print("FAIL:", what)

    work = pathlib.Path(tempfile.mkdtemp(prefix="ansible-rollback-"))
    try:
        tree, state = work / "tree", work / "state"
        for part in ("sys", "configfs"):
            shutil.copytree(repo / "tests/fixtures/mlx5-roce" / part, tree / part, symlinks=True)
        (tree / "sys/module/mlx5_core").mkdir(parents=True, exist_ok=True)
        (tree / "sys/module/mlx5_core/version").write_text("24.04-0.6.6\n")
        # The stand-in tools' state as a freshly booted node shows it: PFC off, no DSCP entries,
        # MTU 1500, global pause on (tests/lint/fix/fix_test_util.h WriteFakeNetdev).
        state.mkdir()
        for netdev in ("ens1f0np0", "ens2f0np0"):
            for name, text in (("pfc", "0 0 0 0 0 0 0 0\n"), ("app", ""), ("mtu", "1500\n"),
                               ("pause", "on on on\n")):
                (state / f"{netdev}.{name}").write_text(text)
        subprocess.run([roce_lint, "fix", str(repo / "lint/plan/example-plan.json"), "--node", "gpu-01",
                        "--output-dir", str(work / "roce")], check=True, capture_output=True)
        environment = {
            "ROCEWATCH_SYSFS": str(tree / "sys"),
            "ROCEWATCH_CONFIGFS": str(tree / "configfs"),
            "ROCEWATCH_STATE": str(work / "backup"),
            "FAKE_STATE": str(state),
            "PATH": f"{repo / 'tests/lint/fix/fake-tools'}:/usr/sbin:/usr/bin:/sbin:/bin",
        }
        role_vars = {
            "rocewatch_roce_scripts_dir": str(work / "roce"),
            "rocewatch_roce_node": "gpu-01",
            "rocewatch_roce_apply": True,
            "rocewatch_roce_environment": environment,
        }

        def play(tasks_from):
            text = json.dumps([{
                "hosts": "localhost", "connection": "local", "gather_facts": False,
                "vars": role_vars,
                "tasks": [{"ansible.builtin.include_role": {"name": "rocewatch_exporter",
                                                             "tasks_from": tasks_from}}],
            }])
            path = work / f"{tasks_from}.play.json"
            path.write_text(text)
            env = dict(os.environ, ANSIBLE_ROLES_PATH=str(repo / "deploy/ansible/roles"),
                       ANSIBLE_NOCOLOR="1", ANSIBLE_RETRY_FILES_ENABLED="0",
                       ANSIBLE_LOCALHOST_WARNING="0", ANSIBLE_INVENTORY_UNPARSED_WARNING="0",
                       ANSIBLE_LOCAL_TEMP=str(work / "tmp"), ANSIBLE_HOME=str(work / "home"))
            p = subprocess.run(["ansible-playbook", "-i", "localhost,", str(path)], env=env,
                               capture_output=True, text=True, timeout=600)
            return p, recap(p.stdout)

        before = snapshot(tree / "sys", tree / "configfs", state)
        apply, r = play("roce_fix.yml")
        check(apply.returncode == 0 and r is not None and r[1] >= 2 and r[3] == 0,
              f"apply: rc {apply.returncode} recap {r}\n{apply.stdout[-3000:]}{apply.stderr[-2000:]}")
        applied = snapshot(tree / "sys", tree / "configfs", state)
        check(applied != before, "the apply task changed nothing")
        check((work / "backup/roce-config-gpu-01.state").is_file(), "the apply kept no backup")

        rollback, r = play("roce_rollback.yml")
        check(rollback.returncode == 0 and r is not None and r[1] == 2 and r[3] == 0,
              f"rollback: rc {rollback.returncode} recap {r}\n{rollback.stdout[-3000:]}")
        # changed=2: the role's dry run saw would_restore=N and its restore restored=N, N > 0.
        after = snapshot(tree / "sys", tree / "configfs", state)
        for path in sorted(set(before) | set(after)):
            check(before.get(path) == after.get(path),
                  f"{path}: {before.get(path)!r} before, {after.get(path)!r} after the rollback")

        again, r = play("roce_rollback.yml")
        check(again.returncode == 0 and r is not None and r[1] == 0,
              f"a second rollback changed something: recap {r}\n{again.stdout[-3000:]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        return 1
    print("ansible: apply changed the node, --tags rollback's tasks put every byte back")
    return 0


if __name__ == "__main__":
    sys.exit(main())
