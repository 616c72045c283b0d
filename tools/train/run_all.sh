#!/usr/bin/env bash
# Build corpus -> SentencePiece vocab -> train -> export -> evaluate.
# Idempotent: each step is skipped when its output exists (FORCE=1 reruns all
# except training, which resumes from its checkpoint and stops at its budget).
#
#   bash tools/train/run_all.sh                    # DATA=/work/edgemt-data, 120 min budget
#   DATA=/some/dir MAX_MINUTES=30 bash tools/train/run_all.sh
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TOOLS="$(dirname "$HERE")"
DATA="${DATA:-/work/edgemt-data}"
MAX_MINUTES="${MAX_MINUTES:-120}"
FORCE="${FORCE:-0}"
PY="${PYTHON:-python3}"
mkdir -p "$DATA"

need() { [ "$FORCE" = 1 ] || [ ! -e "$1" ]; }

if [ ! -e /usr/share/trans/de-en ]; then
  echo "[run_all] installing trans-de-en"; apt-get install -y -q trans-de-en
fi

if need "$DATA/corpus/stats.json"; then
  echo "[run_all] 1/5 corpus"
  "$PY" "$TOOLS/data/build_corpus.py" --data "$DATA"
else echo "[run_all] 1/5 corpus: done ($DATA/corpus)"; fi

if need "$DATA/spm/vocab.json"; then
  echo "[run_all] 2/5 sentencepiece"
  "$PY" "$HERE/train_spm.py" --data "$DATA"
else echo "[run_all] 2/5 sentencepiece: done ($DATA/spm)"; fi

if [ ! -e "$DATA/train/DONE" ]; then
  echo "[run_all] 3/5 training (budget $MAX_MINUTES min, log $DATA/train/train.log)"
  "$PY" "$HERE/train.py" --data "$DATA" --max-minutes "$MAX_MINUTES"
else echo "[run_all] 3/5 training: done ($DATA/train/DONE)"; fi

if [ ! -e "$DATA/train/DONE" ]; then
  echo "[run_all] training stopped before its budget; rerun to resume"; exit 1
fi

if need "$DATA/model-hf/model.safetensors" || [ "$DATA/train/DONE" -nt "$DATA/model-hf/model.safetensors" ]; then
  echo "[run_all] 4/5 export"
  "$PY" "$HERE/export.py" --data "$DATA"
else echo "[run_all] 4/5 export: done ($DATA/model-hf)"; fi

if need "$DATA/eval/results.json" || [ "$DATA/model-hf/model.safetensors" -nt "$DATA/eval/results.json" ]; then
  echo "[run_all] 5/5 evaluate"
  "$PY" "$HERE/evaluate.py" --data "$DATA"
else echo "[run_all] 5/5 evaluate: done ($DATA/eval/results.json)"; fi
echo "[run_all] all steps done"
