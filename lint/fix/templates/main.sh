
# ---- main ------------------------------------------------------------------------------------
note_host
precheck
if [ "$PROBLEMS" -gt 0 ]; then
  if [ "$PROBLEMS" -eq 1 ]; then _s=''; else _s=s; fi
  say "precheck failed: $PROBLEMS problem$_s; nothing was changed"
  exit 3
fi
say "precheck passed (node $NODE, sysfs $SYSFS, configfs $CONFIGFS)"
if [ "$MODE" = precheck ]; then
  exit 0
fi
if [ "$ROLLBACK" = 1 ]; then
  rollback
fi
configure
if [ "$MODE" = dry-run ]; then
  say "rocewatch: node=$NODE mode=dry-run would_change=$CHANGED unchanged=$UNCHANGED failed=$FAILED"
else
  say "rocewatch: node=$NODE mode=apply changed=$CHANGED unchanged=$UNCHANGED failed=$FAILED"
fi
if [ "$FAILED" -gt 0 ]; then
  exit 1
fi
exit 0
