# Sourced by bench/gpu/lease.sh and lease_ab.sh: `part SECONDS ARGS...`
# runs bench/gpu/run_gemms.py ARGS under its own deadline (SECONDS times
# $LEASE_SCALE, which the mock runs at 0.2-0.3), framed in the log.
part() {
  local seconds
  seconds=$(python3 -c "print(max(5, round($1 * ${LEASE_SCALE:-1})))")
  shift
  echo "=== run_gemms.py $* (at most $seconds s) ==="
  PYTHONUNBUFFERED=1 timeout -k 20 "$seconds" python3 bench/gpu/run_gemms.py "$@"
  echo "=== exit $? ==="
}
