#!/usr/bin/env bash
# Usage: expect_output.sh <regex> <command> [args...]
# Runs the command, shows its output, and fails unless it exits with 0 AND its output (stdout
# and stderr) matches the extended regular expression <regex> ('.' also matches newlines).
# For CTest entries that check an output: PASS_REGULAR_EXPRESSION would ignore the exit code.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 <regex> <command> [args...]" >&2
  exit 2
fi
pattern=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
  echo "expect_output.sh: $1 exited with code $rc" >&2
  exit "$rc"
fi
out=$(<"$log")
if ! [[ $out =~ $pattern ]]; then
  echo "expect_output.sh: the output of $1 does not match: $pattern" >&2
  exit 1
fi
