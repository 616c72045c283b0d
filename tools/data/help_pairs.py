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
  * help:kde          KDE's handbooks, DocBook XML that the applications' own packages ship
    (usr/share/doc/HTML/{en,de}/<app>/index.docbook, in build_corpus.py's package cache
    DATA/debs, indexed once into DATA/help/kde/index.json): entities expanded with
    kdoctools5's definitions for each language (&Ctrl; is "Strg" in German) and the
    document's own (chapters included through SYSTEM entities), a block with an unknown
    entity left out; title, para, simpara, term and entry blocks (book info, screens,
    program listings left out; menu paths as "File → Save", key combinations as
    "Ctrl+S"), aligned within sections of the same shape.

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
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
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
    # KDE's handbooks ship in the applications' own packages (the gettext cache, DATA/debs);
    # kdoctools5 holds the entities they use (&dolphin;, &Ctrl; = Strg in German).
    "kde": ("kdoctools5", "kdoctools5"),
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
        for te, td in doc_pairs.align_blocks(be, bd, c, MAL_HEADINGS):
            if te is None or td is None:
                c["blocks_with_hole"] += 1
                continue
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


# ---------------------------------------------------------------- KDE (DocBook handbooks)

KDE_HELP = re.compile(r"^\./usr/share/doc/HTML/(en|de)/(.+\.docbook)$")
_ENTITY_DECL = re.compile(r"<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(?:\"([^\"]*)\"|'([^']*)'|SYSTEM\s+\"([^\"]*)\")\s*>", re.S)
_ENTITY_REF = re.compile(r"&([A-Za-z_][\w.-]*);")
XML_ENTITIES = {"lt", "gt", "amp", "quot", "apos"}
HOLE = "\x00"


class DocBookParser(doc_pairs.BlockParser):
    block_tags = {"title", "para", "simpara", "term", "entry"}
    skip_tags = {"programlisting", "screen", "synopsis", "cmdsynopsis", "literallayout", "bookinfo",
                 "articleinfo", "info", "indexterm", "remark", "authorgroup", "legalnotice", "revhistory",
                 "keywordset", "releaseinfo", "date", "mediaobject", "screenshot", "inlinemediaobject",
                 "funcsynopsis", "script", "style"}
    skip_classes = set()
    # Inline groups rendered with separators ("File → Save", "Ctrl+S"); a menu item's
    # <shortcut> (rendered after it in parentheses) is left out.
    separated = {"menuchoice": ({"guimenu", "guisubmenu", "guimenuitem"}, " → "),
                 "keycombo": ({"keycap", "keysym", "mousebutton"}, "+")}

    def __init__(self):
        super().__init__()
        self.groups = []  # [member tags, separator, members seen] of the open groups
        self.inline_skip = 0

    def handle_starttag(self, tag, attrs):
        if self.inline_skip or tag == "shortcut":
            self.inline_skip += 1
            return
        if self.groups and tag in self.groups[-1][0]:
            if self.groups[-1][2]:
                self.buf.append(self.groups[-1][1])
            self.groups[-1][2] += 1
        if tag in self.separated:
            self.groups.append([*self.separated[tag], 0])
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if self.inline_skip:
            self.inline_skip -= 1
            return
        if tag in self.separated and self.groups:
            self.groups.pop()
        super().handle_endtag(tag)

    def handle_data(self, data):
        if not self.inline_skip:
            super().handle_data(data)


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def entity_table(text, base_dir):
    """name -> replacement text of the <!ENTITY> declarations in `text`; a SYSTEM entity is
    the file it names under base_dir (None when it is missing)."""
    out = {}
    for m in _ENTITY_DECL.finditer(text):
        name, dq, sq, system = m.groups()
        if system is not None:
            f = os.path.join(base_dir, system)
            out[name] = read_text(f) if os.path.isfile(f) else None
        else:
            out[name] = dq if dq is not None else sq
    return out


def kde_entities(kdoctools, lang):
    """The entities kdoctools defines for a language's handbooks."""
    c = os.path.join(kdoctools, "usr", "share", "kf5", "kdoctools", "customization")
    table = {}
    for f in ("entities/general.entities", "entities/contributor.entities", "entities/l10n.entities",
              f"{lang}/user.entities", f"{lang}/strings.entities", f"{lang}/lang.entities"):
        path = os.path.join(c, f)
        if os.path.isfile(path):
            table.update(entity_table(read_text(path), os.path.dirname(path)))
    return table


