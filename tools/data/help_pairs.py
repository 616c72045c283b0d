#!/usr/bin/env python3
"""Extract English-German sentence pairs from the help of desktop applications that
Debian (bookworm) ships in both languages, translated element by element (so the two
languages' pages have the same structure):

  * help:libreoffice  LibreOffice's help (libreoffice-help-en-us, libreoffice-help-de):
    HTML pages under the same path in both languages whose paragraphs and headings
    carry the same ids (`par_id3150008`), paired by id. Of an inline switch between
    platforms or applications (`<span class="switchinline">`: "LibreOffice -
    Preferences" on macOS, "Tools - Options" elsewhere) the default case is kept; a
    paragraph whose switch has no default case is dropped.
  * help:gnome        GNOME's desktop and administrator help (gnome-user-docs): Mallard
    pages (`help/C/<doc>/<page>.page`, `help/de/<doc>/<page>.page`, translated with
    itstool); their text blocks (title, subtitle, desc, p, td/th text) in document order,
    paired by position when both pages have the same sequence of block kinds, else within
    sections of the same shape (doc_pairs.py). Blocks holding an empty `<link xref/>`
    (filled in with the target's title when shown) are dropped: their text has a hole.
  * help:gimp         GIMP's user manual (gimp-help-en, gimp-help-de): DocBook HTML
    pages of the same name, aligned as doc_pairs.py aligns Debian's manuals.

Paired blocks are split into sentences and filtered as in doc_pairs.py (sentence i with
sentence i when both blocks have as many, else the whole block when both are <= 200
characters; length ratio, letters, command-like sides, German left in English, exact
duplicates).

Output: DATA/help/pairs.tsv (`help:<source>\\ten\\tde`), DATA/help/stats.json.
Usage: python3 tools/data/help_pairs.py [--data /work/edgemt-data] [--skip-fetch]
"""
import argparse
import collections
import glob
import html.parser
import json
import os
import sys
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import doc_pairs  # noqa: E402
from doc_pairs import normalize_ws  # noqa: E402

PACKAGES = {
    "libreoffice": ("libreoffice-help-en-us", "libreoffice-help-de"),
    "gnome": ("gnome-user-docs", "gnome-user-docs"),
    "gimp": ("gimp-help-en", "gimp-help-de"),
}

# ---------------------------------------------------------------- LibreOffice

LO_BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "li", "dt", "dd"}


