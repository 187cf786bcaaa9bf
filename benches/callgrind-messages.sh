#!/bin/sh
# Instructions per typed message (benches/src/messages.rs), TypedCodec
# against its JSON peers, counted by callgrind: deterministic where wall
# time on a shared machine is not.
#
#   sh benches/callgrind-messages.sh [COUNT]      (default 20000 messages)
#
# Each workload runs twice under callgrind, once with 1 pass over the COUNT
# messages and once with 3; the difference of the two totals divided by
# 2 x COUNT is the cost of one message, without the setup (building the
# streams, which is the same in both runs).
set -eu
count=${1:-20000}
cd "$(dirname "$0")/.."
cargo build --release -p benches --bin profile >/dev/null
bin=target/release/profile
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" "$1" "$count" "$2" \
        >/dev/null 2>"$out/log"
    sed -n 's/^summary: //p' "$out/cg"
}
per_message() {
    one=$(total "$1" 1)
    three=$(total "$1" 3)
    echo $(( (three - one) / (2 * count) ))
}
printf '%-24s %s\n' workload instructions/message
for w in msg-encode msg-encode-json msg-encode-ldc msg-encode-frame msg-decode \
    msg-decode-json msg-decode-json-slice msg-decode-ldc msg-decode-frame; do
    printf '%-24s %s\n' "$w" "$(per_message "$w")"
done
