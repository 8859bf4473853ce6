#!/usr/bin/env bash
# A long run of the randomized differential test (test/test_random_pipelines.cpp), for the
# figures CI's few hundred cases cannot give: bash scripts/fuzz.sh [cases] [first seed] [jobs].
# Runs shards of 250 consecutive seeds, `jobs` at a time (default: the number of cores), each
# with a time limit; prints every failing shard's output and the totals: cases, matches,
# expected errors, undefined behaviour, resource limits, failures, crashes and hangs.
# HALO_FUZZ_BINARY: the test binary to run (a copy, so rebuilding during a long run does not
# change the code under test). Expects a build in build/ (bash scripts/test.sh --release, or cmake and make).
set -uo pipefail
cd "$(dirname "$0")/.."
cases=${1:-100000}
first=${2:-1}
jobs=${3:-$(nproc)}
shard=250
binary=${HALO_FUZZ_BINARY:-build/test/test_random_pipelines}  # a copy keeps a long run on one version
[ -x "$binary" ] || { echo "fuzz.sh: no $binary; build first" >&2; exit 2; }
out=$(mktemp -d)
echo "fuzz.sh: $cases cases from seed $first, $jobs at a time; shard outputs in $out"

run_shard() {  # first_seed count
  local log="$out/seeds-$1.log"
  HALO_FUZZ_SEED=$1 HALO_FUZZ_CASES=$2 timeout 1800 "$binary" >"$log" 2>&1
  echo "exit $?" >>"$log"
}

seed=$first
end=$((first + cases))
while [ "$seed" -lt "$end" ]; do
  n=$((end - seed < shard ? end - seed : shard))
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  run_shard "$seed" "$n" &
  seed=$((seed + n))
done
wait

total=0; match=0; expected=0; undefined=0; limits=0; failures=0; crashes=0; hangs=0; failed=0
for log in "$out"/seeds-*.log; do
  # The test's last message: "fuzz totals: cases=N match=N expected=N undefined=N limit=N failure=N"
  line=$(grep -o 'fuzz totals: .*' "$log" | tail -1)
  code=$(tail -1 "$log" | awk '{print $2}')
  pattern='cases=([0-9]+) match=([0-9]+) expected=([0-9]+) undefined=([0-9]+) limit=([0-9]+) failure=([0-9]+)'
  if [[ $line =~ $pattern ]]; then
    n=("${BASH_REMATCH[@]}")
    total=$((total + n[1])); match=$((match + n[2])); expected=$((expected + n[3]))
    undefined=$((undefined + n[4])); limits=$((limits + n[5])); failures=$((failures + n[6]))
  else
    line=""
  fi
  if [ "$code" = 124 ]; then
    hangs=$((hangs + 1)); echo "== hang (over 1800 s): $log"; grep -A30 'ERROR' "$log" | head -60
  elif [ -z "$line" ]; then
    crashes=$((crashes + 1)); echo "== crash (exit $code): $log"; tail -20 "$log"
  elif [ "$code" != 0 ]; then
    failed=$((failed + 1)); echo "== failed shard (exit $code): $log"; grep -A40 'ERROR' "$log" | head -120
  fi
done
echo "fuzz.sh: $total of $cases cases run: $match match, $expected expected run-time errors, $undefined undefined" \
     "behaviour, $limits resource limits at extreme coordinates, $failures failures; $failed failed shards," \
     "$crashes crashed shards, $hangs hung shards"
[ "$failures" = 0 ] && [ "$failed" = 0 ] && [ "$crashes" = 0 ] && [ "$hangs" = 0 ] && [ "$total" = "$cases" ]
