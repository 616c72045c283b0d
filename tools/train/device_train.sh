#!/usr/bin/env bash
# Train English->German and German->English at once on a lent GPU machine (the workplace's
# `device` tool), each in its own background process on the one GPU, then export (float16
# safetensors, which edgemt-convert reads), score with transformers on the test split, and
# pack each direction into parts of at most 15 MiB for the trip back through $OUT.
#
# Here, before the first call (the data travels in the working tree, ignored by git):
#   bash tools/train/prepare_data.sh   # on a fresh machine: packages, venv, corpus, back-translations, the archive (~40 min)
# or by hand, when DATA has it all:
#   mkdir -p .train-data && echo /.train-data/ >> .git/info/exclude
#   tar -C /work/edgemt-data -cf - corpus/{train,dev,test}.{en,de,src} | xz -9e > .train-data/data.tar.xz  # 22.5 MB (838,615 pairs, 2026-11-28; 24.5 MB at xz's default -6)
# Back-translations (tools/data/fortune_bt.py's bt/<dir>.tsv, about 1.4 MB more) go in the
# same archive: add bt/en-de.tsv bt/de-en.tsv to the tar line. A direction whose bt/<dir>.tsv
# is there trains on the whole corpus plus those pairs, the synthetic source tagged as
# cpu_continue.sh does (mix_corpus.py --extra; BT_SHARE, BT_TAG: the same meaning).
# Then, one call after another (the machine stays warm for only 30 s between calls; the
# background jobs live as long as it does):
#   run(carry=[".train-data"], "bash tools/train/device_train.sh start 16 540")  # train 16 min, watch 540 s
#   run(carry=[".train-data"], "bash tools/train/device_train.sh watch 560")
#   run(carry=[".train-data"], "bash tools/train/device_train.sh collect en-de 300")
#   run(carry=[".train-data"], "bash tools/train/device_train.sh collect de-en 120")
# and here: cat en-de.tar.part-* | tar -x  (gives model-en-de/, eval-en-de/, train-en-de/...).
# Hyper-parameters: TRAIN_ARGS overrides the defaults below. EVAL_BEAMS (default 1,4): the
# beam sizes transformers scores the test split with there (1 alone saves about a minute).
# With only 15 minutes of device time, one call can train and bring back English->German,
# the next German->English (at most 64 MiB come back per call, and each direction's float16
# weights are 37 MB):
#   run(carry=[".train-data"], "FROM_MODELS=1 EVAL_BEAMS=1 bash tools/train/device_train.sh start 7 560; bash tools/train/device_train.sh collect en-de 30")
#   run(carry=[".train-data"], "bash tools/train/device_train.sh collect de-en 120")
# The working tree that travels is limited to 64 MiB (67.1 MB): the checkout (59 MB, 40 MB
# of it models/) plus the archive (23.5 MB; 25.0 MB with the story games and the WordNet
# back-translations, 2026-11-27) is over it, while tools/ (0.4 MB), models/ and the
# archive are 65.8 MB (prepare_data.sh packs at xz -9e and checks that sum). For those calls
# only, send tools/ and
# models/ alone, then put the index back (the files on disk are never touched):
#   cp .git/info/exclude /tmp/exclude.bak; printf '/*\n!/tools/\n!/models/\n' >> .git/info/exclude
#   git rm -r -q --cached .     # ... the run() calls ...
#   git reset -q; cp /tmp/exclude.bak .git/info/exclude
#
# Going on from the shipped models (FROM_MODELS=1; their training checkpoints do not
# outlive a session, models/*.emt do): each direction starts from models/edgemt-<dir>.emt
# (tools/train/from_emt.py reads its weights on the GPU machine; train.py --init), at a
# lower learning rate after a short warmup (CONTINUE_ARGS), with the models' own
# vocabulary (written over data.tar.xz's spm/, which then need not be packed):
#   run(carry=[".train-data"], "FROM_MODELS=1 bash tools/train/device_train.sh start 10 500")
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
W=${WORK:-/tmp/emt}
PY=${PYTHON:-python3}
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
DIRS="en-de de-en"
TRAIN_ARGS=${TRAIN_ARGS:-"--d-model 384 --heads 6 --ffn 1536 --enc-layers 6 --dec-layers 2 --dropout 0.1 \
  --max-tokens 24000 --lr 7e-4 --warmup 2000 --eval-minutes 3 --bleu-sents 1500 --ckpt-minutes 100 --log-every 200 --threads 4"}
CONTINUE_ARGS=${CONTINUE_ARGS:-"--lr 3e-4 --warmup 300"}
ROOT="$(cd "$HERE/../.." && pwd)"

status() {
  local d
  for d in $DIRS; do
    local l=$W/train-$d/train.log
    echo "[$d] $(grep -c EVAL "$l" 2>/dev/null) evals; $(grep '^.\{20\}step ' "$l" 2>/dev/null | tail -1 | cut -c21-)"
    grep 'EVAL' "$l" 2>/dev/null | tail -1 | cut -c21-
    [ -e "$W/train-$d/READY" ] && echo "[$d] READY"
  done
}

