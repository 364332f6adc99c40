#!/bin/sh
# Test tool: records one execution as "<label> <worker pid>" in $RECORD_FILE,
# after an optional pause, so tests can count executions and see which worker ran them.
label="$1"
pause="${2:-0}"
sleep "$pause"
echo "$label $PPID" >> "$RECORD_FILE"
echo "recorded $label"
