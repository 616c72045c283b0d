#!/usr/bin/env bash
# Builds edgemt at a committed revision (default HEAD) outside the work tree, so that a
# comparison measures committed code rather than edits in progress, and prints the build
# directory (pass it to compare.py --build-dir). Read-only for the repository (git
# archive). If the revision predates bench/translate_bench.cc, this work tree's copy and
# its CMake block are added to the snapshot (and kept in sync on later calls).
#   bench/compare/build_head.sh [REV]      (default HEAD; snapshots in $EDGEMT_BENCH_SRC,
#                                           default /work/edgemt-data/bench-src)
set -euo pipefail
rev=${1:-HEAD}
repo=$(cd "$(dirname "$0")/../.." && pwd)
dest=${EDGEMT_BENCH_SRC:-/work/edgemt-data/bench-src}
commit=$(git -C "$repo" rev-parse --short "$rev")
src=$dest/$commit
build=$src/build
if [ ! -f "$src/SNAPSHOT_OF" ]; then
  rm -rf "$src"
  mkdir -p "$src"
  git -C "$repo" archive "$rev" | tar -x -C "$src"
  echo "$commit" > "$src/SNAPSHOT_OF"
fi
if ! git -C "$repo" cat-file -e "$rev:bench/translate_bench.cc" 2>/dev/null; then
  cmp -s "$repo/bench/translate_bench.cc" "$src/bench/translate_bench.cc" ||
    cp "$repo/bench/translate_bench.cc" "$src/bench/translate_bench.cc"
  if ! grep -q edgemt-bench-translate "$src/bench/CMakeLists.txt"; then
    sed -n '/^# --- whole-translation benchmarks/,$p' "$repo/bench/CMakeLists.txt" | tail -n +2 >> "$src/bench/CMakeLists.txt"
  fi
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DEDGEMT_BUILD_TESTS=OFF >&2
fi
cmake --build "$build" -j2 --target translate edgemt-convert edgemt-bench-translate >&2
echo "$build"
