#!/bin/sh
# Test tool with a side effect. It notes that it started ("<label> <worker pid>" in
# $STARTED_FILE, "<label> <idempotency key>" in $KEYS_FILE), sleeps $2 seconds,
# appends its effect ("<label> <worker pid> <idempotency key>" to $EFFECT_FILE),
# then sleeps $3 seconds more. With $4 = yes it dedupes on
# $TOOLYARD_IDEMPOTENCY_KEY, as a tool with effects should: a key whose effect
# is done is not acted on again. The effect and its key are one append, so no
# kill lands between them (a key written apart, after the effect, left a window
# in which a takeover acted again).
label="$1"
pause="${2:-0}"
after="${3:-0}"
dedupe="${4:-no}"
echo "$label $PPID" >> "$STARTED_FILE"
echo "$label $TOOLYARD_IDEMPOTENCY_KEY" >> "$KEYS_FILE"
sleep "$pause"
if [ "$dedupe" = yes ] && [ -f "$EFFECT_FILE" ] && awk -v k="$TOOLYARD_IDEMPOTENCY_KEY" '$3 == k { done = 1 } END { exit !done }' "$EFFECT_FILE"; then
	echo "effect $label was done already"
	exit 0
fi
echo "$label $PPID $TOOLYARD_IDEMPOTENCY_KEY" >> "$EFFECT_FILE"
sleep "$after"
echo "effect $label done"
