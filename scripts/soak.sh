#!/usr/bin/env bash
# Soak test of `jtoo frame serve` (issue 22) and, with SERVER=jte, of
# `jtoo jte serve --json-lines` (issue 33). Not run in CI.
#
# Starts the reference echo server on loopback under a 1 GiB address-space
# limit with its limits set below, runs the load generator
# (jtoo-frame/examples/soak.rs: honest echo clients, header-only clients
# declaring ffffff, slow greeters, idle holders, never-readers, churn) for
# SECONDS, prints the server's peak RSS and descriptors, frames sent vs
# echoed intact and errors, then stops the server. Exits non-zero on any
# lost or corrupted frame, a failed honest client, memory over
# RSS_LIMIT_MIB, or a server that died.
#
#   scripts/soak.sh                 # 10 minutes, full scale
#   SECONDS_TO_RUN=120 scripts/soak.sh
#   HONEST=100 HEADER_ONLY=100 SECONDS_TO_RUN=30 PROFILE=dev scripts/soak.sh
#   SERVER=jte scripts/soak.sh      # the JTE server: 500 honest callers
#                                   # against 1,000 hostile connections
#
# SERVER=jte: honest JTE callers over JSON lines (echo calls, answers
# compared, answer times recorded), and as the hostile 1,000: 300 senders
# of 900 KB lines that then trickle (HEADER_ONLY), 200 slow senders of a
# short line (SLOW), 300 idle holders (IDLE), 100 never-readers making
# 200 KB calls (NEVER_READERS), 100 senders of refused packets (REFUSED),
# and 20 churners.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_TO_RUN=${SECONDS_TO_RUN:-600}
SERVER=${SERVER:-frame}                     # frame | jte
PROFILE=${PROFILE:-release}
PORT=${PORT:-17931}
AS_LIMIT_KIB=${AS_LIMIT_KIB:-1048576}       # ulimit -v of the server: 1 GiB
BUDGET_MIB=${BUDGET_MIB:-256}               # --memory-budget-mib
RSS_LIMIT_MIB=${RSS_LIMIT_MIB:-768}         # fail above this peak RSS
MAX_CONNECTIONS=${MAX_CONNECTIONS:-4096}
if [ "$SERVER" = jte ]; then
    HONEST=${HONEST:-500}
    HEADER_ONLY=${HEADER_ONLY:-300}
    SLOW=${SLOW:-200}
    IDLE=${IDLE:-300}
    NEVER_READERS=${NEVER_READERS:-100}
    REFUSED=${REFUSED:-100}
else
    HONEST=${HONEST:-1000}
    HEADER_ONLY=${HEADER_ONLY:-1000}
    SLOW=${SLOW:-50}
    IDLE=${IDLE:-200}
    NEVER_READERS=${NEVER_READERS:-20}
    REFUSED=0
fi
HOGS=${HOGS:-40}                            # frame: slow senders of long frames
CHURNERS=${CHURNERS:-20}
LOG=${LOG:-target/soak-$SERVER-server.log}
TARGET=${CARGO_TARGET_DIR:-target}

cargo build --quiet --profile "$PROFILE" -p jtoo-cli --bin jtoo -p jtoo-frame --example soak
dir=$TARGET/$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")
mkdir -p "$(dirname "$LOG")"

ulimit -n 16384
limits=(--quiet --max-connections "$MAX_CONNECTIONS" --memory-budget-mib "$BUDGET_MIB"
    --idle-timeout 20 --frame-timeout 10 --write-timeout 10)
(
    ulimit -v "$AS_LIMIT_KIB"
    if [ "$SERVER" = jte ]; then
        exec "$dir/jtoo" jte serve --listen "127.0.0.1:$PORT" --json-lines "${limits[@]}"
    else
        exec "$dir/jtoo" frame serve --listen "127.0.0.1:$PORT" --protocol echo/1 \
            --timeout 10 "${limits[@]}"
    fi
) 2>"$LOG" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    grep -q "^listening on" "$LOG" 2>/dev/null && break
    sleep 0.1
done

status=0
"$dir/examples/soak" --addr "127.0.0.1:$PORT" --server-pid "$server" \
    --seconds "$SECONDS_TO_RUN" --rss-limit-mib "$RSS_LIMIT_MIB" \
    --honest "$HONEST" --header-only "$HEADER_ONLY" --slow "$SLOW" --idle "$IDLE" \
    --never-readers "$NEVER_READERS" --churners "$CHURNERS" --refused "$REFUSED" --hogs "$HOGS" \
    --jte "$([ "$SERVER" = jte ] && echo 1 || echo 0)" || status=$?

echo "server log: $LOG ($(wc -l <"$LOG") lines; by kind:)"
grep -aoE "idle timeout|frame timeout|write timeout|terminated without reply|refused|accept failed|memory budget had no room|over its fair share|transport error" "$LOG" \
    | sort | uniq -c || true
exit "$status"
