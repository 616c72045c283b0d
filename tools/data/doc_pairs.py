#!/usr/bin/env python3
"""Extract English-German sentence pairs from Debian (bookworm) documentation
packages whose German HTML translation is structurally parallel to the English:
debian-reference, debian-faq, developers-reference, maint-guide, debian-edu-doc
(English and German packages), debian-handbook (html/en-US and html/de-DE of one
package) and installation-guide-amd64 (en/ and de/ of one package; label
doc:installation-guide).

For each package pair (English original, German translation):
  * `apt-get download` into DATA/docs/debs (cached), `dpkg-deb -x` into
    DATA/docs/x/<pkg> (cached); a DOC_PACKAGES entry may name the English and the
    German folder inside the packages, else the whole package is read;
  * HTML files are matched by name (`foo.en.html` / `foo.html` <-> `foo.de.html`
    or `de/foo.html`; symlinks ignored);
  * each HTML is parsed into ordered text blocks (title, h1-h6, p, li, dt, dd,
    td, th, caption); pre/script/style, navigation and tables of contents are
    skipped; inline markup (code, a, em, ...) is kept as text; the handbook's
    Publican pages (PublicanParser) also have <div class="para"> paragraphs and
    leave out their page navigation (ul.docnav) and URL lines (div.url);
  * the blocks are grouped into sections (a heading starts a section); sections
    are aligned with difflib on their signature (heading tag + tag kinds of the
    blocks), so only sections with the same number and kinds of blocks are
    paired, block i with block i;
  * paired blocks are split into sentences; sentence i <-> sentence i when both
    blocks have the same number of sentences, otherwise the whole block pair is
    kept when each side is <= 200 characters, else dropped;
  * filters: NFC + whitespace, 3..200 chars per side, length ratio <= 2.0,
    en != de, >= 2 letters per side, <= 30% non-letter (non-space) characters,
    no command-line/path-like sides (half of the tokens options/paths),
    German side not English-looking (also partly untranslated), exact-duplicate pairs removed;
    for debian-handbook also German sides that keep the English prose around translated
    cross-references (copied_english).

Output: DATA/docs/pairs.tsv (`doc:<label>\\ten\\tde`, label of DOC_PACKAGES), DATA/docs/stats.json.
Usage: python3 tools/data/doc_pairs.py [--data /work/edgemt-data] [--skip-fetch]
"""
import argparse
import collections
import difflib
import glob
import html.parser
import json
import os
import re
import subprocess
import sys
import time
import unicodedata

# label, English package, German package[, English folder, German folder]: the folders
# (inside the extracted packages) hold the HTML of one language each when one package
# carries several; without them the whole package is read.
DOC_PACKAGES = [
    ("debian-reference", "debian-reference-en", "debian-reference-de"),
    ("debian-faq", "debian-faq", "debian-faq-de"),
    ("developers-reference", "developers-reference", "developers-reference-de"),
    ("maint-guide", "maint-guide", "maint-guide-de"),
    ("debian-edu-doc", "debian-edu-doc-en", "debian-edu-doc-de"),
    ("debian-handbook", "debian-handbook", "debian-handbook",
     "usr/share/doc/debian-handbook/html/en-US", "usr/share/doc/debian-handbook/html/de-DE"),
    ("installation-guide", "installation-guide-amd64", "installation-guide-amd64",
     "usr/share/doc/installation-guide-amd64/en", "usr/share/doc/installation-guide-amd64/de"),
]

BLOCK_TAGS = {"title", "h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "dt", "dd",
              "td", "th", "caption"}
HEADINGS = {"title", "h1", "h2", "h3", "h4", "h5", "h6"}
SKIP_TAGS = {"script", "style", "pre", "nav", "noscript", "textarea", "svg", "math"}
SKIP_CLASSES = {"navheader", "navfooter", "toc", "list-of-tables", "list-of-figures",
                "list-of-examples", "screen", "programlisting", "synopsis",
                "literallayout", "cmdsynopsis", "funcsynopsis", "headerlink",
                "related", "sphinxsidebar", "footer", "navigation"}
VOID_TAGS = {"br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr",
             "source", "param", "embed", "track"}

