#!/bin/sh
# shellcheck disable=SC2016,SC2317  # step() evaluates READ and CHANGE, shell text in quotes
#
# RoCE settings of node @NODE_COMMENT@ (cluster @CLUSTER_COMMENT@).
# Rendered by `roce-lint fix` from @PLAN_COMMENT@ with the @TOOLS_COMMENT@@SCOPE_COMMENT@.
# Do not edit: change the plan and render it again.
#
#@NIC_COMMENT_LINES@
#
# Usage: rocewatch-roce-config.sh [--dry-run | --precheck | --force | --rollback [--dry-run]]
#   (none)      precheck, then change every setting that differs from the plan
#   --dry-run   precheck, then only report what would change
#   --precheck  only the precheck
#   --force     apply even over the unrestored backup of another plan (it keeps the first values)
#   --rollback  restore every setting the backup holds, as it was before the first change
# Every setting is read first and changed only when it differs; one line of output each,
# then a summary line: rocewatch: node=NAME mode=apply changed=N unchanged=N failed=N
# Before each change the value read is appended to the backup, ROCEWATCH_STATE/roce-config-NODE.state.
# Exit codes: 0 every setting as planned, 1 a setting could not be read or changed,
#   2 bad arguments, 3 precheck failed (nothing was changed), 4 the unrestored backup of
#   another plan is there (nothing was changed; --rollback or --force).
# Environment: ROCEWATCH_SYSFS (default /sys), ROCEWATCH_CONFIGFS (default /sys/kernel/config),
#   ROCEWATCH_STATE (default /var/lib/rocewatch), ROCEWATCH_DESTDIR (the root install.sh used;
#   when set, --rollback leaves systemd and udev alone).
set -eu

NODE=@NODE_WORD@
SYSFS=${ROCEWATCH_SYSFS:-/sys}
CONFIGFS=${ROCEWATCH_CONFIGFS:-/sys/kernel/config}
MODE=apply
ROLLBACK=0 FORCE=0
SCRIPT_VERSION=@VERSION_WORD@
PLAN_DIGEST=@DIGEST_WORD@
STATE_DIR=${ROCEWATCH_STATE:-/var/lib/rocewatch}
STATE_FILE=$STATE_DIR/roce-config-$NODE.state
DESTDIR=${ROCEWATCH_DESTDIR:-}
usage() { echo 'usage: rocewatch-roce-config.sh [--dry-run | --precheck | --force | --rollback [--dry-run]]'; }
for _arg in "$@"; do
  case $_arg in
    --dry-run) MODE=dry-run ;;
    --precheck) MODE=precheck ;;
    --rollback) ROLLBACK=1 ;;
    --force) FORCE=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      exit 2
      ;;
  esac
done
case "$#:$ROLLBACK:$FORCE:$MODE" in
  0:* | 1:* | 2:1:0:dry-run) ;;
  *)
    usage >&2
    exit 2
    ;;
esac
