#!/bin/sh
# shellcheck disable=SC2016,SC2317  # step() evaluates READ and CHANGE, shell text in quotes
#
# RoCE settings of node @NODE_COMMENT@ (cluster @CLUSTER_COMMENT@).
# Rendered by `roce-lint fix` from @PLAN_COMMENT@ with the @TOOLS_COMMENT@@SCOPE_COMMENT@.
# Do not edit: change the plan and render it again.
#
#@NIC_COMMENT_LINES@
#
# Usage: rocewatch-roce-config.sh [--dry-run | --precheck]
#   (none)      precheck, then change every setting that differs from the plan
#   --dry-run   precheck, then only report what would change
#   --precheck  only the precheck
# Every setting is read first and changed only when it differs; one line of output each,
# then a summary line: rocewatch: node=NAME mode=apply changed=N unchanged=N failed=N
# Exit codes: 0 every setting as planned, 1 a setting could not be read or changed,
#   2 bad arguments, 3 precheck failed (nothing was changed).
# Environment: ROCEWATCH_SYSFS (default /sys), ROCEWATCH_CONFIGFS (default /sys/kernel/config).
set -eu

NODE=@NODE_WORD@
SYSFS=${ROCEWATCH_SYSFS:-/sys}
CONFIGFS=${ROCEWATCH_CONFIGFS:-/sys/kernel/config}
MODE=apply
usage() { echo 'usage: rocewatch-roce-config.sh [--dry-run | --precheck]'; }
if [ $# -gt 1 ]; then
  usage >&2
  exit 2
fi
case ${1-} in
  '') ;;
  --dry-run) MODE=dry-run ;;
  --precheck) MODE=precheck ;;
  -h | --help)
    usage
    exit 0
    ;;
  *)
    usage >&2
    exit 2
    ;;
esac