def expand_entities(text, table, depth=0):
    """Entity references replaced by their text, recursively; an unknown one by HOLE."""
    def rep(m):
        name = m.group(1)
        if name in XML_ENTITIES:
            return m.group(0)
        value = table.get(name)
        if value is None or depth > 6:
            return HOLE
        return expand_entities(value, table, depth + 1)
    return _ENTITY_REF.sub(rep, text)


def docbook_blocks(path, entities):
    """(kind, text) blocks of a KDE handbook file (chapters included through its
    document's SYSTEM entities); blocks with an unknown entity left out."""
    text = read_text(path)
    table = dict(entities)
    m = re.search(r"<!DOCTYPE[^\[>]*\[(.*?)\]\s*>", text, re.S)
    if m:
        table.update(entity_table(m.group(1), os.path.dirname(path)))
        text = text[:m.start()] + text[m.end():]
    p = DocBookParser()
    p.feed(expand_entities(text, table))
    p.close()
    p._flush()
    return [(k, t) for k, t in p.blocks if HOLE not in t]


def kde_index(debdir, cache_path):
    """deb file name -> [(lang, relative path)] of the KDE handbook files it ships, for the
    cached packages of DATA/debs (listed once, then cached)."""
    index = {}
    if os.path.exists(cache_path):
        with open(cache_path, encoding="utf-8") as f:
            index = json.load(f)
    changed = False
    for deb in sorted(glob.glob(os.path.join(debdir, "*.deb"))):
        name = os.path.basename(deb)
        if name in index:
            continue
        r = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], capture_output=True)
        members = []
        if r.returncode == 0:
            with tarfile.open(fileobj=io.BytesIO(r.stdout)) as tf:
                for m in tf.getmembers():
                    mm = KDE_HELP.match(m.name if m.name.startswith("./") else "./" + m.name)
                    if mm and m.isfile():
                        members.append(mm.groups())
        index[name] = members
        changed = True
    if changed:
        with open(cache_path, "w", encoding="utf-8") as f:
            json.dump(index, f)
    return index


def kde_blocks(kdoctools, debdir, workdir, c):
    """Yield (en, de) block pairs of the KDE handbooks in the cached packages."""
    index = kde_index(debdir, os.path.join(workdir, "index.json"))
    ent = {lang: kde_entities(kdoctools, lang) for lang in ("en", "de")}
    for deb, members in sorted(index.items()):
        langs = collections.defaultdict(set)
        for lang, rel in members:
            langs[rel].add(lang)
        docs = sorted(rel for rel, ls in langs.items() if ls == {"en", "de"} and rel.endswith("index.docbook"))
        if not docs:
            continue
        dest = os.path.join(workdir, deb[:-4])
        if not os.path.isdir(dest):
            tmp = dest + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
            r = subprocess.run(["dpkg-deb", "--fsys-tarfile", os.path.join(debdir, deb)], capture_output=True)
            with tarfile.open(fileobj=io.BytesIO(r.stdout)) as tf:
                tf.extractall(tmp, members=[m for m in tf.getmembers()
                                            if KDE_HELP.match(m.name if m.name.startswith("./") else "./" + m.name)
                                            and m.isfile()])
            os.rename(tmp, dest)
        root = os.path.join(dest, "usr", "share", "doc", "HTML")
        for rel in docs:
            be = docbook_blocks(os.path.join(root, "en", rel), ent["en"])
            bd = docbook_blocks(os.path.join(root, "de", rel), ent["de"])
            c["documents"] += 1
            yield from doc_pairs.align_blocks(be, bd, c, {"title"})


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--skip-fetch", action="store_true",
                    help="no download (the cached packages are used as they are)")
    ap.add_argument("--debs", default=None,
                    help="the packages whose KDE handbooks are read (default DATA/debs, build_corpus.py's cache)")
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
        elif label == "kde":
            os.makedirs(os.path.join(base, "kde"), exist_ok=True)
            blocks = kde_blocks(ren, args.debs or os.path.join(args.data, "debs"), os.path.join(base, "kde"), c)
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