class LibreOfficeParser(html.parser.HTMLParser):
    """id -> text of the page's paragraphs and headings that carry an id (the translation
    unit ids of LibreOffice's help sources), and the ids of those to leave out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.units = {}
        self.bad = set()
        self.stack = []   # (tag, kind): kind "unit" (the open unit), "skip", "switch", ""
        self.unit = None  # [id, parts, bad]
        self.skip = 0
        self.switches = []  # per open switchinline: whether its default case was seen

    def handle_starttag(self, tag, attrs):
        if tag in doc_pairs.VOID_TAGS:
            if tag == "br" and self.unit is not None and self.skip == 0:
                self.unit[1].append(" ")
            return
        a = dict(attrs)
        ident = a.get("id") or ""
        cls = set((a.get("class") or "").split())
        kind = ""
        if self.skip > 0 or tag in ("script", "style", "nav", "header", "aside", "button", "pre"):
            kind = "skip"
        elif "switchinline" in cls:
            kind = "switch"
            self.switches.append(False)
        elif "hidden" in a and tag == "span" and self.switches:
            # A case of an inline switch: keep the default one only.
            if ident.startswith("default"):
                self.switches[-1] = True
            else:
                kind = "skip"
        elif tag in LO_BLOCKS and ident and self.unit is None:
            self.unit = [ident, [], False]
            kind = "unit"
        elif tag in LO_BLOCKS and self.unit is not None:
            self.unit[1].append(" ")  # a block inside a unit: its text apart
        if kind == "skip":
            self.skip += 1
        self.stack.append((tag, kind))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in doc_pairs.VOID_TAGS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in doc_pairs.VOID_TAGS or not any(t == tag for t, _ in self.stack):
            return
        while self.stack:
            t, kind = self.stack.pop()
            if kind == "skip":
                self.skip -= 1
            elif kind == "switch":
                if not self.switches.pop() and self.unit is not None:
                    self.unit[2] = True  # no default case: the text has a hole
            elif kind == "unit":
                ident, parts, bad = self.unit
                self.unit = None
                text = normalize_ws("".join(parts))
                if ident in self.units:
                    bad = True  # ids are not unique on this page: not a key
                if bad:
                    self.bad.add(ident)
                elif text:
                    self.units[ident] = text
            if t == tag:
                break

    def handle_data(self, data):
        if self.unit is not None and self.skip == 0:
            self.unit[1].append(data)


def libreoffice_units(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        p = LibreOfficeParser()
        p.feed(f.read())
        p.close()
    return {k: v for k, v in p.units.items() if k not in p.bad}


def libreoffice_blocks(en_root, de_root, c):
    """Yield (en, de) paragraph pairs of LibreOffice's help."""
    en_files = {os.path.relpath(p, en_root): p
                for p in glob.glob(os.path.join(en_root, "text", "**", "*.html"), recursive=True)}
    de_files = {os.path.relpath(p, de_root): p
                for p in glob.glob(os.path.join(de_root, "text", "**", "*.html"), recursive=True)}
    keys = sorted(set(en_files) & set(de_files))
    c["documents"] += len(keys)
    c["documents_en_only"] += len(set(en_files) - set(de_files))
    for key in keys:
        ue, ud = libreoffice_units(en_files[key]), libreoffice_units(de_files[key])
        c["blocks_en"] += len(ue)
        for ident, te in ue.items():
            td = ud.get(ident)
            if td is None:
                c["blocks_unmatched"] += 1
                continue
            c["blocks_paired"] += 1
            yield te, td


# ---------------------------------------------------------------- GNOME (Mallard)

MAL = "{http://projectmallard.org/1.0/}"
MAL_BLOCKS = {"title", "subtitle", "desc", "p"}
MAL_HEADINGS = {"title"}
# Elements whose text is not prose or not translated as such.
MAL_SKIP = {"credit", "revision", "license", "screen", "code", "media", "synopsis", "comment",
            "keywords"}
MAL_SKIP_BLOCK = {"screen", "code", "synopsis"}  # block-level code: its own text is left out


def mallard_blocks(path):
    """(kind, text) blocks of a Mallard page in document order; a block holding an
    empty link (its text filled in when shown) is kept with text None."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return None
    blocks = []

    def text_of(el):
        hole = False
        parts = [el.text or ""]
        for ch in el:
            name = ch.tag.replace(MAL, "") if isinstance(ch.tag, str) else ""
            if name == "link" and ch.get("xref") is not None and not "".join(ch.itertext()).strip():
                hole = True
            if name in MAL_SKIP_BLOCK or name in MAL_BLOCKS:
                hole = hole or name in MAL_BLOCKS  # a block inside a block: not one unit
            else:
                t, h = text_of(ch)
                parts.append(t)
                hole = hole or h
            parts.append(ch.tail or "")
        return "".join(parts), hole

    def walk(el, in_info):
        for ch in el:
            if not isinstance(ch.tag, str):
                continue
            name = ch.tag.replace(MAL, "")
            if not ch.tag.startswith(MAL) and not ch.tag.startswith("{http://projectmallard.org/"):
                if ch.tag.startswith("{http://www.w3.org/2001/XInclude}"):
                    continue
            if name in MAL_SKIP:
                continue
            if name in MAL_BLOCKS:
                if in_info and name == "title" and ch.get("type") not in (None, "text"):
                    continue  # link/sort titles repeat the page title
                text, hole = text_of(ch)
                blocks.append((name, None if hole else normalize_ws(text)))
                continue
            walk(ch, in_info or name == "info")

    walk(root, False)
    return [(k, t) for k, t in blocks if t != ""]


def gnome_blocks(root, c):
    """Yield (en, de) block pairs of GNOME's Mallard help under usr/share/help."""
    base = os.path.join(root, "usr", "share", "help")
    for en_path in sorted(glob.glob(os.path.join(base, "C", "*", "*.page"))):
        rel = os.path.relpath(en_path, os.path.join(base, "C"))
        de_path = os.path.join(base, "de", rel)
        if not os.path.exists(de_path):
            c["documents_en_only"] += 1
            continue
        be, bd = mallard_blocks(en_path), mallard_blocks(de_path)
        if be is None or bd is None:
            c["documents_unparsed"] += 1
            continue
        c["documents"] += 1
        c["blocks_en"] += len(be)
        if [k for k, _ in be] == [k for k, _ in bd]:
            pairs = list(zip(be, bd))
        else:  # sections of the same shape (doc_pairs.py)
            c["documents_by_section"] += 1
            pairs = []
            se, sd = doc_pairs.sections(be, MAL_HEADINGS), doc_pairs.sections(bd, MAL_HEADINGS)
            sig_e = [doc_pairs.signature(s) for s in se]
            sig_d = [doc_pairs.signature(s) for s in sd]
            import difflib
            sm = difflib.SequenceMatcher(None, sig_e, sig_d, autojunk=False)
            for i, j, n in sm.get_matching_blocks():
                for k in range(n):
                    pairs.extend(zip(se[i + k], sd[j + k]))
        for (_, te), (_, td) in pairs:
            if te is None or td is None:
                c["blocks_with_hole"] += 1
                continue
            c["blocks_paired"] += 1
            yield te, td


