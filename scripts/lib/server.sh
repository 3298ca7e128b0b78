# Sourced by the scripts that start `taptrace serve` on a free loopback port: bench/run,
# scripts/check-api and pgo/train.
#
#   start_server BINARY STDOUT STDERR [serve arguments...] || exit 1
#
# Starts `BINARY serve --port 0 [arguments]` in the background with its output in the two
# files, waits (up to 10 s) for the address it announces on its first line, and sets
# `server_pid` and `port`. If the server exits or says nothing, prints its stderr and returns 1.
start_server() {
  local binary=$1 stdout=$2 stderr=$3
  shift 3
  "$binary" serve --port 0 "$@" >"$stdout" 2>"$stderr" &
  server_pid=$!
  port=
  for _ in $(seq 1 100); do
    port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$stdout" | head -n 1)
    [ -n "$port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "taptrace serve did not start:" >&2
  cat "$stderr" >&2
  return 1
}
