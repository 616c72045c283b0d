#!/usr/bin/env python3
"""Extract English-German sentence pairs from Debian's (bookworm) translated man pages.

The German pages come from manpages-de and manpages-de-dev (po4a translations of
the upstream pages); the English originals from the packages that ship the programs:
the Linux man-pages project's manpages/manpages-dev, a few more packages listed in
EN_PACKAGES, and the gettext package cache of fetch_debs.py (DATA/debs/*.deb).

  * `apt-get download` of MAN_PACKAGES into DATA/man/debs (cached); the German
    packages are `dpkg-deb -x`-ed into DATA/man/x/;
  * every cached .deb is listed once with `dpkg-deb -c`; the English man pages
    (/usr/share/man/man<N>/<name>.<N>.gz, symlinks resolved) are indexed in
    DATA/man/index.json (keyed on the .deb file name, so a new version is re-listed);
  * the English page of each German page is taken from the first .deb that ships it
    (man-pages packages first, then EN_PACKAGES, then the gettext cache, by name), and
    only the needed members are extracted (`dpkg-deb --fsys-tarfile | tar -x member`)
    into DATA/man/en/<deb>/;
  * each roff page (both languages) is parsed into ordered text blocks with a kind:
    SH/SS headings, paragraphs (P; .PP/.LP/.P, blank lines, .sp, .RS/.RE), tagged
    paragraphs (TAG and TB for .TP/.TQ, IT and IB for .IP with a tag, IP without,
    HP). No-fill regions (.nf/.fi), examples (.EX/.EE), tables (.TS/.TE),
    synopses (.SY/.YS, and the SYNOPSIS/ÜBERSICHT and SEE ALSO/SIEHE AUCH sections),
    macro definitions, conditionals and comments are skipped, as are requests not
    handled; font macros (.B .I .BR .IR .RB .RI .BI .IB .SM .SB) and escapes (\\f, \\s,
    \\(xx, \\[xx], \\*(xx strings, \\- \\e \\& \\c \\~ ...) become plain text. Pages that are
    only `.so` redirects (or symlinks), and German pages that do not decode as UTF-8,
    are skipped;
  * pages are aligned as in doc_pairs.py: sections (a .SH/.SS starts one) on their
    signature (heading kind + block kinds) with difflib, only sections of identical
    shape pair block i with block i; blocks then pair sentence i with sentence i when
    both have the same number of sentences (doc_pairs.split_sentences), else the whole
    block when both sides are <= 200 characters;
  * filters: doc_pairs.reject_reason (length, ratio <= 2, non-letters, command-line
    like sides, German side English-looking or partly untranslated), plus: a side that
    is mostly an option list or a path ("optlist"), and an anchor check: the
    options, numbers and bold/italic words that a translation keeps as they are must
    be the same on both sides (as a multiset, where there are any) ("anchors"); a
    section whose blocks fail the anchor check more often than not (a different
    version of the page) is dropped as a whole ("section_drift"). Exact duplicate
    pairs removed.

Output: DATA/man/pairs.tsv (`man:<page>.<section>\\ten\\tde`), DATA/man/stats.json.

Fetching: without --skip-fetch, each package of MAN_PACKAGES is downloaded unless
its candidate version is already cached; with --skip-fetch the cache is used as it
is and only packages missing from it are downloaded (so a first run still gets them);
--offline never downloads (missing packages are then left out).
Usage: python3 tools/data/man_pairs.py [--data /work/edgemt-data] [--skip-fetch|--offline]
"""
import argparse
import collections
import difflib
import glob
import gzip
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from doc_pairs import (MAX_CHARS, normalize_ws, reject_reason,  # noqa: E402
                       sections, signature, split_sentences)

DE_PACKAGES = ["manpages-de", "manpages-de-dev"]
# English originals not in the gettext cache (DATA/debs): the Linux man-pages project
# and the packages that hold the most translated pages missing from that cache
EN_PACKAGES = ["manpages", "manpages-dev", "util-linux", "util-linux-extra", "mount", "fdisk",
               "bsdutils", "bsdextrautils", "openssh-client", "gzip", "bzip2", "mtools",
               "e2fsprogs"]
MAN_PACKAGES = DE_PACKAGES + EN_PACKAGES

_MAN_EN = re.compile(r"^\./usr/share/man/(man[0-9][^/]*)/([^/]+\.gz)$")


# ---------------------------------------------------------------- files

