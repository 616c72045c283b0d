#!/usr/bin/env bash
# Go on training the bundled models on this machine's CPU, in the background, across
# sessions: both directions at once, one process and one thread each (on 2 cores that is
# 1.4x the tokens/s of one process with two threads), bfloat16 autocast on CPUs that
# have it (train.py --cpu-bf16; 1.6x on Zen 5), on a mix that keeps the sources the
# models have seen least whole (mix_corpus.py). Stop it before CI runs: it needs the cores.
#
#   bash tools/train/cpu_continue.sh start [MINUTES]   # from models/*.emt, or resume the checkpoints
#   bash tools/train/cpu_continue.sh status
#   bash tools/train/cpu_continue.sh stop               # SIGTERM: each saves its checkpoint
#   bash tools/train/cpu_continue.sh export             # DIR/model-<dir>: MarianMT, for ship.sh
#   AVERAGE=0.5 bash tools/train/cpu_continue.sh export # the same, of the trained weights averaged
#                                                       # with the initial ones (average.py), half and half
#
# DATA (default /work/edgemt-data) holds the full corpus build (tools/data/build_corpus.py);
# DIR (default /work/ft) the mix, the initial weights, the runs. PYTHON: an interpreter
# with torch and transformers (default /work/venv/bin/python3, else python3).
# MIX_KEEP / MIX_REST / MIX_SEED: mix_corpus.py --keep / --rest / --seed (a new seed, or
# new MIX_* values, rebuild the mix: another run then sees another share of the rest).
# EXTRA_PLAIN: genuine pairs outside the build, files in mix_corpus.py --extra-plain's format,
# space-separated, taken whole and untagged by both directions (tools/data/ding_extra.py's
# DATA/extra/ding.tsv: the dictionary entries the build samples away).
# TRAIN_ARGS: train.py's.
# Each direction trains on its own mix, DIR/data-<dir>: the same corpus pairs, plus the
# back-translated pairs of that direction where DATA/bt/<dir>.tsv exists
# (tools/data/fortune_bt.py; BT_SHARE: the share of them taken, default all), their
# synthetic source side tagged with BT_TAG (default "䷀", a character outside the
# vocabulary: the pieces "▁" and <unk>; BT_TAG= leaves them untagged).
# The checkpoints (DIR/train-<dir>/ckpt/last.pt) resume where they stopped; they do not
# outlive the machine, models/*.emt do (a new machine starts from those again).
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DATA=${DATA:-/work/edgemt-data}
DIR=${DIR:-/work/ft}
PY=${PYTHON:-$( [ -x /work/venv/bin/python3 ] && echo /work/venv/bin/python3 || echo python3)}
DIRS="en-de de-en"
MIX_KEEP=${MIX_KEEP:-help,man,ding-sent,doc,ddtp}
MIX_REST=${MIX_REST:-0.3}
MIX_SEED=${MIX_SEED:-1}
TRAIN_ARGS=${TRAIN_ARGS:-"--d-model 384 --heads 6 --ffn 1536 --enc-layers 6 --dec-layers 2 --dropout 0.1 \
  --max-tokens 6000 --lr 2e-4 --warmup 200 --eval-minutes 35 --ckpt-minutes 15 --log-every 50"}
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1

running() { pgrep -f "train.py --data $DIR/data-$1 --out $DIR/train-$1 " > /dev/null; }

bf16_flag() {  # --cpu-bf16 where the CPU multiplies bfloat16 natively
  grep -q -E 'avx512_bf16|amx_bf16' /proc/cpuinfo 2>/dev/null && echo --cpu-bf16
  grep -q -E '^Features.*bf16' /proc/cpuinfo 2>/dev/null && echo --cpu-bf16
}

