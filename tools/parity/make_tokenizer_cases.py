#!/usr/bin/env python3
"""Writes tests/data/parity/<model>/tokenizer_cases.json: MarianTokenizer's input ids for
texts that exercise the tokenizer's corners (special tokens written in the text,
language codes, whitespace, unknown characters, invalid-looking input), so that the
C++ tokenizer is checked against transformers itself.

Usage: python3 tools/parity/make_tokenizer_cases.py [--root tests/data/parity]
"""
import argparse
import json
import pathlib
import warnings

warnings.filterwarnings("ignore")
from transformers import MarianTokenizer  # noqa: E402

CASES = [
    "Hello </s> world",
    "Hello</s>world",
    "</s>",
    "a <unk> b",
    "x <pad> y",
    "<pad><pad>",
    "  spaced   out  ",
    "Tab\there",
    "line\nbreak",
    ">>deu<< Hallo",
    " >>deu<< Hallo",
    ">>xx<<",
    ">>deu<<",
    "Zürich, Köln & Düsseldorf — 12,5 % (ca.)",
    "emoji 🙂 and CJK 漢字",
    "e\u0301 combining and ﬁ ligature",
    "ALL CAPS TEXT",
    "1234567890",
    "...",
    "a" * 300,
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default="tests/data/parity")
    args = ap.parse_args()
    for d in sorted(pathlib.Path(args.root).iterdir()):
        if not (d / "reference.json").exists():
            continue
        tok = MarianTokenizer.from_pretrained(str(d))
        cases = [{"text": t, "ids": tok(t).input_ids} for t in CASES]
        (d / "tokenizer_cases.json").write_text(json.dumps(cases, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        print(d.name, len(cases))


if __name__ == "__main__":
    main()