MAX_CHARS = 200
MIN_CHARS = 3
MAX_RATIO = 2.0
_LETTER = re.compile(r"[^\W\d_]")
_CTRL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufffd]")

ABBREVS = {"e.g", "i.e", "z.b", "d.h", "bzw", "usw", "etc", "nr", "vgl", "ca", "evtl",
           "ggf", "inkl", "bspw", "z.t", "u.a", "o.ä", "s.o", "s.u", "u.ä", "dr", "mr",
           "mrs", "ms", "prof", "vs", "cf", "no", "fig", "abb", "bd", "s", "resp", "approx",
           "incl", "sog", "u.u", "zb", "dh", "ff", "jan", "feb", "okt", "dez", "st", "str"}

EN_COMMON = set("""the be to of and a in that have i it for not on with he as you do at
this but his by from they we say her she or an will my one all would there their what so
up out if about who get which go me when make can like time no just him know take people
into year your good some could them see other than then now look only come its over think
also back after use two how our work first well way even new want because any these give
day most us is are was were has had been should must may does""".split())
DE_WORDS = set("""der die das und ist nicht ein eine einen einem einer zu mit für auf von
werden wird sie es sich den dem des im ins oder auch als wie bei nach aus sind wenn dass
kann können müssen muss sollte diese dieser dieses diesem ihre ihr sein seine noch nur
über unter durch vom zum zur man wir ich du haben hat wurde wurden gibt keine kein mehr
sehr alle allen jedoch dann hier weitere andere ob""".split())
_DE_CHARS = re.compile(r"[äöüÄÖÜß]")
_WORD = re.compile(r"[^\W\d_]+")


def normalize_ws(s):
    s = unicodedata.normalize("NFC", s)
    s = s.replace("\u00a0", " ").replace("\u202f", " ").replace("\t", " ")
    return re.sub(r"\s+", " ", s).strip()


# ---------------------------------------------------------------- HTML parsing

class BlockParser(html.parser.HTMLParser):
    """Collect (tag, text) blocks in document order (HTML's; help_pairs.py reads DocBook
    with other tag sets)."""
    block_tags, skip_tags, skip_classes = BLOCK_TAGS, SKIP_TAGS, SKIP_CLASSES

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []      # [tag, skipping?]
        self.skip = 0        # depth of skipped elements
        self.blocks = []
        self.cur_tag = None  # innermost open block tag
        self.buf = []
        self.block_stack = []

    def _flush(self):
        if self.cur_tag is not None:
            text = normalize_ws("".join(self.buf))
            if text:
                self.blocks.append((self.cur_tag, text))
        self.buf = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID_TAGS:
            if tag == "br":
                self.buf.append(" ")
            return
        cls = set((dict(attrs).get("class") or "").split())
        skipping = self.skip > 0 or tag in self.skip_tags or bool(cls & self.skip_classes)
        kind = self.block_kind(tag, cls)
        self.stack.append((tag, skipping and self.skip == 0, kind is not None and not skipping))
        if skipping:
            if self.skip == 0:
                self._flush()  # text before the skipped element stays its own block
            self.skip += 1
            return
        if kind is not None:
            self._flush()
            self.block_stack.append(kind)
            self.cur_tag = kind

    def block_kind(self, tag, cls):
        """The block kind an element starts (None: inline or container)."""
        return tag if tag in self.block_tags else None

    def handle_startendtag(self, tag, attrs):
        if tag == "br":
            self.buf.append(" ")

    def handle_endtag(self, tag):
        if tag in VOID_TAGS:
            return
        if not any(t == tag for t, _, _ in self.stack):
            return  # stray end tag
        while self.stack:
            t, _, is_block = self.stack.pop()
            if self.skip > 0:
                self.skip -= 1
                if self.skip == 0:
                    self.buf = []
            elif is_block:
                self._flush()
                self.block_stack.pop()
                self.cur_tag = self.block_stack[-1] if self.block_stack else None
            if t == tag:
                break

    def handle_data(self, data):
        if self.skip == 0 and self.cur_tag is not None:
            self.buf.append(data)


