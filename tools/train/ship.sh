#!/usr/bin/env bash
# After training: convert an exported model with edgemt-convert (float32 and int8), translate
# the test split and the general-domain set (evaluate.py --split general) with edgemt and
# score everything with sacrebleu, next to transformers' scores of the same export where
# they exist (evaluate.py without --hyp; device_train.sh runs it on the GPU machine). Writes
# DIR/eval/results.json and DIR/ship/: model files, hypotheses, timings. The model cards
# (models/README.md) are written from those numbers by hand.
#
#   PAIR=en-de MODEL=DATA/gpu/model-en-de OUT=DATA/gpu/eval-en-de bash tools/train/ship.sh
#   BEAMS=1,4 PROTECT=both ...   (PROTECT: no = --no-protect, the transformers-parity run;
#                                 yes = translate's default; both)
#   OLD=models/edgemt-en-de.emt ...   also score an earlier .emt (int8 as shipped)
#   INT8_BITS=8 ...   8-bit int8 weights (default 7, as the bundled models: --int8-weight-bits)
#   SPLITS="test general descriptions talk"   the sets scored (default all four)
#   PRECISIONS=int8 ...   the conversions translated (default "f32 int8"; both are written)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
DATA="${DATA:-/work/edgemt-data}"
BUILD="${BUILD:-$REPO/build/release}"
PAIR="${PAIR:-en-de}"
MODEL="${MODEL:-$DATA/model-hf}"
OUT="${OUT:-$DATA/eval}"
BEAMS="${BEAMS:-1,4}"
PROTECT="${PROTECT:-both}"
INT8_BITS="${INT8_BITS:-7}"
PY="${PYTHON:-python3}"
s=${PAIR%-*}
t=${PAIR#*-}
ship="$OUT/ship"
mkdir -p "$ship"

"$BUILD/converter/edgemt-convert" "$MODEL" "$ship/edgemt-$PAIR.f32.emt"
"$BUILD/converter/edgemt-convert" --quantize int8 --int8-weight-bits "$INT8_BITS" "$MODEL" "$ship/edgemt-$PAIR.int8.emt"

# The general-domain, package-description and games' talk sets as files (their order is
# evaluate.py's).
"$PY" -c "
import sys; sys.path.insert(0, '$HERE')
from evaluate import domain_split
for name in ('general', 'descriptions', 'talk'):
    src, ref, _ = domain_split('$DATA/corpus', '$s', '$t', name)
    open('$ship/' + name + '.$s', 'w').write('\n'.join(src) + '\n')
"

run() {  # run NAME MODEL_FILE SPLIT BEAM [translate options]
  local name=$1 model=$2 split=$3 beam=$4
  shift 4
  local src="$DATA/corpus/$split.$s"
  case "$split" in general | descriptions | talk) src="$ship/$split.$s" ;; esac
  /usr/bin/time -f "%e s wall, %U s user, %M KiB peak RSS" -o "$ship/$split.$name.time" \
    "$BUILD/runtime/translate" --model "$model" --beam "$beam" --batch 16 --threads 2 --no-split "$@" \
    < "$src" > "$ship/$split.$name.$t"
  echo "$split $name: $(cat "$ship/$split.$name.time")"
  "$PY" "$HERE/evaluate.py" --data "$DATA" --split "$split" --hyp "$ship/$split.$name.$t" --name "$name" \
    --out "$OUT" --src-lang "$s" --tgt-lang "$t"
}

for split in ${SPLITS:-test general descriptions talk}; do
  for b in ${BEAMS//,/ }; do
    for prec in ${PRECISIONS:-f32 int8}; do
      case "$PROTECT" in
        no | both) run "edgemt-$prec-beam$b" "$ship/edgemt-$PAIR.$prec.emt" $split "$b" --no-protect ;;
      esac
      case "$PROTECT" in
        yes | both) run "edgemt-$prec-beam$b-protect" "$ship/edgemt-$PAIR.$prec.emt" $split "$b" ;;
      esac
    done
    if [ -n "${OLD:-}" ]; then
      run "old-int8-beam$b" "$OLD" $split "$b" --no-protect
    fi
  done
done
ls -la "$ship"/*.emt
