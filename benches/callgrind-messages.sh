#!/bin/sh
# Instructions per typed message (benches/support/src/messages.rs), TypedCodec
# against its JSON peers, counted by callgrind: deterministic where wall
# time on a shared machine is not.
#
#   sh benches/callgrind-messages.sh [COUNT]      (default 20000 messages)
#
# Each workload of the `profile` binary runs twice under callgrind, once
# with 1 pass over the COUNT messages and once with 3; the difference of
# the two totals divided by 2 x COUNT is the cost of one message, without
# the setup (building the streams, the same in both runs). Prints a
# Markdown table and writes it to benches/callgrind-messages.md, which
# `compare` copies into BENCHMARKS.md.
set -eu
count=${1:-20000}
cd "$(dirname "$0")/.."
cargo build --release -p benches --bin profile >/dev/null 2>&1
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
enc=$(per_message msg-encode)
enc_json=$(per_message msg-encode-json)
enc_ldc=$(per_message msg-encode-ldc)
enc_frame=$(per_message msg-encode-frame)
dec=$(per_message msg-decode)
dec_json=$(per_message msg-decode-json)
dec_slice=$(per_message msg-decode-json-slice)
dec_ldc=$(per_message msg-decode-ldc)
dec_frame=$(per_message msg-decode-frame)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
{
    echo "| typed messages, instructions per message | JTOO | peer | ratio |"
    echo "|---|---:|---:|---:|"
    echo "| encode: TypedCodec vs JSON lines + serde_json (\`to_writer\`) | $enc | $enc_json | $(ratio "$enc" "$enc_json") |"
    echo "| encode: TypedCodec vs LengthDelimitedCodec + serde_json (\`to_vec\`) | $enc | $enc_ldc | $(ratio "$enc" "$enc_ldc") |"
    echo "| encode: TypedCodec vs the two-pass path (\`Frame::from_serde\` + FrameCodec) | $enc | $enc_frame | $(ratio "$enc" "$enc_frame") |"
    echo "| decode: TypedCodec vs JSON lines + serde_json \`from_str\` | $dec | $dec_json | $(ratio "$dec" "$dec_json") |"
    echo "| decode: TypedCodec vs JSON lines + serde_json \`from_slice\` | $dec | $dec_slice | $(ratio "$dec" "$dec_slice") |"
    echo "| decode: TypedCodec vs LengthDelimitedCodec + serde_json \`from_slice\` | $dec | $dec_ldc | $(ratio "$dec" "$dec_ldc") |"
    echo "| decode: TypedCodec vs the two-pass path (FrameCodec + \`Frame::to_serde\`) | $dec | $dec_frame | $(ratio "$dec" "$dec_frame") |"
    echo
    echo "\`sh benches/callgrind-messages.sh $count\` ($count messages; valgrind $(valgrind --version | sed 's/valgrind-//'), $(date -u '+%Y-%m-%d'))."
} | tee benches/callgrind-messages.md
