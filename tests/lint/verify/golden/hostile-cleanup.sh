#!/bin/sh
# roce-lint verify: stop perftest (docs/verify.md)
pidfile='/tmp/p'\''id $(touch pwned6)'
if [ -f "$pidfile" ]; then
  pid=$(cat "$pidfile")
  case "$pid" in
    ''|*[!0-9]*) ;;
    *) # setsid made it a process group leader: the group first, else the process alone.
       if kill -TERM -"$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null; then
         echo "rocewatch-verify: stopped $pid"
       fi ;;
  esac
  rm -f "$pidfile"
fi
exit 0
