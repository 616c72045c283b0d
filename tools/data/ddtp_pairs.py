#!/usr/bin/env python3
"""Sentence pairs from Debian's translated package descriptions (DDTP, the Debian
Description Translation Project): the archive's i18n/Translation-de index holds the German
translation of a package's description, and Translation-en the English original, both
keyed by the original's Description-md5. Software descriptions are what users of a
translator on Debian read all day ("Perl module for replicating events to several event
handlers"), so this is the corpus's source for them.

  python3 tools/data/ddtp_pairs.py [--data DATA] [--skip-fetch]

Fetch: `apt-get update` into a private lists folder (DATA/ddtp/lists, the system's
sources, `Acquire::Languages=en,de`), read with `apt-helper cat-file` (any compression).
Alignment of one description (English and German with the same md5):
  * the synopsis (first line) with the synopsis;
  * the long description as blocks: paragraphs (separated by " ." lines) and list items
    ("* ", "- ", "+ ", "o " after the indent, continuation lines joined); when both
    languages have the same sequence of block kinds, block i pairs with block i, then
    sentence by sentence (doc_pairs.block_sentences); otherwise only the synopsis pairs.
Filters: doc_pairs' (length, ratio, non-letters, command lines, German left in English,
exact duplicates). Writes DATA/ddtp/pairs.tsv (ddtp:<package>, en, de) and stats.json.
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import doc_pairs  # noqa: E402

_ITEM = re.compile(r"^\s*([*\-+o\u2022])\s+(.*)$")


def fetch(lists_dir):
    """apt-get update into lists_dir with English and German description indexes."""
    os.makedirs(os.path.join(lists_dir, "partial"), exist_ok=True)
    cmd = ["apt-get", "update", "-o", f"Dir::State::Lists={lists_dir}",
           "-o", "Acquire::Languages=en,de", "-o", "APT::Get::List-Cleanup=false"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        # apt-get update fails when any index fails; the description indexes may still be there
        print(f"warning: apt-get update exited {r.returncode}: {r.stderr.strip()[-300:]}", file=sys.stderr)


def read_index(lists_dir, lang):
    """{md5: (package, text)} from every Translation-<lang> index under lists_dir."""
    out = {}
    paths = sorted(glob.glob(os.path.join(lists_dir, f"*_i18n_Translation-{lang}*")))
    for path in paths:
        text = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path], capture_output=True,
                              check=True).stdout.decode("utf-8", "replace")
        for stanza in text.split("\n\n"):
            pkg = md5 = None
            desc = []
            field = f"Description-{lang}:"
            in_desc = False
            for line in stanza.split("\n"):
                if line.startswith("Package:"):
                    pkg = line.split(":", 1)[1].strip()
                    in_desc = False
                elif line.startswith("Description-md5:"):
                    md5 = line.split(":", 1)[1].strip()
                    in_desc = False
                elif line.startswith(field):
                    desc = [line[len(field):].strip()]
                    in_desc = True
                elif in_desc and line.startswith(" "):
                    desc.append(line[1:])
                else:
                    in_desc = False
            if pkg and md5 and desc and md5 not in out:
                out[md5] = (pkg, desc)
    return out, paths


def blocks(desc):
    """The synopsis and the long description's blocks [(kind, text)] of a description's
    lines (the field's leading space removed)."""
    synopsis = doc_pairs.normalize_ws(desc[0])
    out = []
    cur_kind, cur = None, []

    def close():
        nonlocal cur_kind, cur
        if cur:
            out.append((cur_kind, doc_pairs.normalize_ws(" ".join(cur))))
        cur_kind, cur = None, []

    for line in desc[1:]:
        if line.strip() == ".":
            close()
            continue
        m = _ITEM.match(line)
        if m:
            close()
            cur_kind, cur = "item", [m.group(2)]
        elif cur_kind == "item" and line.startswith(" "):
            cur.append(line.strip())
        else:
            if cur_kind == "item":
                close()
            cur_kind = "para"
            cur.append(line.strip())
    close()
    return synopsis, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--skip-fetch", action="store_true",
                    help="no apt-get update when DATA/ddtp/lists already has both indexes")
    args = ap.parse_args()
    t0 = time.time()
    base = os.path.join(args.data, "ddtp")
    lists_dir = os.path.join(base, "lists")
    have = all(glob.glob(os.path.join(lists_dir, f"*_i18n_Translation-{l}*")) for l in ("en", "de"))
    if not (args.skip_fetch and have):
        fetch(lists_dir)
    en_index, en_paths = read_index(lists_dir, "en")
    de_index, de_paths = read_index(lists_dir, "de")
    if not en_paths or not de_paths:
        sys.exit(f"no Translation-en/-de index under {lists_dir} (apt-get update failed?)")

    c = collections.Counter()
    per_label = collections.Counter()
    seen = set()
    rows = []
    for md5 in sorted(de_index):
        pkg, de_desc = de_index[md5]
        if md5 not in en_index:
            c["desc_no_english"] += 1
            continue
        c["descriptions"] += 1
        en_syn, en_blocks = blocks(en_index[md5][1])
        de_syn, de_blocks = blocks(de_desc)
        label = "ddtp:" + pkg
        doc_pairs.keep_pair(label, en_syn, de_syn, c, seen, rows, per_label)
        if [k for k, _ in en_blocks] != [k for k, _ in de_blocks]:
            c["desc_shape_differs"] += 1
            continue
        c["desc_aligned"] += 1
        for (_, te), (_, td) in zip(en_blocks, de_blocks):
            for e, d in doc_pairs.block_sentences(te, td, c):
                doc_pairs.keep_pair(label, e, d, c, seen, rows, per_label)

    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "pairs.tsv"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")
    stats = {"pairs": len(rows), "packages": len(per_label), "indexes": en_paths + de_paths,
             "counters": dict(c), "seconds": round(time.time() - t0, 1)}
    with open(os.path.join(base, "stats.json"), "w", encoding="utf-8") as f:
        json.dump(stats, f, indent=1, ensure_ascii=False, sort_keys=True)
    print(json.dumps({k: stats[k] for k in ("pairs", "packages", "counters", "seconds")}, indent=1))


if __name__ == "__main__":
    main()
