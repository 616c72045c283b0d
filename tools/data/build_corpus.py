#!/usr/bin/env python3
"""Build the English->German parallel corpus of edgemt from Debian packages.

Sources
  * gettext: German .mo catalogs of the packages in tools/data/packages.txt
    (downloaded with `apt-get download`, cached under DATA/debs; see fetch_debs.py);
    at most --per-package-cap pairs a package, but for the games with dialogue and
    story text (find_packages.STORY_PACKAGES: FreedroidRPG, Widelands, Wesnoth's core,
    Cataclysm: Dark Days Ahead, Naev, Dink Smallwood); a message over MAX_CHARS characters pairs sentence by
    sentence when both sides have as many
  * ding:    the trans-de-en dictionary (/usr/share/trans/de-en): example
    sentences, multi-word phrases and (sampled) head words
  * man:     sentences of Debian's translated man pages (man_pairs.py)
  * help:    sentences of LibreOffice's, GNOME's and GIMP's help (help_pairs.py)
  * ddtp:    sentences of Debian's translated package descriptions (ddtp_pairs.py)
  * game:    messages of games that keep their German translation in a format of their
             own (game_pairs.py: Fish Fillets NG, Hedgewars, Mission Supernova, GCompris,
             Tux Paint's stamps), cleaned, split and filtered as gettext messages, uncapped

Pipeline: extract -> clean/filter -> per-package cap -> dedup on the normalized
English side -> deterministic split by sha1 of the normalized English side
(dev ~1%, test ~1%, both >= 1000) -> DATA/corpus/{train,dev,test}.{en,de,src}
and DATA/corpus/stats.json. Everything is deterministic (no RNG; ordering and
sampling use sha1 of the text).

Usage: python3 tools/data/build_corpus.py [--data /work/edgemt-data] [--skip-fetch]
--skip-fetch: no download of the gettext packages, the manuals or the help (their
caches are used as they are); man_pairs.py gets --skip-fetch too, which downloads only the man
page packages missing from its cache (DATA/man/debs), so a first run still gets them.
"""
import argparse
import collections
import glob
import hashlib
import html
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ding  # noqa: E402
import doc_pairs  # noqa: E402
import fetch_debs  # noqa: E402
import find_packages  # noqa: E402
from mo_reader import read_mo  # noqa: E402

MAX_CHARS = 200
_CTRL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufffd]")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:_-]*(\s[^<>]*)?/?>")
_ENT_AMP = re.compile(r"&(?!(amp|lt|gt|quot|apos|nbsp|#\d+|#x[0-9a-fA-F]+);)(?=\w)")
_LETTER = re.compile(r"[^\W\d_]")
_KEY = re.compile(r"[^\W_]+")


def sha1(s):
    return hashlib.sha1(s.encode("utf-8")).hexdigest()


def norm_key(en):
    """Normalized English used for dedup and for the split hash."""
    return " ".join(_KEY.findall(en.lower()))


def normalize_ws(s):
    s = unicodedata.normalize("NFC", s)
    s = s.replace("\u00a0", " ").replace("\u202f", " ").replace("\t", " ")
    return re.sub(r"\s+", " ", s).strip()


def _strip_accel(s, other, ch):
    """Remove a single menu accelerator `ch` (_ & ~) placed before a letter."""
    if s.count(ch) != 1:
        return s
    i = s.index(ch)
    if i + 1 >= len(s) or not s[i + 1].isalnum():
        return s
    tok = re.search(r"\S*" + re.escape(ch) + r"\S*", s).group(0)
    if tok in other:  # an identifier like file_name present on both sides
        return s
    return s[:i] + s[i + 1:]


