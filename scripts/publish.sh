#!/bin/sh
# Publishes the workspace's crates to crates.io in dependency order (each
# crate after every crate it depends on, dev-dependencies included where
# they carry a version), waiting for each to be available before the next.
#
# Usage:
#   scripts/publish.sh --dry-run [--no-verify]   package every crate, as
#       crates.io would receive it, against the others packaged locally
#       (`cargo package --workspace`: each one's .crate is built and, unless
#       --no-verify, compiled on its own); nothing is uploaded.
#   scripts/publish.sh [--from CRATE]             publish for real, from
#       the first crate (or CRATE, to resume after a failure) on.
#
# Needs a clean git tree for a real publish and `cargo login` first.
# benches and bench-support are never published (publish = false).
set -eu
cd "$(dirname "$0")/.."

# Dependency order: jtoo; htoo (jtoo); jtoo-serde (htoo); jtoo-frame
# (jtoo-serde); jte (jtoo-frame); jtoo-lsp (htoo); spec-tests (jtoo; its
# tests use htoo, jtoo-frame, jte); jtoo-cli (all of them).
CRATES="jtoo htoo jtoo-serde jtoo-frame jte jtoo-lsp spec-tests jtoo-cli"

dry_run=false
verify=""
from=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=true ;;
        --no-verify) verify="--no-verify" ;;
        --from) shift; from="${1:?--from needs a crate name}" ;;
        *) echo "publish.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done

if $dry_run; then
    # shellcheck disable=SC2086 # $verify is empty or one flag
    exec cargo package --workspace --exclude benches --exclude bench-support --allow-dirty $verify
fi

started=false
[ -z "$from" ] && started=true
for krate in $CRATES; do
    if ! $started; then
        [ "$krate" = "$from" ] || continue
        started=true
    fi
    echo "publish.sh: publishing $krate"
    # shellcheck disable=SC2086
    cargo publish -p "$krate" $verify
done
if ! $started; then
    echo "publish.sh: --from $from: no such crate (one of: $CRATES)" >&2
    exit 2
fi