def deb_name(path):
    return os.path.basename(path).split("_")[0]


def candidate_version(pkg):
    r = subprocess.run(["apt-cache", "policy", pkg], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    m = re.search(r"Candidate:\s*(\S+)", r.stdout)
    return m.group(1) if m and m.group(1) != "(none)" else None


def fetch(debdir, pkgs, mode, stats):
    """mode: 'refresh' (download unless the candidate version is cached), 'missing'
    (download only packages with no cached .deb) or 'offline'."""
    os.makedirs(debdir, exist_ok=True)
    for p in pkgs:
        cached = sorted(glob.glob(os.path.join(debdir, p + "_*.deb")))
        if mode == "offline" or (cached and mode == "missing"):
            continue
        if cached and mode == "refresh":
            v = candidate_version(p)
            if v is None or any(os.path.basename(f).split("_")[1].replace("%3a", ":") == v
                                 for f in cached):
                continue
        r = subprocess.run(["apt-get", "download", p], cwd=debdir,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            print(f"warning: apt-get download {p} failed: {r.stderr.strip()[:200]}",
                  file=sys.stderr)
            stats["download_failed"].append(p)
            continue
        stats["downloaded"].append(p)
        newest = sorted(glob.glob(os.path.join(debdir, p + "_*.deb")), key=os.path.getmtime)
        for old in newest[:-1]:
            os.remove(old)


def latest_debs(debdir):
    """One .deb per package (the newest file when several versions are cached)."""
    by_pkg = {}
    for f in sorted(glob.glob(os.path.join(debdir, "*.deb")), key=os.path.getmtime):
        by_pkg[deb_name(f)] = f
    return by_pkg


def extract_all(deb, dest):
    if not os.path.isdir(dest):
        tmp = dest + ".tmp"
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        subprocess.run(["rm", "-rf", tmp], check=True)
        subprocess.run(["dpkg-deb", "-x", deb, tmp], check=True)
        os.rename(tmp, dest)


def list_man(deb):
    """{"man1/foo.1.gz": None | "man1/target.1.gz"} of the English pages in a .deb."""
    r = subprocess.run(["dpkg-deb", "-c", deb], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, errors="replace")
    out = {}
    for line in r.stdout.splitlines():
        parts = line.split(None, 5)
        if len(parts) < 6:
            continue
        name, _, target = parts[5].partition(" -> ")
        m = _MAN_EN.match(name)
        if not m:
            continue
        rel = m.group(1) + "/" + m.group(2)
        if target:
            t = os.path.normpath(os.path.join("/usr/share/man", m.group(1), target))
            t = t[len("/usr/share/man/"):] if t.startswith("/usr/share/man/") else None
            out[rel] = t or "?"
        else:
            out[rel] = None
    return out


def build_index(debs, path):
    """Index {deb file name: {page: None|symlink target}}, cached in path."""
    index = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            index = json.load(f)
    fresh = {}
    changed = False
    for deb in debs:
        key = os.path.basename(deb)
        if key not in index:
            index[key] = list_man(deb)
            changed = True
        fresh[key] = index[key]
    if changed or len(fresh) != len(index):
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(fresh, f, indent=0, sort_keys=True)
        os.replace(tmp, path)
    return fresh


def resolve(pages, rel, depth=0):
    """Follow symlinks inside one package; None when the page is not a plain file."""
    if rel not in pages or depth > 5:
        return None
    t = pages[rel]
    if t is None:
        return rel
    return resolve(pages, t, depth + 1)


def extract_members(deb, members, dest):
    """Extract ./usr/share/man/<member> of a .deb into dest (skip those already there)."""
    need = [m for m in members if not os.path.exists(os.path.join(dest, m))]
    if not need:
        return
    tmp = dest + ".tmp"
    subprocess.run(["rm", "-rf", tmp], check=True)
    os.makedirs(tmp, exist_ok=True)
    p1 = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", tmp] + ["./usr/share/man/" + m for m in need],
                   stdin=p1.stdout, check=False, stderr=subprocess.DEVNULL)
    p1.stdout.close()
    p1.wait()
    for m in need:
        src = os.path.join(tmp, "usr/share/man", m)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, m)), exist_ok=True)
            os.replace(src, os.path.join(dest, m))
    subprocess.run(["rm", "-rf", tmp], check=True)


# ---------------------------------------------------------------- roff