watch() {  # watch until all directions are READY or $1 seconds have passed
  local d end=$(( $(date +%s) + $1 ))
  while [ "$(date +%s)" -lt "$end" ]; do
    local ready=1
    for d in $DIRS; do [ -e "$W/train-$d/READY" ] || ready=0; done
    [ $ready = 1 ] && break
    local alive=0
    for d in $DIRS; do pgrep -f "device_train.sh job $d" > /dev/null && alive=1; done
    [ $alive = 0 ] && { echo "no job is running"; break; }
    sleep 30
    echo "--- $(date +%T)"; status
  done
  for d in $DIRS; do echo "=== $d job.out"; tail -n 15 "$W/train-$d/job.out"; done
  nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv
}

case "${1:-}" in
start)
  minutes=${2:-16}
  mkdir -p "$W" && tar -C "$W" -xJf .train-data/data.tar.xz || exit 1
  nvidia-smi -L
  "$PY" -c "import torch, transformers, sentencepiece, sacrebleu; print('torch', torch.__version__, 'transformers', transformers.__version__)" || exit 1
  wc -l "$W"/corpus/train.en
  if [ "${FROM_MODELS:-0}" = 1 ]; then  # the models' vocabulary (both directions share it)
    for d in $DIRS; do
      "$PY" "$HERE/from_emt.py" --model "$ROOT/models/edgemt-$d.emt" --spm "$W/spm-$d" || exit 1
    done
    cmp -s "$W/spm-en-de/source.spm" "$W/spm-de-en/source.spm" || { echo "the models' vocabularies differ"; exit 1; }
    rm -rf "$W/spm" && cp -r "$W/spm-en-de" "$W/spm"
  fi
  for d in $DIRS; do
    mkdir -p "$W/train-$d"
    setsid nohup bash "$HERE/device_train.sh" job "$d" "$minutes" > "$W/train-$d/job.out" 2>&1 < /dev/null &
  done
  watch "${3:-540}"
  ;;
job)
  d=$2; s=${d%-*}; t=${d#*-}
  init=()
  if [ "${FROM_MODELS:-0}" = 1 ]; then
    "$PY" "$HERE/from_emt.py" --model "$ROOT/models/edgemt-$d.emt" --weights "$W/init-$d.safetensors" || exit 1
    # shellcheck disable=SC2206
    init=(--init "$W/init-$d.safetensors" $CONTINUE_ARGS)  # later arguments win
  fi
  data=$W bt=$W/bt/$d.tsv
  if [ -s "$bt" ]; then  # this direction's own training set: every corpus pair, plus the tagged back-translations
    extra=(--extra "$bt" --extra-share "${BT_SHARE:-1}")
    [ -n "${BT_TAG-䷀}" ] && extra+=(--extra-tag "${BT_TAG-䷀}" --extra-tag-side "$s")
    data=$W/data-$d
    "$PY" "$HERE/mix_corpus.py" --data "$W" --out "$data" --spm "$W/spm" --keep "" --rest 1 "${extra[@]}" || exit 1
  fi
  # shellcheck disable=SC2086
  "$PY" "$HERE/train.py" --data "$data" --out "$W/train-$d" --src-lang "$s" --tgt-lang "$t" --device cuda \
    --max-minutes "$3" $TRAIN_ARGS "${init[@]}" || exit 1
  "$PY" "$HERE/export.py" --data "$W" --ckpt "$W/train-$d/ckpt/last.pt" --out "$W/model-$d" \
    --src-lang "$s" --tgt-lang "$t" --float16 || exit 1
  "$PY" "$HERE/evaluate.py" --data "$W" --model "$W/model-$d" --out "$W/eval-$d" --src-lang "$s" --tgt-lang "$t" \
    --device cuda --batch-size 128 --beams "${EVAL_BEAMS:-1,4}" || exit 1
  mkdir -p "$W/pack"
  (cd "$W" && tar -c "model-$d" "eval-$d" "train-$d/train.log" "train-$d/DONE" "train-$d/job.out" \
     | split -b 15M - "pack/$d.tar.part-")
  touch "$W/train-$d/READY"
  ;;
watch)
  watch "${2:-560}"
  ;;
collect)
  d=$2; end=$(( $(date +%s) + ${3:-300} ))
  until [ -e "$W/train-$d/READY" ] || [ "$(date +%s)" -ge "$end" ]; do sleep 10; done
  status
  tail -n 30 "$W/train-$d/job.out"
  cp "$W"/pack/"$d".tar.part-* "$OUT"/ && ls -la "$OUT"
  ;;
*)
  echo "usage: device_train.sh start MINUTES WATCH_S | watch S | collect DIR WAIT_S" >&2; exit 2
  ;;
esac