def clean_gettext_pair(en, de):
    """Return list of (en, de) after markup/accelerator cleanup (may split lines)."""
    out = []
    if "\n" in en or "\n" in de:
        el = [l for l in en.split("\n") if l.strip()]
        dl = [l for l in de.split("\n") if l.strip()]
        if len(el) == len(dl) and len(el) > 1:
            pairs = list(zip(el, dl))
        else:
            pairs = [(en.replace("\n", " "), de.replace("\n", " "))]
    else:
        pairs = [(en, de)]
    for e, d in pairs:
        e0, d0 = e, d
        e = _strip_accel(e, d0, "_"); d = _strip_accel(d, e0, "_")
        e = _strip_accel(e, d0, "~"); d = _strip_accel(d, e0, "~")
        e = e.replace("&&", "\x01"); d = d.replace("&&", "\x01")
        if len(_ENT_AMP.findall(e)) <= 1 and len(_ENT_AMP.findall(d)) <= 1:
            e = _ENT_AMP.sub("", e); d = _ENT_AMP.sub("", d)
        e = e.replace("\x01", "&"); d = d.replace("\x01", "&")
        e = _TAG.sub(" ", e); d = _TAG.sub(" ", d)
        e = html.unescape(e); d = html.unescape(d)
        out.append((e, d))
    return out


def acceptable(en, de):
    if not en or not de or en == de:
        return False
    if len(en) > MAX_CHARS or len(de) > MAX_CHARS:
        return False
    if _CTRL.search(en) or _CTRL.search(de):
        return False
    le, ld = len(_LETTER.findall(en)), len(_LETTER.findall(de))
    if le < 2 or ld < 2:
        return False
    if le < 0.5 * len(en.replace(" ", "")) and len(en) > 8:  # mostly symbols/placeholders
        return False
    if not re.search(r"[A-Za-z]", en):
        return False
    # German must be Latin script
    if sum(1 for c in de if c.isalpha() and ord(c) > 0x24F) > 0:
        return False
    a, b = len(en), len(de)
    if max(a, b) > 12 and (b > 2.5 * a or a > 2.5 * b):
        return False
    if max(a, b) <= 12 and (b > 4 * a + 4 or a > 4 * b + 4):
        return False
    if re.search(r"https?://|www\.|@\w+\.\w", en):
        return False
    return True


def long_message_sentences(en, de, stats):
    """A message longer than MAX_CHARS on a side (an item's description, a paragraph of
    help, a character's speech) as pairs of its sentences, sentence i with sentence i,
    when both sides have as many (doc_pairs.split_sentences); else none. Shorter messages
    stay whole."""
    if len(en) <= MAX_CHARS and len(de) <= MAX_CHARS:
        return [(en, de)]
    se, sd = doc_pairs.split_sentences(en), doc_pairs.split_sentences(de)
    if len(se) > 1 and len(se) == len(sd):
        stats["gettext_long_split"] += 1
        return list(zip(se, sd))
    stats["gettext_long_unsplit"] += 1
    return []


def message_pairs(en, de, stats):
    """The pairs of one catalog message: cleaned (clean_gettext_pair), whitespace
    normalized, a long message split into sentences (long_message_sentences, counted in
    stats), those that pass acceptable()."""
    for e2, d2 in clean_gettext_pair(en, de):
        e2, d2 = normalize_ws(e2), normalize_ws(d2)
        for e3, d3 in long_message_sentences(e2, d2, stats):
            if acceptable(e3, d3):
                yield e3, d3