NAMED = {
    "em": "—", "en": "–", "hy": "-", "mi": "-", "aq": "'", "dq": '"', "lq": "“", "rq": "”",
    "oq": "‘", "cq": "’", "Bq": "„", "bq": "‚", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›",
    "bu": "•", "co": "©", "rg": "®", "tm": "™", "at": "@", "sh": "#", "dg": "†", "de": "°",
    "mu": "×", "di": "÷", "+-": "±", "<=": "≤", ">=": "≥", "!=": "≠", "->": "→", "<-": "←",
    "<>": "↔", "ua": "↑", "da": "↓", "ti": "~", "ha": "^", "rs": "\\", "sl": "/", "ba": "|",
    "br": "|", "ss": "ß", "ga": "`", "aa": "´", "Do": "$", "Eu": "€", "eu": "€", "ct": "¢",
    "Po": "£", "Ye": "¥", "ps": "¶", "sc": "§", "lh": "☜", "rh": "☞", "ul": "_", "ru": "_",
    "pl": "+", "eq": "=", "**": "*", "fm": "′", "sd": "″", "or": "|", "lB": "[", "rB": "]",
    "lC": "{", "rC": "}", "la": "⟨", "ra": "⟩", "OK": "✓", "hA": "⇔", "rA": "⇒", "lA": "⇐",
    "pc": "·", "r!": "¡", "r?": "¿", "12": "½", "14": "¼", "34": "¾", "S1": "¹", "S2": "²",
    "S3": "³", "if": "∞", "mc": "µ", "*m": "µ", "ap": "~", "~~": "≈", "==": "≡", "no": "¬",
    "AE": "Æ", "ae": "æ", "OE": "Œ", "oe": "œ", "IJ": "Ĳ", "ij": "ĳ", "/o": "ø", "/O": "Ø",
    "'e": "é", "'a": "á", "'i": "í", "'o": "ó", "'u": "ú", "'E": "É", "`a": "à", "`e": "è",
    ":a": "ä", ":o": "ö", ":u": "ü", ":A": "Ä", ":O": "Ö", ":U": "Ü", ":e": "ë", ":i": "ï",
    "^a": "â", "^e": "ê", "^i": "î", "^o": "ô", "^u": "û", "~n": "ñ", "~N": "Ñ", ",c": "ç",
    ",C": "Ç", "oa": "å", "oA": "Å", "'c": "ć", "vs": "š", "vS": "Š", "vz": "ž", "vc": "č",
    "ff": "ff", "fi": "fi", "fl": "fl", "Fi": "ffi", "Fl": "ffl", "dd": "‡", "tf": "∴",
    "sq": "□", "ci": "○", "es": "∅", "mo": "∈", "sb": "⊂", "sp": "⊃", "ca": "∩", "cu": "∪",
    "pt": "∝", "is": "∫", "gr": "∇", "sr": "√", "*a": "α", "*b": "β", "*g": "γ", "*d": "δ",
    "*e": "ε", "*l": "λ", "*p": "π", "*s": "σ", "*t": "τ", "*f": "φ", "*W": "Ω", "*S": "Σ",
    "tno": "¬", "Ah": "ℵ", "lz": "◊", "ne": "≢", "cr": "↵", "CR": "↵",
}
# predefined strings (groff man/an-ext, pod2man, docbook preambles)
STRINGS = {
    "lq": "“", "rq": "”", "R": "®", "Tm": "™", "S": "", "Aq": "'", "aq": "'", "Dq": '"',
    "L\"": "“", "R\"": "”", "C+": "C++", "C'": "'", "C`": "'", "--": "—", "PI": "π",
    "Lq": "“", "Rq": "”", "Ba": "|", "HF": "", "an-trap": "",
}
_DELIM_ESC = set("hvwZXoDlLbxRHSANCVYB")  # \X'...' escapes with a delimited argument