class PublicanParser(BlockParser):
    """Publican's XHTML (debian-handbook): a paragraph is a <div class="para">; the page
    navigation (ul.docnav) and the URL lines inside paragraphs (div.url) are left out."""
    skip_classes = SKIP_CLASSES | {"docnav", "url"}

    def block_kind(self, tag, cls):
        if tag == "div" and "para" in cls:
            return "p"
        return super().block_kind(tag, cls)


# label -> parser of that package's HTML (default BlockParser)
PARSERS = {"debian-handbook": PublicanParser}


def parse_blocks(path, parser=BlockParser):
    with open(path, "rb") as f:
        raw = f.read()
    m = re.search(rb'charset=["\']?([A-Za-z0-9_-]+)', raw[:2000])
    enc = m.group(1).decode() if m else "utf-8"
    try:
        text = raw.decode(enc, errors="replace")
    except LookupError:
        text = raw.decode("utf-8", errors="replace")
    p = parser()
    p.feed(text)
    p.close()
    p._flush()
    return p.blocks


def sections(blocks, headings=HEADINGS):
    """Group (kind, text) blocks into sections; each starts at a block whose kind is in
    `headings` (or at the top). man_pairs.py uses it with .SH/.SS."""
    secs = [[]]
    for kind, text in blocks:
        if kind in headings and secs[-1]:
            secs.append([])
        secs[-1].append((kind, text))
    return [s for s in secs if s]


def signature(sec):
    return tuple(t for t, _ in sec)


# ---------------------------------------------------------------- sentences

_SPLIT = re.compile(r"(?<=[.!?])[\"'”“»«)]*\s+(?=[\"'„“«»(]?[A-ZÄÖÜ])")


def split_sentences(text):
    parts = []
    start = 0
    for m in _SPLIT.finditer(text):
        end = m.start()
        # include closing quotes/brackets matched by the lookbehind group
        seg = text[start:m.end()].rstrip()
        before = text[start:end]
        last = before.split(" ")[-1] if before else ""
        core = last.rstrip(".!?").lstrip("(\"'„“")
        if last.endswith(".") and (core.lower() in ABBREVS or re.fullmatch(r"\d+", core)
                                   or re.fullmatch(r"[A-Za-z]", core)
                                   or re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]", core)):
            continue
        parts.append(seg)
        start = m.end()
    parts.append(text[start:].strip())
    return [p for p in parts if p]


# ---------------------------------------------------------------- filters

STRONG_EN = set("""the and of to which is are with for this that you your be by from or not
can should when if""".split())
_HWORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def untranslated(en, de):
    """German side (partly) left in English: >= 3 strong English function words, or
    >= 2 and the same first two words as the English side."""
    words = [w.lower() for w in _HWORD.findall(de)]
    strong = sum(1 for w in words if w in STRONG_EN)
    if strong >= 3:
        return True
    en_words = [w.lower() for w in _HWORD.findall(en)]
    return strong >= 2 and len(words) >= 2 and words[:2] == en_words[:2]


def looks_english(de):
    if _DE_CHARS.search(de):
        return False
    words = [w.lower() for w in _WORD.findall(de)]
    if not words:
        return False
    if any(w in DE_WORDS for w in words):
        return False
    return sum(1 for w in words if w in EN_COMMON) > len(words) / 2


_CMD_TOKEN = re.compile(r"^[-$/~.]|[/_=<>|\\{}\[\]]|\.[a-z0-9]{1,4}$")


def commandish(s):
    """Mostly a command line or path list: half or more tokens look like options/paths."""
    toks = s.split()
    if not toks:
        return False
    if len(toks) == 1:
        return bool(re.search(r"[/_=]", toks[0]))
    return sum(1 for t in toks if _CMD_TOKEN.search(t)) * 2 >= len(toks)


# German function words that are English words too (not evidence of copied English)
_EN_ONLY = (EN_COMMON | STRONG_EN) - DE_WORDS - {"in", "so", "was", "will", "an", "also", "man",
                                                  "die", "war", "bin", "hat"}
_PLAIN_WORD = re.compile(r"[(\"'“”„‘’]*([a-z]+)[)\"'“”„‘’,.;:!?]*")
# labels whose German side is checked for copied English (copied_english)
COPY_CHECKED = {"debian-handbook"}