def extract_gettext(modir, packages, per_pkg_cap, stats, uncapped=()):
    """Yield (source_label, en, de) for each package, capped per package but for the
    packages in `uncapped` (games' dialogue and story text, kept whole)."""
    for pkg in packages:
        files = sorted(glob.glob(os.path.join(modir, pkg, "*.mo")))
        if not files:
            continue
        pairs = {}
        raw = 0
        for fn in files:
            try:
                entries = read_mo(fn)
            except Exception:
                continue
            for _ctxt, mid, mid_pl, strs in entries:
                cand = [(mid, strs[0])]
                if mid_pl is not None and len(strs) > 1:
                    cand.append((mid_pl, strs[1]))
                for e, d in cand:
                    raw += 1
                    if not d:
                        continue
                    for e3, d3 in message_pairs(e, d, stats):
                        k = norm_key(e3)
                        if k and k not in pairs:
                            pairs[k] = (e3, d3)
        stats["gettext_raw"] += raw
        keep = sorted(pairs.items(), key=lambda kv: sha1(pkg + "\t" + kv[0]))
        if pkg not in uncapped:
            keep = keep[:per_pkg_cap]
        stats["gettext_clean"] += len(pairs)
        stats["gettext_packages"] += 1
        for _k, (e, d) in keep:
            yield "gettext:" + pkg, e, d


def extract_ding(path, caps, stats):
    per_kind = collections.defaultdict(list)
    for kind, en, de in ding.iter_ding(path):
        stats[kind + "_raw"] += 1
        en = normalize_ws(en.replace("\u2019", "'"))
        de = normalize_ws(de)
        if acceptable(en, de):
            per_kind[kind].append((en, de))
    for kind in sorted(per_kind):
        items = per_kind[kind]
        stats[kind + "_clean"] += len(items)
        cap = caps.get(kind)
        if cap is not None and len(items) > cap:
            items = sorted(items, key=lambda p: sha1(kind + "\t" + p[0] + "\t" + p[1]))[:cap]
        for en, de in items:
            yield kind, en, de


def read_tsv(path):
    """(label, en, de) of each well-formed line of a `label<TAB>en<TAB>de` file."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3:
                yield tuple(parts)


def extract_docs(path, stats, kind="doc"):
    """Yield (doc:<package>, en, de) from doc_pairs.py's DATA/docs/pairs.tsv: sentences of
    Debian's manuals whose German translation aligns with the English original."""
    for label, en, de in read_tsv(path):
        stats[kind + "_raw"] += 1
        en = normalize_ws(en.replace("\u2019", "'"))
        de = normalize_ws(de)
        if acceptable(en, de):
            stats[kind + "_clean"] += 1
            yield label, en, de


def extract_man(path, stats):
    """Yield (man:<page>, en, de) from man_pairs.py's DATA/man/pairs.tsv: sentences of
    Debian's German man pages (manpages-de) that align with the English originals."""
    return extract_docs(path, stats, kind="man")


def extract_help(path, stats):
    """Yield (help:<source>, en, de) from help_pairs.py's DATA/help/pairs.tsv: sentences of
    applications' help translated element by element (LibreOffice, GNOME, GIMP)."""
    return extract_docs(path, stats, kind="help")


def extract_ddtp(path, stats):
    """Yield (ddtp:<package>, en, de) from ddtp_pairs.py's DATA/ddtp/pairs.tsv: sentences of
    Debian's package descriptions and their German translations (DDTP)."""
    return extract_docs(path, stats, kind="ddtp")


def extract_games(path, stats):
    """Yield (game:<name>, en, de) from game_pairs.py's DATA/games/messages.tsv: games'
    messages in formats of their own, through the gettext messages' cleaning, sentence
    splitting of long messages and filters."""
    long = collections.Counter()  # long_message_sentences' counts, as game_long_*
    for label, en, de in read_tsv(path):
        stats["game_raw"] += 1
        for e3, d3 in message_pairs(en.replace("\u2019", "'"), de, long):
            stats["game_clean"] += 1
            yield label, e3, d3
    for k, v in long.items():
        stats[k.replace("gettext_", "game_")] += v