class Roff:
    """Convert roff text to plain text; keeps .ds string definitions."""

    def __init__(self):
        self.strings = dict(STRINGS)
        self.unknown = collections.Counter()

    def _name(self, s, i):
        """Read an escape name at s[i]: (xx, [xxx] or a single char; return (name, next)."""
        if i >= len(s):
            return "", i
        if s[i] == "(":
            return s[i + 1:i + 3], i + 3
        if s[i] == "[":
            j = s.find("]", i)
            if j < 0:
                return s[i + 1:], len(s)
            return s[i + 1:j], j + 1
        return s[i], i + 1

    def named_char(self, name):
        if name in NAMED:
            return NAMED[name]
        m = re.fullmatch(r"u([0-9A-Fa-f]{4,6})(?:_.*)?", name)
        if m:
            return chr(int(m.group(1), 16))
        if len(name) == 1:
            return name
        self.unknown[name] += 1
        return ""

    def text(self, s):
        """Plain text of one line (escapes resolved). Returns (text, joined) where joined
        is True when the line ends with \\c (no space before the next line)."""
        out = []
        i, n = 0, len(s)
        joined = False
        while i < n:
            c = s[i]
            if c != "\\":
                out.append(c)
                i += 1
                continue
            if i + 1 >= n:
                joined = True  # trailing backslash: continuation
                break
            e = s[i + 1]
            i += 2
            if e in "\"#":
                break  # comment
            if e == "f" or e == "F":
                _, i = self._name(s, i)
            elif e == "s":
                if i < n and s[i] in "+-":
                    i += 1
                if i < n and s[i] in "([":
                    _, i = self._name(s, i)
                elif i < n and s[i] in "'":
                    j = s.find("'", i + 1)
                    i = j + 1 if j >= 0 else n
                else:
                    while i < n and s[i].isdigit() and i < n:
                        i += 1
                        break
            elif e == "(" or e == "[":
                name, i = self._name(s, i - 1)
                out.append(self.named_char(name))
            elif e == "C" and i < n and s[i] == "'":
                j = s.find("'", i + 1)
                out.append(self.named_char(s[i + 1:j] if j >= 0 else ""))
                i = j + 1 if j >= 0 else n
            elif e == "N" and i < n and s[i] == "'":
                j = s.find("'", i + 1)
                try:
                    out.append(chr(int(s[i + 1:j])))
                except ValueError:
                    pass
                i = j + 1 if j >= 0 else n
            elif e == "*":
                name, i = self._name(s, i)
                if name in self.strings:
                    out.append(self.strings[name])
                else:
                    self.unknown["*" + name] += 1
            elif e in "nmMgkK$":
                if e == "n" and i < n and s[i] in "+-":
                    i += 1
                _, i = self._name(s, i)
            elif e in _DELIM_ESC:
                if i < n:
                    d = s[i]
                    j = s.find(d, i + 1)
                    i = j + 1 if j >= 0 else n
            elif e == "-":
                out.append("-")
            elif e in "e\\E":
                out.append("\\")
            elif e in "~ 0":
                out.append(" ")
            elif e == "t":
                out.append(" ")
            elif e == "'":
                out.append("´")
            elif e == "`":
                out.append("`")
            elif e == ".":
                out.append(".")
            elif e == "c":
                if i >= n or not s[i:].strip():
                    joined = True
                    break
            elif e in "&|^%{}):/,!ap" or e == "\n":
                pass
            elif e == "d" or e == "u" or e == "r":
                pass
            else:
                out.append(e)
        return "".join(out), joined


def split_args(s):
    """Split macro arguments: spaces separate, "..." quotes ("" = a literal quote);
    escapes (backslash + char) stay in their argument."""
    args = []
    i, n = 0, len(s)
    while i < n:
        while i < n and s[i] in " \t":
            i += 1
        if i >= n:
            break
        buf = []
        if s[i] == '"':
            i += 1
            while i < n:
                if s[i] == '"':
                    if i + 1 < n and s[i + 1] == '"':
                        buf.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                if s[i] == "\\" and i + 1 < n:
                    buf.append(s[i:i + 2])
                    i += 2
                    continue
                buf.append(s[i])
                i += 1
        else:
            while i < n and s[i] not in " \t":
                if s[i] == "\\" and i + 1 < n:
                    if s[i + 1] == '"':  # comment
                        i = n
                        break
                    buf.append(s[i:i + 2])
                    i += 2
                    continue
                buf.append(s[i])
                i += 1
        args.append("".join(buf))
    return args


