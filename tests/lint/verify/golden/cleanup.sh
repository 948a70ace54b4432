#!/bin/sh
# roce-lint verify: stop perftest (docs/verify.md)
pidfile=/tmp/rocewatch-verify-00112233445566778899aabbccddeeff.pid
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
