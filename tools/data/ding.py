"""Extract English-German pairs from the ding dictionary (Debian package trans-de-en).

Line format: `German :: English`; sub-entries separated by ` | ` are aligned
between the two sides; alternatives inside a sub-entry are separated by `; `;
annotations are {m} {pl} [ugs.] (..) <..> and /abbr./.

iter_ding(path) yields (kind, en, de) with kind in
  'ding-sent'   example sentences (end in . ! ? and have >= 3 words)
  'ding-phrase' multi-word entries
  'ding-word'   single-word entries (head words only: first sub-entry of a line)
"""
import re

_ANNOT = [
    re.compile(r"\{[^{}]*\}"),          # {m} {pl} {vt}
    re.compile(r"\[[^\[\]]*\]"),        # [ugs.] [techn.]
    re.compile(r"<[^<>]*>"),            # <alternate spelling>
    re.compile(r"\([^()]*\)"),          # (explanations)
    re.compile(r"(?<=\s)/[^/\s][^/]*/(?=\s|$|;)"),  # /abbr./
]
_BAD = re.compile(r"[…~{}\[\]<>()=+]|\s/\s|\.\.\.")


def _clean_alt(s):
    prev = None
    while prev != s:  # nested parentheses
        prev = s
        for r in _ANNOT:
            s = r.sub(" ", s)
    s = re.sub(r"\s+", " ", s).strip()
    s = re.sub(r"\s+([,.;:!?])", r"\1", s)
    return s


def _first_alt(sub):
    # ';' separates alternatives, but ".;" may also end an example sentence
    for alt in re.split(r";\s+", sub):
        c = _clean_alt(alt)
        if c:
            return c
    return ""


def iter_ding(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#") or " :: " not in line:
                continue
            de_side, en_side = line.split(" :: ", 1)
            de_subs = de_side.split(" | ")
            en_subs = en_side.split(" | ")
            if len(de_subs) != len(en_subs):
                continue
            for i, (d, e) in enumerate(zip(de_subs, en_subs)):
                de = _first_alt(d)
                en = _first_alt(e)
                if not de or not en or _BAD.search(de) or _BAD.search(en):
                    continue
                nw = len(en.split())
                if nw >= 3 and en[0].isupper() and en[-1] in ".!?" and de[-1] in ".!?":
                    kind = "ding-sent"
                elif nw >= 2 or len(de.split()) >= 2:
                    kind = "ding-phrase"
                elif i == 0:
                    kind = "ding-word"
                else:
                    continue  # inflected forms of single words (plurals, tenses)
                yield kind, en, de