FONT_ALT = {"BR", "IR", "RB", "RI", "BI", "IB"}
FONT_ONE = {"B", "I", "SM", "SB", "R", "CW", "CR", "CB", "CI"}
PARA = {"PP", "LP", "P", "sp", "RS", "RE", "ne", "PD", "in", "ti"}
def parse_page(text, roff=None):
    """Parse one man page into [(kind, text)]; kinds SH SS P TAG TB IT IB IP HP."""
    roff = roff or Roff()
    lines = text.split("\n")
    blocks = []
    kind = "P"
    buf = []
    joined = [False]
    pending_tag = None   # "TAG"/"IT" while the next text line is a tag
    body_kind = "P"
    skip_until = None    # a request that ends a skipped region
    brace_depth = 0
    section_skip = False
    link = None

    def flush(k=None):
        t = normalize_ws(" ".join(buf))
        buf.clear()
        if t and not section_skip:
            blocks.append((k or kind, t))

    def add(t, j):
        if buf and joined[0]:
            buf[-1] = buf[-1] + t
        else:
            buf.append(t)
        joined[0] = j

    def add_text(t, j):
        nonlocal pending_tag, kind
        if pending_tag is not None:
            # the tag line
            if buf and kind == pending_tag:
                add(t, j)
            else:
                flush()
                kind = pending_tag
                add(t, j)
            if not j:
                flush()
                kind = body_kind
                pending_tag = None
            return
        add(t, j)

    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        while line.endswith("\\") and not line.endswith("\\\\") and i < len(lines):
            line = line[:-1] + lines[i]  # escaped newline
            i += 1
        if brace_depth > 0:
            brace_depth += line.count("\\{") - line.count("\\}")
            continue
        if skip_until is not None:
            if line.startswith((".", "'")):
                req = line[1:].strip().split(None, 1)[0] if line[1:].strip() else ""
                if req in skip_until:
                    skip_until = None
            continue
        if line.startswith((".", "'")):
            body = line[1:].lstrip(" \t")
            if body.startswith(('\\"', "\\#")) or not body.strip():
                continue
            m = re.match(r"([^\s\\]+)", body)
            if not m:
                if body.startswith("\\}"):
                    continue
                continue
            req = m.group(1)
            rest = body[m.end():]
            args = split_args(rest)
            if req in ("SH", "SS"):
                flush()
                pending_tag = None
                if not args:  # heading on the next line
                    while i < len(lines) and lines[i].startswith((".\\\"", "'\\\"")):
                        i += 1
                    args = [lines[i]] if i < len(lines) else []
                    i += 1
                head, _ = roff.text(" ".join(args))
                head = normalize_ws(head)
                section_skip = req == "SH" and head.upper() in SKIP_SECTIONS
                if not section_skip:
                    blocks.append((req, head))
                kind = body_kind = "P"
            elif req in ("TP", "TQ"):
                flush()
                pending_tag = "TAG"
                body_kind = "TB"
                kind = "TAG" if req == "TQ" else kind
            elif req == "IP":
                flush()
                tag = roff.text(args[0])[0].strip() if args else ""
                if tag and tag not in ("•", "-", "*", "o", "·", "–", "—") and not \
                        re.fullmatch(r"\(?\d{1,2}[.)]?|\(?[a-z][.)]|[ivx]+[.)]", tag):
                    if not section_skip:
                        blocks.append(("IT", normalize_ws(tag)))
                    kind = body_kind = "IB"
                else:
                    kind = body_kind = "IP"
                pending_tag = None
            elif req == "HP":
                flush()
                pending_tag = None
                kind = body_kind = "HP"
            elif req in PARA:
                if req in ("ne", "PD", "in", "ti") and not buf:
                    continue
                flush()
                if req in ("PP", "LP", "P"):
                    pending_tag = None
                    kind = body_kind = "P"
                elif pending_tag is None:
                    kind = body_kind if req in ("sp",) else "P"
                    body_kind = kind
            elif req in FONT_ONE:
                if args:
                    t = " ".join(roff.text(a)[0] for a in args)
                    add_text(t, False)
            elif req in FONT_ALT:
                if args:
                    t = "".join(roff.text(a)[0] for a in args)
                    add_text(t, False)
            elif req in ("UR", "MT"):
                # the link text follows; without one, groff prints the URL/address
                link = (roff.text(args[0])[0] if args else "", len(buf), joined[0])
            elif req in ("UE", "ME"):
                if link and len(buf) == link[1] and link[0]:
                    add(link[0] if req == "UE" else "<" + link[0] + ">", False)
                link = None
                if args:  # trailing punctuation, glued to the link
                    joined[0] = True
                    add(roff.text(args[0])[0], False)
            elif req in ("nf", "EX"):
                flush()
                skip_until = {"fi"} if req == "nf" else {"EE"}
            elif req == "TS":
                flush()
                skip_until = {"TE"}
            elif req == "SY":
                flush()
                skip_until = {"YS"}
            elif req in ("de", "de1", "ig", "am"):
                if req == "ig":
                    flush()
                end = args[1] if len(args) > 1 and req != "ig" else (args[0] if req == "ig" and args else ".")
                skip_until = {end}
            elif req in ("ds", "ds1"):
                if args:
                    val = rest.strip()[len(args[0]):].lstrip()
                    if val.startswith('"'):
                        val = val[1:]
                    roff.strings[args[0]] = roff.text(val)[0]
            elif req in ("if", "ie", "el", "while"):
                brace_depth += body.count("\\{") - body.count("\\}")
            elif req in ("EE", "fi", "YS", "TE"):
                pass
            # other requests (.ad .na .in .ft .IX .TH ...) are skipped
            continue
        if not line.strip():
            if pending_tag is None:
                flush()
            continue
        if section_skip:
            continue
        t, j = roff.text(line)
        add_text(t, j)
    flush()
    return blocks


