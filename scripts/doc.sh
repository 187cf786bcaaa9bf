#!/bin/sh
# Documents the workspace's libraries so that links between its crates
# work on the first build (issue 31, item 10).
#
# Why not just `cargo doc --workspace --no-deps`: rustdoc links a name in
# another crate (`jtoo_serde::from_value`'s [`jtoo::Value`]) to that
# crate's local pages only if their directory, target/doc/<crate>/,
# exists when it starts documenting; otherwise the name stays plain text.
# With --no-deps, cargo's doc jobs for the workspace's crates do not wait
# for each other, so on a fresh target directory a crate is often
# documented before (or while) the crates it links to are, and only a
# later run (after a change) gets the links. Documenting in dependency
# order with one `cargo doc -p` per level does not help: `-p` resolves
# other features than `--workspace`, so the final run documents every
# crate again, in parallel. So this script creates each workspace
# library's doc directory first and then runs one `cargo doc --workspace
# --no-deps`: every crate finds the others' directories, which are filled
# by the end of the run.
#
# Usage: scripts/doc.sh [--check] [cargo doc options, e.g. --open]
#   --check  then verify that a cross-crate link resolved (for CI).
set -eu
cd "$(dirname "$0")/.."
check=false
for arg in "$@"; do
    shift
    case "$arg" in
        --check) check=true ;;
        *) set -- "$@" "$arg" ;;
    esac
done
target=$(cargo metadata --no-deps --format-version 1 |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
# The workspace's documented libraries (benches and bench-support are
# doc = false; jtoo-cli
# has only its binary, not documented either).
for krate in jtoo htoo jtoo_serde jtoo_frame jte jtoo_lsp spec_tests; do
    mkdir -p "$target/doc/$krate"
done
cargo doc --workspace --no-deps "$@"
if $check; then
    page="$target/doc/jtoo_serde/fn.from_value.html"
    if ! grep -q 'href="../jtoo/[^"]*enum.Value.html"' "$page"; then
        echo "doc.sh: $page does not link jtoo::Value" >&2
        exit 1
    fi
    for krate in benches bench_support; do
        if [ -e "$target/doc/$krate" ]; then
            echo "doc.sh: the $krate crate was documented" >&2
            exit 1
        fi
    done
    echo "doc.sh: cross-crate links resolved"
fi
