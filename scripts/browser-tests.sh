#!/usr/bin/env bash
# The browser tests: installs headless Chromium (Debian's) and playwright-core (the pinned
# version in browser-tests/package-lock.json), generates the HTML pages under test into
# target/browser, and runs browser-tests/*.test.mjs with node's test runner. Screenshots land
# in target/browser/screenshots. Exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each part's start, in seconds since the script began: where the time goes.
step() { echo "== browser-tests ${SECONDS}s: $*" >&2; }

step chromium
CHROMIUM=$(bash scripts/install-chromium.sh)
export CHROMIUM

step npm ci
npm ci --prefix browser-tests --no-audit --no-fund --loglevel=error

step pages
# Pages under test, each with the JSON trace of the same run: the built-in sample prog0, a loop
# under intervals (widening), the signs product (reductions), a backward analysis (needed
# values, against control flow), a deliberately wrong .dom analysis
# (verify's failing run on the graph), and a function of 10^4 blocks (load figures).
OUT=target/browser
mkdir -p "$OUT"
# The test profile and every target: after `cargo test --workspace` (as in .ci/run) this finds
# everything built but the benchmark binary, where a plain `cargo build -p absinthe-cli
# -p absinthe-bench` (the dev profile, other features) compiled absinthe and all above it again.
cargo build --quiet --profile test --workspace --all-targets
ABSINTHE=target/debug/absinthe
trace() {
    local name=$1
    shift
    "$ABSINTHE" trace "$@" --html "$OUT/$name.html"
    "$ABSINTHE" trace "$@" --format json-trace > "$OUT/$name.json"
}
trace prog0
trace count ir/test_data/count.air
trace signs dsl-examples/test_data/reduction.air --analysis signs
trace octagon ir/test_data/below_n.air --analysis octagon
trace backward ir/test_data/backward.air --analysis needed
"$ABSINTHE" trace ir/test_data/count.air --dom browser-tests/data/wrong_parity.dom \
    --html "$OUT/wrong.html"
target/debug/absinthe-bench viewer "$OUT"
# Every example program, for the test that asks every question of every page.
for file in ir/test_data/*.air ir/test_data/*.toy dsl-examples/test_data/*.air; do
    name=$(basename "$file")
    "$ABSINTHE" trace "$file" --html "$OUT/all-${name%.*}.html"
done
# And the relational examples under the octagon, whose pages carry the relation's why trees.
for file in ir/test_data/below_n.air ir/test_data/copy_increment.air; do
    name=$(basename "$file")
    "$ABSINTHE" trace "$file" --analysis octagon --html "$OUT/all-octagon-${name%.*}.html"
done

step tests
node --test browser-tests/*.test.mjs
step done
