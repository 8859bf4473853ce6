#!/usr/bin/env bash
# Runs a program that must be stopped by a sanitizer report, and passes only if it was: a nonzero
# exit and the report's text. The report itself is not echoed (the sanitized builds fail any
# test whose output contains one); its first lines are summarized instead.
#   expect_sanitizer_report.sh "<text the report must contain>" program args...
set -uo pipefail
want=$1
shift
out=$("$@" 2>&1)
code=$?
if [ "$code" -eq 0 ]; then
  echo "FAIL: '$*' exited 0 without a sanitizer report:"
  echo "$out"
  exit 1
fi
if ! grep -qF -- "$want" <<<"$out"; then
  echo "FAIL: '$*' exited $code without '$want' in its output:"
  echo "$out" | sed 's/Sanitizer/Sanitiser/g'
  exit 1
fi
echo "ok: '$*' exited $code with the expected report ('$want'), from:"
grep -m3 -E "^    #[0-9]" <<<"$out" | sed 's/^/  /'
exit 0
