#!/bin/sh
# Checks a DRAT proof of unsatisfiability with rate (crates.io: `cargo install rate`), a DRAT
# checker in Rust by a third party (Johannes Altmanninger), independent of the solver.
#
# Usage: check_drat_rate.sh CNF PROOF. Prints one line; exit 0 when rate verifies the proof, 1
# when it refuses it (rate's `s NOT VERIFIED`), 2 when rate is missing or gave no verdict (a file
# it cannot open, a crash), 3 when rate was killed by a signal before its verdict (a stop
# request, the out-of-memory killer: no verdict, not a refusal) or this wrapper was sent TERM,
# INT or HUP (it ends rate first; grundy sends TERM when it ends). The command
# rate is found on PATH, or set RATE to its path. For `grundy sat --proof-dir` and `grundy sat cubes --certify`:
#   GRUNDY_DRAT_CHECKER="sh encodings/check_drat_rate.sh"
rate=${RATE:-rate}
if ! command -v "$rate" >/dev/null 2>&1; then
    echo "rate is not installed: cargo install rate (or set RATE to its path)" >&2
    exit 2
fi
if [ $# -ne 2 ]; then
    echo "usage: check_drat_rate.sh CNF PROOF" >&2
    exit 2
fi
# rate runs in the background so that a TERM to this wrapper (grundy ended, or a stop request
# sent to it alone) ends rate too: a shell runs its trap only once a foreground command ends,
# but a trapped signal cuts `wait` short.
log=$(mktemp) || exit 2
"$rate" "$1" "$2" > "$log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; rm -f "$log"; echo "rate was stopped before its verdict"; exit 3' TERM INT HUP
wait $pid
status=$?
trap - TERM INT HUP
out=$(cat "$log")
rm -f "$log"
if [ $status -eq 0 ] && printf '%s\n' "$out" | grep -qx 's VERIFIED'; then
    "$rate" --version | head -n 1
    exit 0
fi
if [ $status -gt 128 ]; then
    echo "rate was killed by signal $((status - 128)) before its verdict"
    exit 3
fi
# A refusal is rate's own verdict, never an exit code alone: rate exits 2 on a file it cannot
# open, and a crash (a panic exits 101) says nothing about the proof.
if ! printf '%s\n' "$out" | grep -qx 's NOT VERIFIED'; then
    said=$(printf '%s\n' "$out" | grep -v '^c ' | grep -v '^$' | tail -n 1)
    echo "rate gave no verdict (exit $status): ${said:-no output}"
    exit 2
fi
# rate's own reason: its last comment line before the verdict.
reason=$(printf '%s\n' "$out" | grep '^c ' | grep -v ':  ' | tail -n 1 | sed 's/^c //')
echo "refused by rate (exit $status): ${reason:-no reason given}"
exit 1
