#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for at most SECONDS each, one
# after the other, on stable Rust (no sanitizer: `-s none`). New inputs go
# to fuzz/scratch/TARGET, so the committed seed corpus stays as it is;
# crashes land in fuzz/artifacts/TARGET/. With RUNS set, a target also stops
# after that many executions (the long run: RUNS=10000000).
#
#   fuzz/run.sh 60                          # all targets, 60 s each
#   fuzz/run.sh 300 jtoo_parse greeting     # just these
#   RUNS=10000000 fuzz/run.sh 3600          # the long run (FUZZING.md)
#
# Each target's result is appended to fuzz/scratch/record.tsv: date, commit,
# target, executions, executions per second, peak RSS (MB), new findings.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:?usage: fuzz/run.sh SECONDS [TARGET...]}"
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list)
fi

# Per-target libFuzzer options. The structured targets build values from
# their input, and a value from 1 KiB already nests and mixes every kind;
# larger inputs only make bigger values of the same shapes, and slower runs.
# `greeting`'s seeds include a 16 KiB frame (the size rule), which would
# make libFuzzer grow inputs to 16 KiB: three parses of such a frame per
# execution held it near 1,100 exec/s. The size rule is the frame codec's,
# tested at 16 KiB exactly and one byte over in jtoo-frame's tests; the
# greeting rules are about the list's shape and keys, which 1 KiB holds
# many times over (45 s from the seeds, 2026-11-26: 4,307 exec/s and 2,136
# edges at 1 KiB, 3,250 exec/s and 2,146 edges at 4 KiB).
options() {
  case "$1" in
    value_roundtrip | pretty_roundtrip | serde_roundtrip) echo "-max_len=1024" ;;
    greeting) echo "-max_len=1024" ;;
    *) echo "" ;;
  esac
}

# Targets whose input drives a generator (`arbitrary`) rather than being
# parsed as text are built without libFuzzer's comparison tracing
# (`--no-trace-compares`), in their own target directory so the two builds
# never invalidate each other. Their comparisons are on generated text, not
# on input bytes, so the traced operands do not help mutation; the tracing
# took 55% of value_roundtrip's time (perf). Measured from the same seeds
# for 45 s each (FUZZING.md, 2026-11-26), every one of them reached more
# edges and features without it, at 2.2–3.8 times the executions.
# `greeting`'s frame branch does parse input bytes; it still covered more
# in the same time without tracing.
untraced() {
  case "$1" in
    value_roundtrip | pretty_roundtrip | serde_roundtrip | greeting) return 0 ;;
    *) return 1 ;;
  esac
}

# Crash, OOM and timeout inputs kept for a target (this run's are the new ones).
findings() {
  local n=0 kind
  for kind in crash oom timeout; do
    if compgen -G "artifacts/$1/$kind-*" >/dev/null; then
      n=$((n + $(compgen -G "artifacts/$1/$kind-*" | wc -l)))
    fi
  done
  echo "$n"
}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
mkdir -p scratch
status=0
for t in "${targets[@]}"; do
  mkdir -p "scratch/$t"
  before=$(findings "$t")
  echo "== $t (${secs}s${RUNS:+, at most $RUNS runs})"
  build=()
  if untraced "$t"; then
    build=(--no-trace-compares --target-dir target-nocmp)
  fi
  # shellcheck disable=SC2046
  cargo fuzz run -s none "${build[@]}" "$t" "scratch/$t" "corpus/$t" -- \
      -max_total_time="$secs" ${RUNS:+-runs="$RUNS"} $(options "$t") -print_final_stats=1 \
      >"scratch/$t.log" 2>&1 || true
  grep -E "^(==[0-9]+== ERROR|SUMMARY|Done )|stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)" "scratch/$t.log" || true
  found=$(($(findings "$t") - before))
  final_stat() { sed -n "s/^stat::$1: *//p" "scratch/$t.log" | tail -1; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$commit" "$t" \
    "$(final_stat number_of_executed_units)" "$(final_stat average_exec_per_sec)" "$(final_stat peak_rss_mb)" \
    "$found" | tee -a scratch/record.tsv
  if [ "$found" -gt 0 ]; then
    echo "!! $t: findings in fuzz/artifacts/$t/"
    status=1
  fi
done
exit $status
