#!/bin/sh
# Test tool with a side effect: notes that it started (in $STARTED_FILE), sleeps,
# then appends its effect (to $EFFECT_FILE) — one line per run that got that far.
# Each line is "<label> <worker pid>".
label="$1"
pause="${2:-0}"
echo "$label $PPID" >> "$STARTED_FILE"
sleep "$pause"
echo "$label $PPID" >> "$EFFECT_FILE"
echo "effect $label done"
