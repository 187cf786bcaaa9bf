#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each, one after the
# other, on stable Rust (no sanitizer: `-s none`). New inputs go to
# fuzz/scratch/TARGET, so the committed seed corpus stays as it is; crashes
# land in fuzz/artifacts/TARGET/.
#
#   fuzz/run.sh 60                      # all targets, 60 s each
#   fuzz/run.sh 300 jtoo_parse greeting # just these
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:?usage: fuzz/run.sh SECONDS [TARGET...]}"
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list)
fi
status=0
for t in "${targets[@]}"; do
  mkdir -p "scratch/$t"
  echo "== $t (${secs}s)"
  if ! cargo fuzz run -s none "$t" "scratch/$t" "corpus/$t" -- \
      -max_total_time="$secs" -print_final_stats=1 2>&1 | tee "scratch/$t.log" | grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+== ERROR|SUMMARY|Done )"; then
    :
  fi
  if compgen -G "artifacts/$t/crash-*" >/dev/null || compgen -G "artifacts/$t/oom-*" >/dev/null ||
     compgen -G "artifacts/$t/timeout-*" >/dev/null; then
    echo "!! $t: findings in fuzz/artifacts/$t/"
    status=1
  fi
done
exit $status
