#!/usr/bin/env bash
# Sets up, builds everything, and runs every test: the GoogleTest units and
# the lit suites (frontend, dialects, passes, conversions, nautc, end to end).
# Ends with one line "tests: N passed, M failed"; exits non-zero on failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh" || { echo "tests: 0 passed, 1 failed"; exit 1; }
cd "$root"

passed=0; failed=0
unit_log=$(mktemp)
if build/bin/nautilus-unit-tests --gtest_brief=1 >"$unit_log" 2>&1; then :; fi
cat "$unit_log"
unit_pass=$(grep -oE '\[  PASSED  \] [0-9]+' "$unit_log" | grep -oE '[0-9]+$' || echo 0)
unit_fail=$(grep -oE '\[  FAILED  \] [0-9]+ test' "$unit_log" | grep -oE '[0-9]+' || echo 0)
passed=$((passed + ${unit_pass:-0})); failed=$((failed + ${unit_fail:-0}))

lit_log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv build/test 2>&1 | tee "$lit_log" | grep -vE '^(PASS|UNSUPPORTED):' || true
lit_pass=$(grep -oE '^\s*Passed\s*: [0-9]+' "$lit_log" | grep -oE '[0-9]+$' || echo 0)
lit_fail=$(grep -oE '^\s*Failed\s*: [0-9]+' "$lit_log" | grep -oE '[0-9]+$' || echo 0)
lit_unsup=$(grep -oE '^\s*Unsupported\s*: [0-9]+' "$lit_log" | grep -oE '[0-9]+$' || echo 0)
passed=$((passed + ${lit_pass:-0})); failed=$((failed + ${lit_fail:-0}))
if [ "${lit_pass:-0}" = 0 ] && [ "${lit_fail:-0}" = 0 ]; then
  echo "lit ran no test"; failed=$((failed + 1))
fi
rm -f "$unit_log" "$lit_log"
echo "tests: $passed passed, $failed failed, ${lit_unsup:-0} skipped"
[ "$failed" -eq 0 ]
