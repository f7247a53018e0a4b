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
build/bin/nautilus-unit-tests --gtest_brief=1 >"$unit_log" 2>&1
unit_status=$?
cat "$unit_log"
unit_pass=$(grep -oE '\[  PASSED  \] [0-9]+' "$unit_log" | grep -oE '[0-9]+$' || echo 0)
unit_fail=$(grep -oE '\[  FAILED  \] [0-9]+ test' "$unit_log" | grep -oE '[0-9]+' || echo 0)
passed=$((passed + ${unit_pass:-0})); failed=$((failed + ${unit_fail:-0}))
# A failing run whose summary did not parse (a crash, a new output format)
# still fails.
if [ "$unit_status" -ne 0 ] && [ "${unit_fail:-0}" = 0 ]; then
  echo "unit tests exited with status $unit_status"; failed=$((failed + 1))
fi

lit_log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv build/test 2>&1 | tee "$lit_log" | grep -vE '^(PASS|UNSUPPORTED):'
lit_status=${PIPESTATUS[0]}
lit_pass=$(grep -oE '^\s*Passed\s*:\s*[0-9]+' "$lit_log" | grep -oE '[0-9]+$' || echo 0)
lit_fail=$(grep -oE '^\s*Failed\s*:\s*[0-9]+' "$lit_log" | grep -oE '[0-9]+$' || echo 0)
lit_unsup=$(grep -oE '^\s*Unsupported\s*:\s*[0-9]+' "$lit_log" | grep -oE '[0-9]+$' || echo 0)
passed=$((passed + ${lit_pass:-0})); failed=$((failed + ${lit_fail:-0}))
if [ "$lit_status" -ne 0 ] && [ "${lit_fail:-0}" = 0 ]; then
  echo "lit exited with status $lit_status"; failed=$((failed + 1))
fi
if [ "${lit_pass:-0}" = 0 ] && [ "${lit_fail:-0}" = 0 ]; then
  echo "lit ran no test"; failed=$((failed + 1))
fi
rm -f "$unit_log" "$lit_log"
echo "tests: $passed passed, $failed failed, ${lit_unsup:-0} skipped"
[ "$failed" -eq 0 ]