case "${1:-}" in
start)
  minutes=${2:-120}
  [ -s "$DATA/corpus/train.en" ] || { echo "no corpus in $DATA/corpus: python3 tools/data/build_corpus.py" >&2; exit 1; }
  mkdir -p "$DIR"
  for d in $DIRS; do
    if [ ! -e "$DIR/init-$d.safetensors" ]; then
      "$PY" "$HERE/from_emt.py" --model "$ROOT/models/edgemt-$d.emt" --weights "$DIR/init-$d.safetensors" \
        --spm "$DIR/spm-$d" || exit 1
    fi
  done
  cmp -s "$DIR/spm-en-de/source.spm" "$DIR/spm-de-en/source.spm" || { echo "the models' vocabularies differ" >&2; exit 1; }
  for d in $DIRS; do
    mix=$DIR/data-$d/corpus/train.en bt=$DATA/bt/$d.tsv extra=()
    [ -s "$bt" ] && extra=(--extra "$bt" --extra-share "${BT_SHARE:-1}")
    [ -s "$bt" ] && [ -n "${BT_TAG-䷀}" ] && extra+=(--extra-tag "${BT_TAG-䷀}" --extra-tag-side "${d%-*}")
    plain=()
    for p in ${EXTRA_PLAIN:-}; do
      [ -s "$p" ] || { echo "EXTRA_PLAIN: $p is missing or empty" >&2; exit 1; }
      plain+=(--extra-plain "$(cd "$(dirname "$p")" && pwd)/$(basename "$p")")
    done
    want=$("$PY" -c 'import json, sys; print(json.dumps([sorted(sys.argv[1].split(",")), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]]))' \
      "$MIX_KEEP" "$MIX_REST" "$MIX_SEED" "${plain[@]}") || { echo "bad MIX_KEEP / MIX_REST / MIX_SEED" >&2; exit 1; }
    have=$("$PY" -c 'import json, sys; m = json.load(open(sys.argv[1])); print(json.dumps([sorted(m["keep"]), float(m["rest"]), int(m["seed"]), [a for p in m.get("extra_plain", []) for a in ("--extra-plain", p)]]))' \
      "$DIR/data-$d/corpus/mix.json" 2>/dev/null)
    if [ ! -s "$mix" ] || [ "$want" != "$have" ] || [ "$DATA/corpus/train.en" -nt "$mix" ] ||
      { [ -s "$bt" ] && [ "$bt" -nt "$mix" ]; }; then
      "$PY" "$HERE/mix_corpus.py" --data "$DATA" --out "$DIR/data-$d" --spm "$DIR/spm-en-de" \
        --keep "$MIX_KEEP" --rest "$MIX_REST" --seed "$MIX_SEED" "${extra[@]}" "${plain[@]}" || exit 1
    fi
  done
  flag=$(bf16_flag | head -n 1)
  for d in $DIRS; do
    s=${d%-*}; t=${d#*-}
    if running "$d"; then echo "[$d] already running"; continue; fi
    rm -f "$DIR/train-$d/DONE"
    mkdir -p "$DIR/train-$d"
    # shellcheck disable=SC2086
    setsid nohup "$PY" "$HERE/train.py" --data "$DIR/data-$d" --out "$DIR/train-$d" --device cpu --threads 1 \
      --src-lang "$s" --tgt-lang "$t" --max-minutes "$minutes" $TRAIN_ARGS $flag \
      --init "$DIR/init-$d.safetensors" >> "$DIR/train-$d/job.out" 2>&1 < /dev/null &
    echo "[$d] started (log: $DIR/train-$d/train.log)"
  done
  ;;
status)
  for d in $DIRS; do
    l=$DIR/train-$d/train.log
    echo "[$d] $(running "$d" && echo running || echo stopped); $(grep ' step ' "$l" 2>/dev/null | tail -n 1 | cut -c21-)"
    grep 'EVAL' "$l" 2>/dev/null | tail -n 3 | cut -c21-
  done
  ;;
stop)
  pkill -TERM -f "train.py --data $DIR/data-.* --out $DIR/train-" || echo "nothing running"
  for _ in $(seq 60); do
    running en-de || running de-en || break
    sleep 1
  done
  for d in $DIRS; do tail -n 2 "$DIR/train-$d/train.log" 2>/dev/null; done
  ;;
export)
  for d in $DIRS; do
    s=${d%-*}; t=${d#*-}
    if running "$d"; then echo "[$d] still running: stop it first" >&2; exit 1; fi
    ckpt=$DIR/train-$d/ckpt/last.pt
    if [ -n "${AVERAGE:-}" ]; then  # the trained weights' share; the rest is the initial weights'
      rest=$("$PY" -c "import sys; a = float(sys.argv[1]); assert 0 < a <= 1; print(1 - a)" "$AVERAGE" 2>/dev/null) ||
        { echo "AVERAGE must be a share in (0, 1]" >&2; exit 1; }
      "$PY" "$HERE/average.py" --out "$DIR/avg-$d.pt" --weights "$AVERAGE,$rest" "$ckpt" "$DIR/init-$d.safetensors" || exit 1
      ckpt=$DIR/avg-$d.pt
    fi
    "$PY" "$HERE/export.py" --data "$DIR/data-$d" --ckpt "$ckpt" --spm-dir "$DIR/spm-$d" \
      --out "$DIR/model-$d" --src-lang "$s" --tgt-lang "$t" || exit 1
  done
  ;;
*)
  echo "usage: cpu_continue.sh start [MINUTES] | status | stop | export" >&2; exit 2
  ;;
esac
