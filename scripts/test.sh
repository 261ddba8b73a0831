#!/usr/bin/env bash
# The README's test command: lint, typecheck, every package's tests and the fault suite.
#
# The fault suite runs in its own turbo run from the start, beside the rest. It is the longest
# task (6 min, most of it waiting out the outages it injects), and one turbo run starts tasks in
# an order of its own: it started the suite after five minutes, so the whole run waited for it
# alone at the end (11 min 20 s in one run on a quiet 2-core machine).
set -uo pipefail
cd "$(dirname "$0")/.."

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

(
  pnpm exec turbo run typecheck test:fault --filter=@mdq/faults --continue --concurrency=1 2>&1 |
    tee "$logs/faults"
  exit "${PIPESTATUS[0]}"
) &
faults=$!
# Two tasks beside it: three at once, as one run had. Four (three beside it) loaded a 2-core
# machine past what the live-feed and embedded-chain suites' waits allow.
pnpm exec turbo run lint typecheck test --filter='!@mdq/faults' --continue --concurrency=2 2>&1 |
  tee "$logs/rest"
rest=${PIPESTATUS[0]}
wait "$faults"
fault_status=$?

# The two runs' output interleaves, and a reader of a CI log often has only its end: a failure
# is told again there, each failing test file's own summary (vitest's "Failed Tests" section up to
# its totals) and each failing task's name.
if ((rest != 0 || fault_status != 0)); then
  echo
  echo "=== what failed (repeated from above) ==="
  sed 's/\x1b\[[0-9;]*m//g' "$logs/faults" "$logs/rest" | awk '
    # Every line of a task starts with its name (@mdq/api:test:): one section per task.
    /Failed Tests [0-9]+/ { on[$1] = 1; n[$1] = 0 }
    on[$1] && n[$1] < 120 { print; n[$1]++ }
    / Test Files / { on[$1] = 0 }
    /ERROR +command .* exited/ || /^ *Failed: / { print }
  '
fi
# Faults' own typecheck runs once, in its run above; lint is the root's task, in the rest.
exit $((rest != 0 || fault_status != 0))