SKIP_SECTIONS = {"SYNOPSIS", "ÜBERSICHT", "SYNTAX", "SEE ALSO", "SIEHE AUCH",
                 "COLOPHON", "KOLOPHON", "ÜBERSETZUNG", "TRANSLATION"}
HEADING_KINDS = {"SH", "SS"}


def read_page(path, encodings=("utf-8",)):
    """Text of a gzipped man page, or None when no encoding decodes it."""
    with gzip.open(path, "rb") as f:
        raw = f.read()
    for enc in encodings:
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return None


def is_redirect(text):
    lines = [l for l in text.split("\n") if l.strip() and not l.startswith(('.\\"', "'\\\""))]
    return len(lines) <= 2 and any(l.startswith(".so ") for l in lines)


# ---------------------------------------------------------------- filters

_URL = re.compile(r"https?://|www\.|<[^<>\s]+@[^<>\s]+>")
_OPT = re.compile(r"^[(\[]?--?[A-Za-z0-9][\w-]*")
_PATH = re.compile(r"^[\"'»«„“(]?[~.]?/\S|^\S+/\S+$")


def optlist_or_path(s):
    """Mostly an option list or path(s): a third of the tokens are options/paths, or a
    single path-like token."""
    toks = s.split()
    if not toks:
        return False
    opts = sum(1 for t in toks if _OPT.match(t))
    paths = sum(1 for t in toks if _PATH.match(t))
    if len(toks) <= 2:
        return opts + paths >= 1 and len(toks) == 1 or opts + paths == len(toks)
    return (opts + paths) * 3 >= len(toks)


_NUM = re.compile(r"(?<![^\W\d_])\d+(?:[.,]\d+)*(?![^\W\d_])")
_OPTION = re.compile(r"(?:^|(?<=[\s(\[\"'„“»«,]))--?[A-Za-z0-9][\w-]*")
_PRINTF = re.compile(r"%[-#0 +']*\d*(?:\.\d+)?[a-zA-Z]")


def anchors(s):
    """What a translation leaves as it is: numbers (digits only), printf directives,
    and options (a dash after a space or an opening bracket/quote)."""
    return (collections.Counter(re.sub(r"\D", "", n) for n in _NUM.findall(s)),
            collections.Counter(_PRINTF.findall(s)),
            [o.rstrip("-") for o in _OPTION.findall(s)])


def has_anchors(s):
    a = anchors(s)
    return bool(a[0] or a[1] or a[2])


def anchors_agree(en, de):
    """Same numbers and printf directives on both sides; each English option also in
    the German text (German compounds like `-iregex-Tests` make the reverse unreliable)."""
    ne, pe, oe = anchors(en)
    nd, pd, _ = anchors(de)
    return ne == nd and pe == pd and all(o in de for o in oe)


# ---------------------------------------------------------------- main

