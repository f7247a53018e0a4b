# Sourced by bench/gpu/lease.sh and lease_ab.sh: `part SECONDS ARGS...`
# runs bench/gpu/run_gemms.py ARGS under its own deadline (SECONDS times
# $LEASE_SCALE, which the mock runs at 0.2-0.3), framed in the log, each
# bundle under a deadline of 30 s (a hung kernel costs its own row, not
# the part). `table PATH.md` prints a part's table into the log and moves
# it out of $OUT: the device tool brings back at most 8 files, so $OUT
# keeps the log and the .jsonl files (every number) only.
part() {
  local seconds
  seconds=$(python3 -c "print(max(5, round($1 * ${LEASE_SCALE:-1})))")
  shift
  echo "=== run_gemms.py $* (at most $seconds s) ==="
  PYTHONUNBUFFERED=1 timeout -k 10 "$seconds" python3 bench/gpu/run_gemms.py \
    --bundle-timeout 30 "$@"
  echo "=== exit $? ==="
}

table() {
  [ -f "$1" ] || return 0
  echo "=== table $(basename "$1") ==="
  cat "$1"
  mv "$1" /tmp/ 2>/dev/null || rm -f "$1"
}

# The commit the bundles were compiled from (prepare.sh writes it), so a
# lease says when it ran stale bundles.
bundles_commit() {
  echo "bundles compiled at: $(cat bench/gpu/bundles/COMMIT 2>/dev/null || echo unknown)"
}