# ---------------------------------------------------------------- GIMP (DocBook HTML)

def gimp_blocks(en_root, de_root, c):
    def pages(root, lang):
        d = os.path.join(root, "usr", "share", "gimp", "2.0", "help", lang)
        return {os.path.basename(p): p for p in glob.glob(os.path.join(d, "*.html"))
                if not os.path.islink(p)}
    fe, fd = pages(en_root, "en"), pages(de_root, "de")
    keys = sorted(set(fe) & set(fd))
    c["documents"] += len(keys)
    c["documents_en_only"] += len(set(fe) - set(fd))
    for key in keys:
        yield from doc_pairs.align_document(fe[key], fd[key], c)


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--skip-fetch", action="store_true",
                    help="no download (the cached packages are used as they are)")
    args = ap.parse_args()
    t0 = time.time()
    base = os.path.join(args.data, "help")
    debdir, xdir = os.path.join(base, "debs"), os.path.join(base, "x")
    stats = {"download_failed": []}
    pkgs = {p for pair in PACKAGES.values() for p in pair}
    if not args.skip_fetch:
        doc_pairs.fetch(debdir, xdir, pkgs, stats)

    counters = collections.defaultdict(collections.Counter)
    per_label = collections.Counter()
    seen = set()
    rows = []
    for label, (pen, pde) in PACKAGES.items():
        ren, rde = os.path.join(xdir, pen), os.path.join(xdir, pde)
        if not (os.path.isdir(ren) and os.path.isdir(rde)):
            print(f"warning: {pen}/{pde} missing under {xdir}: no help:{label}", file=sys.stderr)
            continue
        c = counters[label]
        if label == "libreoffice":
            blocks = libreoffice_blocks(os.path.join(ren, "usr/share/libreoffice/help/en-US"),
                                        os.path.join(rde, "usr/share/libreoffice/help/de"), c)
        elif label == "gnome":
            blocks = gnome_blocks(ren, c)
        else:
            blocks = gimp_blocks(ren, rde, c)
        for te, td in blocks:
            for e, d in doc_pairs.block_sentences(te, td, c):
                doc_pairs.keep_pair("help:" + label, e, d, c, seen, rows, per_label)

    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "pairs.tsv"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")
    stats.update({"pairs": len(rows), "per_label": dict(per_label),
                  "counters": {k: dict(v) for k, v in counters.items()},
                  "seconds": round(time.time() - t0, 1)})
    with open(os.path.join(base, "stats.json"), "w", encoding="utf-8") as f:
        json.dump(stats, f, indent=1, ensure_ascii=False, sort_keys=True)
    print(json.dumps({"pairs": len(rows), "per_label": dict(per_label), "seconds": stats["seconds"]},
                     indent=1))


if __name__ == "__main__":
    main()
