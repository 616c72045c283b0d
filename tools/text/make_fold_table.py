#!/usr/bin/env python3
"""Prints the table of runtime/text/protected_spans.cc's ascii_fold: each Latin letter of
U+00C0-U+024F with an ASCII spelling, as {code point, "ASCII"}. The spelling is the
letter's canonical decomposition (unicodedata NFD) without its combining marks where
that leaves ASCII letters ("ç" -> "c", "ő" -> "o"), else the usual transcription of
the letters NFD leaves alone ("æ" -> "ae", "ł" -> "l", "ß" -> "ss", "þ" -> "th").

  python3 tools/text/make_fold_table.py > /tmp/table.inc
"""
import unicodedata

SPECIAL = {
    "Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe", "ß": "ss", "Đ": "D", "đ": "d",
    "Ł": "L", "ł": "l", "Þ": "TH", "þ": "th", "Ð": "D", "ð": "d", "Ħ": "H", "ħ": "h", "ı": "i",
    "Ĳ": "IJ", "ĳ": "ij", "Ŋ": "N", "ŋ": "n", "ſ": "s", "Ŧ": "T", "ŧ": "t", "Ŀ": "L", "ŀ": "l",
    "ƒ": "f", "Ɨ": "I", "ƚ": "l", "Ƶ": "Z", "ƶ": "z", "Ɇ": "E", "ɇ": "e",
}


def fold(ch):
    if ch in SPECIAL:
        return SPECIAL[ch]
    base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
    return base if base.isascii() and base.isalpha() else None


rows = []
for cp in range(0xC0, 0x250):
    ch = chr(cp)
    if not unicodedata.category(ch).startswith("L"):
        continue
    f = fold(ch)
    if f:
        rows.append(f'{{0x{cp:04X}, "{f}"}}')
for i in range(0, len(rows), 6):
    print("    " + ", ".join(rows[i:i + 6]) + ",")
