#!/bin/sh
# Instructions per run of each JTOO workload on each corpus file, by callgrind:
# (Ir with RUNS+1 runs - Ir with 1 run) / RUNS, so loading the file and building
# the inputs cancel out. Usage (from the workspace root):
#   cargo build --release -p benches --bin profile && benches/callgrind.sh [PROFILE_BIN] [RUNS]
# WORKLOADS="encode typed-ser" limits the rows to those workloads; FILES sets
# the FILE argument of each run (default: the three corpus files). The frame
# and JTE workloads take other FILEs (see src/bin/profile.rs), e.g.
#   WORKLOADS="frame-decode frame-decode-ldc" FILES=small benches/callgrind.sh
#     (a run: 1,000,000 frames of 100 B; LengthDelimitedCodec as the peer)
#   WORKLOADS="jte jte-json" FILES=- benches/callgrind.sh
#     (a run: 20,000 JTE packets, compare's stream; JSON lines as the peer)
set -eu
bin=${1:-target/release/profile}
runs=${2:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ir() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" "$1" "$2" "$3" \
        2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
printf '%-10s %-13s %14s\n' workload file instructions/run
for w in ${WORKLOADS:-parse validate typed-de typed-ser encode}; do
    for f in ${FILES:-twitter citm_catalog canada}; do
        one=$(ir "$w" "$f" 1)
        many=$(ir "$w" "$f" $((runs + 1)))
        printf '%-10s %-13s %14d\n' "$w" "$f" $(((many - one) / runs))
    done
done
