#!/usr/bin/env bash
# Everything that training the bundled models further needs, made on a fresh machine in
# one command: about 40 minutes on 2 cores from nothing (49 with CI
# running beside it, 2026-11-27, Zen 4), seconds when it is all there
# (each step is skipped when its output exists). Then train here (cpu_continue.sh) or on a
# lent GPU (device_train.sh with FROM_MODELS=1, whose data this packs).
#
#   bash tools/train/prepare_data.sh            # steps 1-5
#   bash tools/train/prepare_data.sh --no-pack  # steps 1-4 (training on the CPU only)
#
#   1. Debian packages: trans-de-en (the ding dictionary), fortunes-de, fortunes,
#      fortunes-min, wordnet-base (everyday sentences for back-translation)
#   2. a virtual environment with tools/requirements.txt at VENV (default /work/venv),
#      unless PYTHON names an interpreter to use instead
#   3. the corpus build, DATA/corpus (default DATA=/work/edgemt-data;
#      tools/data/build_corpus.py, ~22 min)
#   4. the back-translations DATA/bt/{en-de,de-en}.tsv (tools/data/fortune_bt.py with the
#      bundled models through build/release's translate, which scripts/quickstart builds
#      when it is missing; ~14 min)
#   5. .train-data/data.tar.xz for the GPU machine: the corpus splits and the
#      back-translations (~24 MB at xz -9e, ~3 min; the vocabulary comes from models/*.emt
#      there), and
#      .train-data/ in .git/info/exclude
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DATA=${DATA:-/work/edgemt-data}
VENV=${VENV:-/work/venv}
pack=1
for a in "$@"; do
  case "$a" in
    --no-pack) pack=0 ;;
    *) echo "usage: prepare_data.sh [--no-pack]" >&2; exit 2 ;;
  esac
done
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
step() { printf '[prepare_data] %s\n' "$*"; }

missing=()
[ -e /usr/share/trans/de-en ] || missing+=(trans-de-en)
[ -d /usr/share/games/fortunes/de ] || missing+=(fortunes-de)
[ -e /usr/share/games/fortunes/wisdom ] || missing+=(fortunes)
[ -e /usr/share/games/fortunes/fortunes ] || missing+=(fortunes-min)
[ -e /usr/share/wordnet/data.noun ] || missing+=(wordnet-base)
if [ ${#missing[@]} -gt 0 ]; then
  step "1/5 installing ${missing[*]}"
  $sudo apt-get install -y -q "${missing[@]}" >/dev/null
else step "1/5 Debian packages: there"; fi

if [ -n "${PYTHON:-}" ]; then
  PY=$PYTHON
  step "2/5 Python: $PY (PYTHON)"
elif [ -x "$VENV/bin/python3" ] && "$VENV/bin/python3" -c "import torch, transformers, sentencepiece, opusfilter" 2>/dev/null; then
  PY=$VENV/bin/python3
  step "2/5 Python: $PY"
else
  step "2/5 virtual environment $VENV (tools/requirements.txt)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r "$ROOT/tools/requirements.txt"
  PY=$VENV/bin/python3
fi

if [ ! -s "$DATA/corpus/stats.json" ] || [ ! -s "$DATA/corpus/train.en" ]; then
  step "3/5 corpus build into $DATA (log $DATA/build_corpus.log)"
  mkdir -p "$DATA"
  "$PY" "$ROOT/tools/data/build_corpus.py" --data "$DATA" > "$DATA/build_corpus.log" 2>&1 \
    || { tail -n 20 "$DATA/build_corpus.log"; exit 1; }
  echo "$(wc -l < "$DATA/corpus/train.en") training pairs"
else step "3/5 corpus: there ($(wc -l < "$DATA/corpus/train.en") training pairs)"; fi

if [ ! -s "$DATA/bt/en-de.tsv" ] || [ ! -s "$DATA/bt/de-en.tsv" ]; then
  translate=$ROOT/build/release/runtime/translate
  if [ ! -x "$translate" ]; then
    step "4/5 building translate (scripts/quickstart)"
    "$ROOT/scripts/quickstart" "Hello." > "$DATA/quickstart.log" 2>&1 || { tail -n 20 "$DATA/quickstart.log"; exit 1; }
  fi
  step "4/5 back-translating the fortunes (log $DATA/fortune_bt.log)"
  (cd "$ROOT" && "$PY" tools/data/fortune_bt.py --data "$DATA" --translate "$translate") > "$DATA/fortune_bt.log" 2>&1 \
    || { tail -n 20 "$DATA/fortune_bt.log"; exit 1; }
  tail -n 2 "$DATA/fortune_bt.log"
else step "4/5 back-translations: there ($(wc -l < "$DATA/bt/en-de.tsv") en-de, $(wc -l < "$DATA/bt/de-en.tsv") de-en)"; fi

[ "$pack" = 1 ] || exit 0
out=$ROOT/.train-data/data.tar.xz
mkdir -p "$ROOT/.train-data"
exclude=$(git -C "$ROOT" rev-parse --git-path info/exclude)
grep -qx '/.train-data/' "$exclude" 2>/dev/null || echo /.train-data/ >> "$exclude"
step "5/5 packing $out"
# xz -9e (one block, a 64 MiB dictionary): 22.5 MB for the corpus of 2026-11-28 where xz's
# default (-6) makes 24.5 MB, which with models/ and the back-translations would not travel.
tar -C "$DATA" -cf - corpus/{train,dev,test}.{en,de,src} bt/en-de.tsv bt/de-en.tsv | xz -9e > "$out.tmp"
mv "$out.tmp" "$out"
size=$(stat -c %s "$out")
# What travels to the GPU machine (device_train.sh's header): tools/, models/ and this archive,
# at most 64 MiB together.
payload=$(( size + $(du -sb "$ROOT/tools" "$ROOT/models" | awk '{s += $1} END {print s}') ))
echo "$out: $((size / 1000000)) MB; with tools/ and models/: $((payload / 1000000)) MB of 67.1 (64 MiB)"
if [ "$payload" -gt $((64 * 1024 * 1024)) ]; then
  echo "prepare_data: tools/, models/ and $out are over 64 MiB together: they would not travel" >&2
  exit 1
fi
