#!/usr/bin/env bash
# Runs the fault test's random tail for SEEDS fresh seeds in a row (default 20, tails of TAIL runs, default 10,
# without the cover, a 5 s outage) and stops at the first red one, naming its seed and log. Needs `npm run build`.
set -uo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-20}
tail=${2:-10}
logs=$(mktemp -d -t tandem-fault-seeds-XXXXXX)
for i in $(seq 1 "$seeds"); do
  seed=$(( (RANDOM << 15 | RANDOM) + 1 ))
  started=$(date +%s)
  log="$logs/seed-$seed.log"
  if TANDEM_FAULT_SEED=$seed TANDEM_FAULT_COVER=0 TANDEM_FAULT_RUNS=$tail TANDEM_FAULT_OUTAGE_MS=5000 \
      npx vitest run -c vitest.e2e.config.ts e2e/faults.e2e.test.ts >"$log" 2>&1; then
    echo "$i/$seeds seed $seed: passed in $(( $(date +%s) - started )) s"
  else
    echo "$i/$seeds seed $seed: FAILED (TANDEM_FAULT_SEED=$seed TANDEM_FAULT_COVER=0 TANDEM_FAULT_RUNS=$tail replays it; log: $log)"
    exit 1
  fi
done
echo "$seeds seeds passed in a row"
rm -rf "$logs"