def copied_english(en, de):
    """German side keeps English prose of the English side: the runs of >= 3 tokens both
    sides share hold >= 3 plain lowercase words (not German ones), one an English function
    word. debian-handbook shows untranslated paragraphs whose cross-references and
    "Example N." labels were translated ("See Abschnitt 11.7.3.2, „PAM konfigurieren“ for
    an example of PAM configuration.")."""
    te, td = en.split(), de.split()
    words = []
    for i, _, n in difflib.SequenceMatcher(None, te, td, autojunk=False).get_matching_blocks():
        if n >= 3:
            for t in te[i:i + n]:
                m = _PLAIN_WORD.fullmatch(t)
                if m and m.group(1) not in DE_WORDS:
                    words.append(m.group(1))
    return len(words) >= 3 and any(w in _EN_ONLY for w in words)


def reject_reason(en, de):
    if en == de:
        return "same"
    for s in (en, de):
        if len(s) < MIN_CHARS or len(s) > MAX_CHARS:
            return "length"
    if _CTRL.search(en) or _CTRL.search(de):
        return "control"
    a, b = len(en), len(de)
    if max(a, b) > MAX_RATIO * min(a, b):
        return "ratio"
    for s in (en, de):
        letters = len(_LETTER.findall(s))
        if letters < 2:
            return "letters"
        nonspace = len(s.replace(" ", ""))
        if nonspace - letters > 0.3 * nonspace:
            return "nonletters"
    if commandish(en) or commandish(de):
        return "commandish"
    if looks_english(de) or untranslated(en, de):
        return "de_looks_english"
    return None


def block_sentences(te, td, c):
    """The candidate sentence pairs of two aligned blocks: sentence i with sentence i when
    both have as many, else the whole blocks when both are <= MAX_CHARS, else none."""
    se, sd = split_sentences(te), split_sentences(td)
    if len(se) == len(sd):
        c["blocks_split_same"] += 1
        return list(zip(se, sd))
    if len(te) <= MAX_CHARS and len(td) <= MAX_CHARS:
        c["blocks_whole"] += 1
        return [(te, td)]
    c["blocks_dropped_sentence_mismatch"] += 1
    return []


def keep_pair(label, e, d, c, seen, rows, per_label):
    """Appends (label, e, d) to rows unless the filters reject it or it is a duplicate
    (counted in c as rej_<reason>)."""
    e, d = normalize_ws(e), normalize_ws(d)
    why = reject_reason(e, d)
    if why:
        c["rej_" + why] += 1
    elif (e, d) in seen:
        c["rej_duplicate"] += 1
    else:
        seen.add((e, d))
        rows.append((label, e, d))
        per_label[label] += 1


# ---------------------------------------------------------------- files