def align_page(blocks_en, blocks_de, c, drifted=None):
    """Yield (en, de) text block pairs of the sections of identical shape."""
    secs_en, secs_de = sections(blocks_en, HEADING_KINDS), sections(blocks_de, HEADING_KINDS)
    sm = difflib.SequenceMatcher(None, [signature(s) for s in secs_en],
                                 [signature(s) for s in secs_de], autojunk=False)
    c["sections_en"] += len(secs_en)
    c["sections_de"] += len(secs_de)
    for i, j, n in sm.get_matching_blocks():
        for k in range(n):
            se, sd = secs_en[i + k], secs_de[j + k]
            # drift check: most of the blocks with anchors must agree on them
            checked = [anchors_agree(te, td) for (_, te), (_, td) in zip(se, sd)
                       if has_anchors(te) or has_anchors(td)]
            if checked and sum(checked) * 2 < len(checked):
                c["sections_drift"] += 1
                if drifted is not None:
                    drifted.append((se, sd))
                continue
            c["sections_paired"] += 1
            c["blocks_paired"] += len(se)
            yield from (((ke, te), (kd, td)) for (ke, te), (kd, td) in zip(se, sd))


SENT_RATIO_SPREAD = 1.6


def sentences_fit(se, sd):
    """For a block split into as many sentences on both sides: no sentence pair's
    length ratio is off the block's ratio by more than SENT_RATIO_SPREAD (translators
    sometimes reorder or regroup the sentences of a block)."""
    block = sum(map(len, sd)) / max(1, sum(map(len, se)))
    for e, d in zip(se, sd):
        r = (len(d) + 10) / (len(e) + 10) / block
        if r > SENT_RATIO_SPREAD or r < 1 / SENT_RATIO_SPREAD:
            return False
    return True


