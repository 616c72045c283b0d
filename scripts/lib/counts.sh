# Sourced by scripts/test, scripts/cross-test and scripts/fuzz: test counts per stage.
# A stage appends one line "ran failed" per run of tests to the file named by
# EDGEMT_TEST_COUNTS (when set); scripts/test sums them per stage, fails a stage that
# ran no test, and prints "N passed, N failed".

# ctest_counts LOG: prints "ran failed" from ctest's closing line
# ("96% tests passed, 2 tests failed out of 57"); "0 0" when there is none (no tests
# found, or ctest stopped before the end).
ctest_counts() {
  local line
  line="$(grep -aE '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -n 1 || true)"
  if [ -z "$line" ]; then echo "0 0"; return; fi
  local failed total
  failed="$(sed -E 's/^[0-9]+% tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")"
  total="$(sed -E 's/^[0-9]+% tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")"
  echo "$total $failed"
}

# record_counts RAN FAILED: appends to $EDGEMT_TEST_COUNTS if set.
record_counts() {
  if [ -n "${EDGEMT_TEST_COUNTS:-}" ]; then echo "$1 $2" >>"$EDGEMT_TEST_COUNTS"; fi
}

# record_ctest LOG: records the counts of a ctest log.
record_ctest() {
  local c
  c="$(ctest_counts "$1")"
  record_counts ${c}
}

# sum_counts FILE: prints "ran failed" summed over the file's lines ("0 0" if none).
sum_counts() {
  if [ ! -s "$1" ]; then echo "0 0"; return; fi
  awk '{r += $1; f += $2} END {print r + 0, f + 0}' "$1"
}