def group(src):
    """The source group of a label: gettext:<pkg> -> gettext, doc:<pkg> -> doc,
    man:<page> -> man, help:<source> -> help, ddtp:<package> -> ddtp, game:<name> -> game."""
    return src.split(":", 1)[0] if src.startswith(("gettext:", "doc:", "man:", "help:", "ddtp:", "game:")) else src


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--packages", default=os.path.join(HERE, "packages.txt"))
    ap.add_argument("--ding", default="/usr/share/trans/de-en")
    ap.add_argument("--skip-fetch", action="store_true", help="use the cached .mo files only")
    ap.add_argument("--no-docs", action="store_true", help="leave out the manuals (doc_pairs.py)")
    ap.add_argument("--no-man", action="store_true", help="leave out the man pages (man_pairs.py)")
    ap.add_argument("--no-help", action="store_true",
                    help="leave out LibreOffice's, GNOME's and GIMP's help (help_pairs.py)")
    ap.add_argument("--no-ddtp", action="store_true",
                    help="leave out Debian's translated package descriptions (ddtp_pairs.py)")
    ap.add_argument("--no-games", action="store_true",
                    help="leave out the games' messages in formats of their own (game_pairs.py)")
    ap.add_argument("--no-opusfilter", action="store_true",
                    help="leave out opus_filters.py's opusfilter pass (language id, numerals, ...)")
    ap.add_argument("--per-package-cap", type=int, default=4000)
    ap.add_argument("--uncapped", default=",".join(find_packages.STORY_PACKAGES),
                    help="packages whose pairs are all kept (comma-separated; default: the games "
                         "with dialogue and story text, find_packages.STORY_PACKAGES)")
    ap.add_argument("--ding-phrase-cap", type=int, default=100000)
    ap.add_argument("--ding-word-cap", type=int, default=30000)
    ap.add_argument("--dev-permille", type=int, default=10)
    ap.add_argument("--test-permille", type=int, default=10)
    args = ap.parse_args()

    if not os.path.exists(args.ding):
        sys.exit(f"{args.ding} missing: apt-get install trans-de-en")
    if not args.skip_fetch:
        sys.argv = [sys.argv[0], "--data", args.data, "--packages", args.packages]
        fetch_debs.main()
    packages = fetch_debs.read_packages(args.packages)
    docs_tsv = os.path.join(args.data, "docs", "pairs.tsv")
    if not args.no_docs:
        import doc_pairs
        sys.argv = [sys.argv[0], "--data", args.data] + (["--skip-fetch"] if args.skip_fetch else [])
        doc_pairs.main()
    man_tsv = os.path.join(args.data, "man", "pairs.tsv")
    if not args.no_man:
        import man_pairs
        sys.argv = [sys.argv[0], "--data", args.data] + (["--skip-fetch"] if args.skip_fetch else [])
        man_pairs.main()
    help_tsv = os.path.join(args.data, "help", "pairs.tsv")
    if not args.no_help:
        import help_pairs
        sys.argv = [sys.argv[0], "--data", args.data] + (["--skip-fetch"] if args.skip_fetch else [])
        help_pairs.main()
    ddtp_tsv = os.path.join(args.data, "ddtp", "pairs.tsv")
    if not args.no_ddtp:
        import ddtp_pairs
        sys.argv = [sys.argv[0], "--data", args.data] + (["--skip-fetch"] if args.skip_fetch else [])
        ddtp_pairs.main()
    games_tsv = os.path.join(args.data, "games", "messages.tsv")
    if not args.no_games:
        import game_pairs
        sys.argv = [sys.argv[0], "--data", args.data] + (["--skip-fetch"] if args.skip_fetch else [])
        game_pairs.main()
    modir = os.path.join(args.data, "debs", "mo")

    stats = collections.Counter()
    pair_filter = None
    if not args.no_opusfilter:
        import opus_filters
        pair_filter = opus_filters.PairFilter()
    dropped = collections.Counter()
    seen = {}
    per_source = collections.Counter()
    # order matters for dedup (first wins): ding sentences, manuals, man pages, help,
    # package descriptions, games' own formats, gettext, ding phrases, ding words
    streams = [
        extract_ding(args.ding, {"ding-phrase": 0, "ding-word": 0}, stats),  # sentences only
        [] if args.no_docs else extract_docs(docs_tsv, stats),
        [] if args.no_man else extract_man(man_tsv, stats),
        [] if args.no_help else extract_help(help_tsv, stats),
        [] if args.no_ddtp else extract_ddtp(ddtp_tsv, stats),
        [] if args.no_games else extract_games(games_tsv, stats),
        extract_gettext(modir, packages, args.per_package_cap, stats,
                        {p.strip() for p in args.uncapped.split(",") if p.strip()}),
        extract_ding(args.ding, {"ding-sent": 0, "ding-phrase": args.ding_phrase_cap,
                                 "ding-word": args.ding_word_cap}, collections.Counter()),
    ]
    for stream in streams:
        for src, en, de in stream:
            k = norm_key(en)
            if not k or k in seen:
                stats["dup_dropped"] += 1
                continue
            if pair_filter is not None and (why := pair_filter(en, de)) is not None:
                stats["opusfilter_" + why] += 1
                dropped[group(src)] += 1
                continue
            seen[k] = (src, en, de)
            per_source[group(src)] += 1

    splits = {"train": [], "dev": [], "test": []}
    for k, (src, en, de) in seen.items():
        h = int(sha1(k)[:8], 16) % 1000
        if h < args.dev_permille:
            splits["dev"].append((k, src, en, de))
        elif h < args.dev_permille + args.test_permille:
            splits["test"].append((k, src, en, de))
        else:
            splits["train"].append((k, src, en, de))
    outdir = os.path.join(args.data, "corpus")
    os.makedirs(outdir, exist_ok=True)
    split_sources = {}
    for name, rows in splits.items():
        rows.sort(key=lambda r: sha1("order\t" + r[0]))  # deterministic shuffle
        if name != "train" and len(rows) < 1000:
            print(f"WARNING: {name} has only {len(rows)} pairs", file=sys.stderr)
        with open(os.path.join(outdir, name + ".en"), "w") as fe, \
                open(os.path.join(outdir, name + ".de"), "w") as fd, \
                open(os.path.join(outdir, name + ".src"), "w") as fs:
            for _k, src, en, de in rows:
                fe.write(en + "\n"); fd.write(de + "\n"); fs.write(src + "\n")
        split_sources[name] = dict(collections.Counter(group(r[1]) for r in rows))
    test_keys = {r[0] for r in splits["test"]}
    assert not any(r[0] in test_keys for r in splits["train"])
    pkg_counts = collections.Counter(src[8:] for src, _, _ in seen.values() if src.startswith("gettext:"))
    out = {
        "pairs_total": len(seen),
        "pairs_per_source": dict(per_source),
        "splits": {n: len(r) for n, r in splits.items()},
        "split_sources": split_sources,
        "extraction": dict(stats),
        "opusfilter_dropped_per_source": dict(dropped),
        "gettext_packages_used": len(pkg_counts),
        "gettext_top_packages": dict(pkg_counts.most_common(40)),
        "doc_per_package": dict(collections.Counter(src for src, _, _ in seen.values() if src.startswith("doc:"))),
        "man_pages_used": len({src for src, _, _ in seen.values() if src.startswith("man:")}),
        "help_per_source": dict(collections.Counter(src for src, _, _ in seen.values() if src.startswith("help:"))),
        "ddtp_packages_used": len({src for src, _, _ in seen.values() if src.startswith("ddtp:")}),
        "game_per_source": dict(collections.Counter(src for src, _, _ in seen.values() if src.startswith("game:"))),
    }
    with open(os.path.join(outdir, "stats.json"), "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
    with open(os.path.join(outdir, "gettext_per_package.json"), "w") as f:
        json.dump(dict(sorted(pkg_counts.items())), f, indent=0)
    print(json.dumps({k: out[k] for k in ("pairs_total", "pairs_per_source", "splits")}, indent=1))


if __name__ == "__main__":
    main()