def find_english(index, order, rel):
    """(deb, member) of the first package that ships English page rel as a file."""
    for deb in order:
        pages = index.get(deb)
        if pages and rel in pages:
            real = resolve(pages, rel)
            if real:
                return deb, real
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--skip-fetch", action="store_true",
                    help="use the cached .debs; download only packages missing from the cache")
    ap.add_argument("--offline", action="store_true", help="never download")
    ap.add_argument("--rejects", help="write the rejected candidate pairs (reason, page, en, de) to this TSV")
    ap.add_argument("--dump-blocks", help="print the parsed blocks of one page (e.g. man1/ls.1) and exit")
    args = ap.parse_args()
    t0 = time.time()
    base = os.path.join(args.data, "man")
    debdir, xdir, endir = (os.path.join(base, d) for d in ("debs", "x", "en"))
    stats = {"download_failed": [], "downloaded": []}
    mode = "offline" if args.offline else "missing" if args.skip_fetch else "refresh"
    fetch(debdir, MAN_PACKAGES, mode, stats)
    mine = latest_debs(debdir)
    for p in DE_PACKAGES:
        if p in mine:
            extract_all(mine[p], os.path.join(xdir, os.path.basename(mine[p])[:-4]))
    # English candidates: man-pages packages and EN_PACKAGES first, then the gettext cache
    gettext_debs = latest_debs(os.path.join(args.data, "debs"))
    order_paths = [mine[p] for p in EN_PACKAGES if p in mine] + \
        [gettext_debs[p] for p in sorted(gettext_debs) if p not in EN_PACKAGES]
    t1 = time.time()
    index = build_index(order_paths, os.path.join(base, "index.json"))
    stats["index_seconds"] = round(time.time() - t1, 1)
    order = [os.path.basename(p) for p in order_paths]
    deb_path = {os.path.basename(p): p for p in order_paths}

    # German pages
    de_pages = {}
    for p in DE_PACKAGES:
        if p not in mine:
            continue
        root = os.path.join(xdir, os.path.basename(mine[p])[:-4], "usr/share/man/de")
        for path in sorted(glob.glob(os.path.join(root, "man*", "*.gz"))):
            de_pages[os.path.relpath(path, root)] = path
    c = collections.Counter()
    rows = []
    seen = set()
    per_page = collections.Counter()
    wanted = collections.defaultdict(list)
    plan = {}
    for rel, path in sorted(de_pages.items()):
        c["de_pages"] += 1
        if os.path.islink(path):
            c["de_symlink"] += 1
            continue
        found = find_english(index, order, rel)
        if not found:
            c["de_no_english"] += 1
            continue
        plan[rel] = found
        wanted[found[0]].append(found[1])
    missing_by_name = sorted(r for r in de_pages if r not in plan and not os.path.islink(de_pages[r]))
    for deb, members in sorted(wanted.items()):
        extract_members(deb_path[deb], sorted(set(members)), os.path.join(endir, deb[:-4]))
    en_source = collections.Counter()
    rej_f = open(args.rejects, "w", encoding="utf-8") if args.rejects else None
    for rel, (deb, member) in sorted(plan.items()):
        if args.dump_blocks and not rel.startswith(args.dump_blocks + "."):
            continue
        de_text = read_page(de_pages[rel])
        if de_text is None:
            c["de_decode_error"] += 1
            continue
        if is_redirect(de_text):
            c["de_redirect"] += 1
            continue
        en_path = os.path.join(endir, deb[:-4], member)
        if not os.path.exists(en_path):
            c["en_missing"] += 1
            continue
        en_text = read_page(en_path, ("utf-8", "latin-1"))
        if is_redirect(en_text):
            c["en_redirect"] += 1
            continue
        c["pages_with_english"] += 1
        en_source[deb_name(deb)] += 1
        r_en, r_de = Roff(), Roff()
        b_en, b_de = parse_page(en_text, r_en), parse_page(de_text, r_de)
        if args.dump_blocks:
            for side, bl in (("EN", b_en), ("DE", b_de)):
                print("=====", side, deb)
                for k, t in bl:
                    print(f"{k:4} {t}")
            return
        page = os.path.basename(rel)[:-3]
        got = 0
        secs_before = c["sections_paired"]
        drifted = []
        for (ke, te), (kd, td) in align_page(b_en, b_de, c, drifted):
            se, sd = split_sentences(te), split_sentences(td)
            if len(se) == len(sd) and len(se) > 1 and not sentences_fit(se, sd):
                c["blocks_dropped_sentence_lengths"] += 1
                if rej_f:
                    for e, d in zip(se, sd):
                        rej_f.write(f"sentence_lengths\t{page}\t{e}\t{d}\n")
                continue
            if len(se) == len(sd):
                c["blocks_split_same"] += 1
                cands = list(zip(se, sd))
            elif len(te) <= MAX_CHARS and len(td) <= MAX_CHARS and len(td) >= 0.9 * len(te):
                # (a German block shorter than the English one has lost a sentence
                # more often than not)
                c["blocks_whole"] += 1
                cands = [(te, td)]
            else:
                c["blocks_dropped_sentence_mismatch"] += 1
                continue
            for e, d in cands:
                e, d = normalize_ws(e), normalize_ws(d)
                why = reject_reason(e, d)
                if not why and (optlist_or_path(e) or optlist_or_path(d)):
                    why = "optlist"
                if not why and (_URL.search(e) or _URL.search(d)):
                    why = "url"
                if not why and not anchors_agree(e, d):
                    why = "anchors"
                if why:
                    c["rej_" + why] += 1
                    if rej_f:
                        rej_f.write(f"{why}\t{page}\t{e}\t{d}\n")
                    continue
                if (e, d) in seen:
                    c["rej_duplicate"] += 1
                    continue
                seen.add((e, d))
                rows.append(("man:" + page, e, d))
                got += 1
        if rej_f:
            for se, sd in drifted:
                for (_, te), (_, td) in zip(se, sd):
                    rej_f.write(f"section_drift\t{page}\t{te[:200]}\t{td[:200]}\n")
        if c["sections_paired"] > secs_before:
            c["pages_aligned"] += 1
        per_page[page] = got
        for name, k in r_en.unknown.items():
            c["unknown_escape_en"] += k
        for name, k in r_de.unknown.items():
            c["unknown_escape_de"] += k

    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "pairs.tsv"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")
    stats.update({
        "pages_seen": c["de_pages"],
        "pages_with_english": c["pages_with_english"],
        "pages_aligned": c["pages_aligned"],
        "pages_with_pairs": sum(1 for v in per_page.values() if v),
        "sections_paired": c["sections_paired"],
        "pairs": len(rows),
        "counters": dict(c),
        "drop_reasons": {k[4:]: v for k, v in c.items() if k.startswith("rej_")},
        "english_source_packages": dict(en_source.most_common()),
        "top_pages": [[k, v] for k, v in per_page.most_common(40)],  # [page, pairs]
        "de_pages_without_english": missing_by_name,
        "seconds": round(time.time() - t0, 1),
    })
    with open(os.path.join(base, "stats.json"), "w", encoding="utf-8") as f:
        json.dump(stats, f, indent=1, ensure_ascii=False, sort_keys=True)
    print(json.dumps({k: stats[k] for k in ("pages_seen", "pages_with_english", "pages_aligned", "pages_with_pairs",
                                            "sections_paired", "pairs", "seconds")}, indent=1))


if __name__ == "__main__":
    main()