def fetch(debdir, xdir, pkgs, stats):
    os.makedirs(debdir, exist_ok=True)
    os.makedirs(xdir, exist_ok=True)
    have = {os.path.basename(f).split("_")[0] for f in glob.glob(os.path.join(debdir, "*.deb"))}
    need = [p for p in pkgs if p not in have]
    for p in need:  # one by one: a missing package must not stop the others
        r = subprocess.run(["apt-get", "download", p], cwd=debdir,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            print(f"warning: apt-get download {p} failed: {r.stderr.strip()[:200]}", file=sys.stderr)
            stats["download_failed"].append(p)
    for f in sorted(glob.glob(os.path.join(debdir, "*.deb"))):
        p = os.path.basename(f).split("_")[0]
        dest = os.path.join(xdir, p)
        if p in pkgs and not os.path.isdir(dest):
            tmp = dest + ".tmp"
            subprocess.run(["rm", "-rf", tmp], check=True)
            subprocess.run(["dpkg-deb", "-x", f, tmp], check=True)
            os.rename(tmp, dest)


def html_files(root, lang):
    """Map document key -> path for the HTML files of one language."""
    out = {}
    for path in sorted(glob.glob(os.path.join(root, "**", "*.html"), recursive=True)):
        if os.path.islink(path):
            continue
        name = os.path.basename(path)
        m = re.fullmatch(r"(.+?)(?:\.([a-z]{2}(?:[-_][A-Za-z]{2})?))?\.html", name)
        key, tag = m.group(1), m.group(2)
        if tag and tag != lang:
            continue
        parent = os.path.basename(os.path.dirname(path))
        if lang == "en" and parent not in ("en",) and re.fullmatch(r"[a-z]{2}(_[A-Z]{2})?", parent) and parent != "en":
            continue  # a translation sub-directory inside the English package
        if key in out and not tag:
            continue  # prefer foo.<lang>.html over foo.html
        out[key] = path
    return out


# ---------------------------------------------------------------- main

def align_document(en_path, de_path, stats, parser=BlockParser):
    yield from align_blocks(parse_blocks(en_path, parser), parse_blocks(de_path, parser), stats)


def align_blocks(blocks_en, blocks_de, stats, headings=HEADINGS):
    """(en, de) block text pairs of two documents' blocks: block i with block i of the
    sections (a heading starts one) whose kinds of blocks agree, in order."""
    secs_en = sections(blocks_en, headings)
    secs_de = sections(blocks_de, headings)
    sig_en = [signature(s) for s in secs_en]
    sig_de = [signature(s) for s in secs_de]
    stats["sections_en"] += len(secs_en)
    stats["sections_de"] += len(secs_de)
    stats["blocks_en"] += sum(len(s) for s in secs_en)
    sm = difflib.SequenceMatcher(None, sig_en, sig_de, autojunk=False)
    matched = 0
    for i, j, n in sm.get_matching_blocks():
        for k in range(n):
            se, sd = secs_en[i + k], secs_de[j + k]
            matched += 1
            stats["blocks_paired"] += len(se)
            for (_, te), (_, td) in zip(se, sd):
                yield te, td
    stats["sections_paired"] += matched
    stats["sections_skipped"] += len(secs_en) - matched
    stats["blocks_skipped"] += sum(len(s) for s in secs_en) - sum(
        len(secs_en[i + k]) for i, _, n in sm.get_matching_blocks() for k in range(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--skip-fetch", action="store_true")
    args = ap.parse_args()
    t0 = time.time()
    base = os.path.join(args.data, "docs")
    debdir, xdir = os.path.join(base, "debs"), os.path.join(base, "x")
    stats = {"download_failed": []}
    pkgs = {p for _, e, d, *_ in DOC_PACKAGES for p in (e, d)}
    if not args.skip_fetch:
        fetch(debdir, xdir, pkgs, stats)

    per_label = collections.Counter()
    counters = collections.defaultdict(collections.Counter)
    docs = {}
    seen = set()
    out_rows = []
    for label, pen, pde, *sub in DOC_PACKAGES:
        ren, rde = os.path.join(xdir, pen), os.path.join(xdir, pde)
        if sub:
            ren, rde = os.path.join(ren, sub[0]), os.path.join(rde, sub[1])
        if not (os.path.isdir(ren) and os.path.isdir(rde)):
            continue
        fen, fde = html_files(ren, "en"), html_files(rde, "de")
        keys = sorted(set(fen) & set(fde))
        docs[label] = {"documents": len(keys), "en_only": sorted(set(fen) - set(fde)),
                       "de_only": sorted(set(fde) - set(fen))}
        c = counters[label]
        for key in keys:
            for te, td in align_document(fen[key], fde[key], c, PARSERS.get(label, BlockParser)):
                for e, d in block_sentences(te, td, c):
                    if label in COPY_CHECKED:
                        ne, nd = normalize_ws(e), normalize_ws(d)
                        if not reject_reason(ne, nd) and copied_english(ne, nd):
                            c["rej_copied_english"] += 1
                            continue
                    keep_pair("doc:" + label, e, d, c, seen, out_rows, per_label)

    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "pairs.tsv"), "w", encoding="utf-8") as f:
        for row in out_rows:
            f.write("\t".join(row) + "\n")
    stats.update({
        "pairs": len(out_rows),
        "per_label": dict(per_label),
        "documents": docs,
        "counters": {k: dict(v) for k, v in counters.items()},
        "seconds": round(time.time() - t0, 1),
    })
    with open(os.path.join(base, "stats.json"), "w", encoding="utf-8") as f:
        json.dump(stats, f, indent=1, ensure_ascii=False, sort_keys=True)
    print(json.dumps({"pairs": len(out_rows), "per_label": dict(per_label),
                      "seconds": stats["seconds"]}, indent=1))


if __name__ == "__main__":
    main()
