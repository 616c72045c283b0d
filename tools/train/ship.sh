#!/usr/bin/env bash
# After training: export a checkpoint, convert it with edgemt-convert (float32 and int8),
# translate the test split with edgemt and score everything with sacrebleu, next to
# transformers on the same exported model. Writes DATA/eval/results.json (evaluate.py)
# and DATA/ship/: model files, hypotheses, timings. The model card (models/README.md) is
# written from those numbers by hand.
#
#   bash tools/train/ship.sh                  # DATA/train/ckpt/last.pt
#   CKPT=best bash tools/train/ship.sh        # DATA/train/best-hf (best dev BLEU)
#   BUILD=build/release BEAMS=1,4 LIMIT=0 bash tools/train/ship.sh
#   EVAL=0 ... (export + convert only); SKIP_EXPORT=1 ... (evaluate only)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
DATA="${DATA:-/work/edgemt-data}"
BUILD="${BUILD:-$REPO/build/release}"
BEAMS="${BEAMS:-1,4}"
LIMIT="${LIMIT:-0}"
CKPT="${CKPT:-last}"
TRAIN="${TRAIN:-$DATA/train}"  # training output dir (train.py --out)
PY="${PYTHON:-python3}"
out="$DATA/ship"
mkdir -p "$out"

if [ "${SKIP_EXPORT:-0}" != 1 ]; then
  if [ "$CKPT" = best ]; then
    "$PY" "$HERE/export.py" --data "$DATA" --model-dir "$TRAIN/best-hf"
  else
    "$PY" "$HERE/export.py" --data "$DATA" --ckpt "$TRAIN/ckpt/last.pt"
  fi
  "$BUILD/converter/edgemt-convert" "$DATA/model-hf" "$out/edgemt-en-de.f32.emt"
  "$BUILD/converter/edgemt-convert" --quantize int8 "$DATA/model-hf" "$out/edgemt-en-de.int8.emt"
fi
if [ "${EVAL:-1}" = 0 ]; then exit 0; fi

src="$DATA/corpus/test.en"
if [ "$LIMIT" != 0 ]; then head -n "$LIMIT" "$src" > "$out/test.en"; src="$out/test.en"; fi
"$PY" "$HERE/evaluate.py" --data "$DATA" --beams "$BEAMS" --limit "$LIMIT"
for prec in f32 int8; do
  for b in ${BEAMS//,/ }; do
    name="edgemt-$prec-beam$b"
    /usr/bin/time -f "%e s wall, %U s user, %M KiB peak RSS" -o "$out/$name.time" \
      "$BUILD/runtime/translate" --model "$out/edgemt-en-de.$prec.emt" --beam "$b" --batch 16 \
      --threads 2 --max-length 256 < "$src" > "$out/$name.de"
    echo "$name: $(cat "$out/$name.time")"
    "$PY" "$HERE/evaluate.py" --data "$DATA" --hyp "$out/$name.de" --name "$name" --limit "$LIMIT"
  done
done
ls -la "$out"/*.emt
