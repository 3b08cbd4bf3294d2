#!/usr/bin/env bash
# Installs mdBook, the book's builder, from the crate registry at a pinned version into
# target/tools (no search index, no live server: what `mdbook build` needs). Does nothing when
# that version is already there. Prints the path of the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=0.5.4
ROOT=target/tools
BIN="$ROOT/bin/mdbook"
if [ -x "$BIN" ] && "$BIN" --version | grep -q "v$VERSION\$"; then
    echo "$BIN"
    exit 0
fi
cargo install mdbook --version "=$VERSION" --locked --no-default-features --root "$ROOT" \
    --quiet >&2
echo "$BIN"
