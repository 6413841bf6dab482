#!/usr/bin/env bash
# Quick start, command 2 (and what .ci/run runs): installs whatever is missing, builds, runs every
# test suite, and ends with one line "N passed, N failed, N skipped" totalling all suites.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
ensure_pnpm || exit 1
ensure_chromium || echo "warning: chromium could not be installed; the browser tests will fail"
pnpm install --frozen-lockfile || exit 1

rm -f spec/reports/vitest.json packages/*/reports/vitest.json
failed_steps=()
pnpm lint || failed_steps+=(lint)
pnpm build || failed_steps+=(build)
# Every suite runs even if another fails; the counter reads each suite's JSON report, and turbo's run
# summary for the suites that failed without a failed test in it (a type error in a test file).
rm -rf .turbo/runs
pnpm exec turbo run test --continue --concurrency=1 --summarize || failed_steps+=(test)
# Named before the totals, so a red run whose suites all passed (a lint error) says why.
if ((${#failed_steps[@]})); then echo "failed steps: ${failed_steps[*]}"; fi
# Its own failure (a failed test, a suite without a report) is said by its totals: here only the status.
node scripts/count-tests.mjs || failed_steps+=(count)
((${#failed_steps[@]} == 0))
