#!/usr/bin/env bash
# Checks the workspace's crates as crates.io would receive them: each crate
# is packaged (`cargo package`, the files it ships and its normalized
# manifest), unpacked on its own, and compiled from there with every
# feature, against the other crates' packages instead of the source tree.
# A file a crate needs but does not ship (an `include_str!` outside its
# directory, a missing module), a dependency written only as a path, or a
# manifest crates.io would rewrite differently fails here.
#
# Usage: scripts/check-packages.sh [+TOOLCHAIN]
#   With +TOOLCHAIN (CI passes the stated minimum, rust-version), the same
#   check proves the published crates build with that Rust.
#
# It checks (`cargo check`) rather than builds: whether the packaged sources
# compile is decided before code generation, and a check of all eight
# crates costs less than half of `cargo package`'s verifying build. The
# packages are unpacked under target/package-check/ and checked in
# target/package-check/target (kept between runs; delete it to start cold).
set -euo pipefail
cd "$(dirname "$0")/.."
toolchain=("$@")

# The published crates: scripts/publish.sh's list.
read -r -a crates <<<"$(sed -n 's/^CRATES="\(.*\)"$/\1/p' scripts/publish.sh)"
[ "${#crates[@]}" -gt 0 ] || { echo "check-packages: no CRATES= line in scripts/publish.sh" >&2; exit 2; }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

rm -rf target/package
cargo package --workspace --exclude benches --exclude bench-support --allow-dirty --no-verify --quiet

work=target/package-check
mkdir -p "$work"
# Keep the check's own target directory, drop every unpacked package.
find "$work" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
{
  echo '# Written by scripts/check-packages.sh: the packaged crates, unpacked.'
  echo '[workspace]'
  echo 'resolver = "3"'
  printf 'members = ['
  for c in "${crates[@]}"; do printf '"%s-%s", ' "$c" "$version"; done
  echo ']'
  echo '[patch.crates-io]'
  for c in "${crates[@]}"; do printf '%s = { path = "%s-%s" }\n' "$c" "$c" "$version"; done
} >"$work/Cargo.toml"
for c in "${crates[@]}"; do
  tar -xzf "target/package/$c-$version.crate" -C "$work"
done
# The dependencies' versions this workspace is tested with.
cp Cargo.lock "$work/Cargo.lock"

CARGO_TARGET_DIR="$work/target" cargo "${toolchain[@]}" check --quiet \
  --manifest-path "$work/Cargo.toml" --workspace --all-features
echo "check-packages: ${#crates[@]} packaged crates compile on their own${toolchain[*]:+ with ${toolchain[*]}}"
