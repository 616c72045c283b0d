#!/usr/bin/env python3
"""Everyday sentences for the bundled models by back-translation (Sennrich et al. 2016) of
Debian's fortune cookies: genuine German from fortunes-de (quotations, jokes, proverbs,
sayings) and genuine English from fortunes and fortunes-min, each put through the model of
the other direction. The genuine side is always the target: the German fortunes make
(synthetic English, German) pairs for English->German, the English ones (synthetic German,
English) pairs for German->English. The corpus' parallel sources are software text and
dictionary entries; these teach the decoder to write ordinary sentences.
English has a second everyday source: the usage examples of WordNet 3.0's glosses
(wordnet-base: "it was oppressively hot in the office", "the kids were playing outside all
day"), the short plain sentences and phrases the fortunes lack; --no-wordnet leaves them out.

  apt-get install fortunes-de fortunes fortunes-min wordnet-base
  python3 tools/data/fortune_bt.py --data /work/edgemt-data \
      --translate build/release/runtime/translate

Writes DATA/fortunes/{de,en}.txt (the monolingual sentences, "origin<TAB>sentence") and
DATA/bt/{en-de,de-en}.tsv ("bt:<origin><TAB>English<TAB>German", origin
fortune-<lang>/<file> or wordnet-en/<noun|verb|adj|adv>: the layout
of a corpus build's pairs, for mix_corpus.py --extra) and DATA/bt/stats.json.
--no-translate stops after the sentences.

Sentences: a fortune's attribution ("-- Goethe") and stage lines go; its lines are joined
and split into sentences; a sentence is kept with 3 to 40 words, mostly letters, no URL,
e-mail or code, in its language by py3langid (restricted to English and German, p >= 0.9),
and for German without the spellings the 1996 reform dropped ("daß", "muß", "Schluß"),
so that the English->German model is not taught to write them. Dev and test sentences of
the corpus build (either side) are left out, and so are duplicates. A back-translated pair
passes the corpus' opusfilter pass (opus_filters.PairFilter) and a tighter length check
(German 0.7 to 1.8 times the English characters), which drops most truncated or rambling
translations of the weaker model.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import unicodedata

FORTUNE_DIRS = {"de": ["/usr/share/games/fortunes/de"], "en": ["/usr/share/games/fortunes"]}
WORDNET_DIR = "/usr/share/wordnet"
WORDNET_POS = ("noun", "verb", "adj", "adv")
# Files that are not prose: pictures, name lists, IRC logs, fortune's own test texts,
# and the offensive collections fortune keeps apart.
SKIP_FILES = {
    "de": {"asciiart", "namen", "vornamen", "channel-debian.fortunes", "infodrom", "linuxtag", "quiz"},
    "en": {"art", "ascii-art", "translate-me", "zippy", "perl", "knghtbrd", "linux", "debian"},
}
MIN_WORDS, MAX_WORDS, MAX_CHARS = 3, 40, 300
LID_MIN_PROB = 0.9

# Spellings of before the 1996 reform: ß after a short vowel, where the reform writes ss
# ("daß", "muß", "läßt", "gefaßt", "Schluß", "bißchen", "Streß"). ß after a long vowel or a
# diphthong stays ("Spaß", "Straße", "Gruß", "Muße", "süß", "mäßig", "weiß", "ließ").
_OLD_DE = re.compile(
    r"(?:da|na|ha|la|fa|(?<!s)pa)ß|(?:m|l|k|n|sch|g|dr)uß(?!e\b|en\b|estunde)|(?:l|h|gr|bl)äß|"
    r"(?:m|k)üß(?!ig)|(?<![ae])iß|(?<!i)eß",
    re.IGNORECASE)
_ATTRIBUTION = re.compile(r"^\s*(?:--|—|–|~~)\s*\S")
_URL = re.compile(r"(?:https?://|www\.|\S+@\S+\.\w|\.(?:com|org|net|de)\b|[<>{}\[\]|\\=#_^~*]|\$\w)")
_SENT_END = re.compile(r"(?<=[.!?…])[\"'“”»«]?\s+(?=[\"'„“»«(]?[A-ZÄÖÜ0-9])")
_ABBREV = re.compile(r"(?:\b(?:z\.B|u\.a|d\.h|usw|bzw|ca|Dr|Prof|Hr|Fr|Nr|St|Mr|Mrs|Ms|Jr|Sr|vs|etc|e\.g|i\.e|"
                     r"Chr|v|n|S|No|Inc|Ltd|Co|Mt|Gen|Col|Lt|Rev|Gov|Sen|Rep|Jan|Feb|Mar|Apr|Aug|Sep|Sept|Oct|Nov|Dec)"
                     r"|\b[A-Z])\.$")


def read_fortunes(path):
    """The fortunes of one file: text between lines holding only '%'."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    out, cur = [], []
    for line in text.split("\n"):
        if line.strip() == "%":
            if cur:
                out.append("\n".join(cur))
            cur = []
        else:
            cur.append(line.rstrip())
    if any(l.strip() for l in cur):
        out.append("\n".join(cur).strip("\n"))
    return out


def split_sentences(text):
    """Sentences of one paragraph; no split after an abbreviation or an initial."""
    parts = _SENT_END.split(text)
    out = []
    for p in parts:
        if out and _ABBREV.search(out[-1]):
            out[-1] += " " + p
        else:
            out.append(p)
    return [s.strip() for s in out if s.strip()]


def fortune_sentences(fortune):
    """Sentences of one fortune: attribution lines dropped, lines of a paragraph joined
    (a hyphen at a line end joins the word), dialogue dashes and outer quotes left off."""
    paras, cur = [], []
    for line in fortune.split("\n"):
        if _ATTRIBUTION.match(line):
            break  # the attribution and whatever follows it (source, year)
        if not line.strip():
            if cur:
                paras.append(cur)
            cur = []
            continue
        cur.append(line.strip())
    if cur:
        paras.append(cur)
    sents = []
    for lines in paras:
        text = ""
        for line in lines:
            if text.endswith("-") and not text.endswith(" -") and line[:1].islower():
                text = text[:-1] + line
            else:
                text = (text + " " + line) if text else line
        text = re.sub(r"\s+", " ", text)
        for s in split_sentences(text):
            s = re.sub(r"^(?:[-–—]\s+|\w{1,20}:\s+(?=[\"„“»]))", "", s)  # "- Eine Lawine", "A: \"...\""
            s = s.strip()
            if len(s) >= 2 and s[0] in "\"„“»«'" and s[-1] in "\"“”«»'" and sum(s.count(q) for q in "\"„“”»«") == 2:
                s = s[1:-1].strip()
            sents.append(s)
    return sents


def wordnet_examples(path):
    """The usage examples of one WordNet data file (data.noun, ...): in each synset's gloss,
    after its "|", the "; "-separated parts that are one double-quoted text ("an urban
    area; \"she lives in a small town\""). WordNet writes them lower case, without a stop:
    a capital is put first. A part with more quotes (a quoted word, '"the word "bank" has
    two meanings"') or with an attribution after its quote is left out."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("  "):  # the license header
                continue
            _, sep, gloss = line.partition("|")
            if not sep:
                continue
            for part in re.split(r";\s*", gloss.strip()):
                if len(part) < 3 or part[0] != '"' or part[-1] != '"' or part.count('"') != 2:
                    continue
                q = re.sub(r"\s+", " ", part[1:-1]).strip()
                if q:
                    out.append(q[0].upper() + q[1:])
    return out


class SentenceFilter:
    """keep(sentence) -> None or the reason it is dropped."""

    def __init__(self, lang):
        self.lang = lang
        self.identifier = None
        try:
            import py3langid.langid as langid  # the corpus build's identifier (opus_filters.py)
            self.identifier = langid.LanguageIdentifier.from_pickled_model(langid.MODEL_FILE, norm_probs=True)
            self.identifier.set_languages(["en", "de"])
        except Exception as e:  # noqa: BLE001: the filter is optional, said so below
            print(f"fortune_bt: no language identification ({e}); pip install py3langid==0.2.2",
                  file=sys.stderr)

    def keep(self, s):
        words = s.split()
        if not MIN_WORDS <= len(words) <= MAX_WORDS or len(s) > MAX_CHARS:
            return "length"
        letters = sum(c.isalpha() for c in s)
        if letters < 0.7 * sum(not c.isspace() for c in s):
            return "letters"
        if s[0].islower() or not s[0].isalnum() and s[0] not in "\"„“»«'(":
            return "fragment"
        if _URL.search(s):
            return "code"
        if any(unicodedata.category(c) in ("Co", "Cs", "Cc") for c in s):
            return "control"
        if s.count('"') % 2 or s.count("(") != s.count(")"):
            return "unbalanced"
        if self.lang == "de" and _OLD_DE.search(s):
            return "old-spelling"
        if self.identifier is not None:
            lang, prob = self.identifier.classify(s)
            if lang != self.lang or prob < LID_MIN_PROB:
                return "language"
        return None


def held_out(data):
    """Normalised dev and test sentences of the corpus build, both sides."""
    out = set()
    for split in ("dev", "test"):
        for lang in ("en", "de"):
            p = os.path.join(data, "corpus", f"{split}.{lang}")
            if os.path.exists(p):
                with open(p, encoding="utf-8") as f:
                    out.update(norm(l) for l in f)
    return out


def norm(s):
    return re.sub(r"\W+", " ", s.lower()).strip()


def sources(lang, dirs, skip, wordnet_dir):
    """(origin, sentence) of every monolingual source of a language, in a fixed order."""
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            if (not os.path.isfile(path) or "." in name or name in skip):
                continue  # name.dat (index), name.u8 (link to name)
            for fortune in read_fortunes(path):
                for s in fortune_sentences(fortune):
                    yield f"fortune-{lang}/{name}", s
    if lang == "en" and wordnet_dir:
        for pos in WORDNET_POS:
            path = os.path.join(wordnet_dir, "data." + pos)
            if os.path.isfile(path):
                for s in wordnet_examples(path):
                    yield f"wordnet-en/{pos}", s


def collect(lang, dirs, skip, held, wordnet_dir=None):
    """Filtered, deduplicated sentences (origin, sentence) and the counts of the dropped
    ones by reason and by origin kind (fortune, wordnet)."""
    filt = SentenceFilter(lang)
    seen = set()
    kept, dropped, per_kind = [], {}, {}
    for origin, s in sources(lang, dirs, skip, wordnet_dir):
        why = filt.keep(s)
        key = norm(s)
        if why is None and key in held:
            why = "held-out"
        if why is None and key in seen:
            why = "duplicate"
        if why:
            dropped[why] = dropped.get(why, 0) + 1
            continue
        seen.add(key)
        kept.append((origin, s))
        kind = origin.split("-", 1)[0]
        per_kind[kind] = per_kind.get(kind, 0) + 1
    return kept, dropped, per_kind


def translate(binary, src, tgt, sents, beam, threads):
    """The sentences through edgemt's translate (one line per sentence, in order)."""
    cmd = [binary, "--from", src, "--to", tgt, "--no-split", "--beam", str(beam),
           "--threads", str(threads), "--batch", "32", "--max-length", "128"]
    try:
        res = subprocess.run(cmd, input="".join(s + "\n" for s in sents), capture_output=True,
                             text=True, check=False)
    except OSError as e:
        raise SystemExit(f"cannot run {binary}: {e.strerror or e}")
    if res.returncode != 0:
        raise SystemExit(f"translate failed ({res.returncode}): {res.stderr[-2000:]}")
    out = res.stdout.split("\n")
    if out and out[-1] == "":
        out.pop()
    if len(out) != len(sents):
        raise SystemExit(f"translate gave {len(out)} lines for {len(sents)}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--translate", default="build/release/runtime/translate")
    ap.add_argument("--no-translate", action="store_true")
    ap.add_argument("--beam", type=int, default=4)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--de-dir", action="append", help="folders of German fortune files")
    ap.add_argument("--en-dir", action="append", help="folders of English fortune files")
    ap.add_argument("--wordnet-dir", default=WORDNET_DIR, help="WordNet's data.{noun,verb,adj,adv}")
    ap.add_argument("--no-wordnet", action="store_true", help="English from the fortunes only")
    args = ap.parse_args()
    dirs = {"de": args.de_dir or FORTUNE_DIRS["de"], "en": args.en_dir or FORTUNE_DIRS["en"]}
    if not args.no_translate and not (os.path.isfile(args.translate) and os.access(args.translate, os.X_OK)):
        raise SystemExit(f"no translate program at {args.translate}: build it (scripts/build or "
                         "scripts/quickstart) and pass --translate PATH, or use --no-translate")

    held = held_out(args.data)
    mono_dir = os.path.join(args.data, "fortunes")
    bt_dir = os.path.join(args.data, "bt")
    os.makedirs(mono_dir, exist_ok=True)
    stats = {}
    sents = {}
    for lang in ("de", "en"):
        wordnet_dir = None if args.no_wordnet else args.wordnet_dir
        if lang == "en" and wordnet_dir and not os.path.isfile(os.path.join(wordnet_dir, "data.noun")):
            raise SystemExit(f"no WordNet in {wordnet_dir}: apt-get install wordnet-base, or --no-wordnet")
        kept, dropped, per_kind = collect(lang, dirs[lang], SKIP_FILES[lang], held, wordnet_dir)
        if not kept:
            raise SystemExit(f"no {lang} fortunes in {dirs[lang]}: apt-get install "
                             + ("fortunes-de" if lang == "de" else "fortunes fortunes-min"))
        sents[lang] = kept
        with open(os.path.join(mono_dir, f"{lang}.txt"), "w", encoding="utf-8") as f:
            f.writelines(f"{n}\t{s}\n" for n, s in kept)
        stats[lang] = {"sentences": len(kept), "by_source": per_kind, "dropped": dict(sorted(dropped.items()))}
        print(f"{lang}: {len(kept)} sentences {per_kind}; dropped {stats[lang]['dropped']}")
    if args.no_translate:
        return
    os.makedirs(bt_dir, exist_ok=True)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from opus_filters import PairFilter
    pair_filter = PairFilter()
    for lang, other in (("de", "en"), ("en", "de")):
        names = [n for n, _ in sents[lang]]
        genuine = [s for _, s in sents[lang]]
        synthetic = translate(args.translate, lang, other, genuine, args.beam, args.threads)
        pair = f"{other}-{lang}"  # the direction the pairs train: synthetic source, genuine target
        rows, dropped = [], {}
        for n, g, y in zip(names, genuine, synthetic):
            y = y.strip()
            en, de = (y, g) if lang == "de" else (g, y)
            why = "empty" if not y or "\t" in y else None
            if why is None and not 0.7 <= len(de) / max(1, len(en)) <= 1.8:
                why = "length"
            if why is None:
                why = pair_filter(en, de)
            if why:
                dropped[why] = dropped.get(why, 0) + 1
                continue
            rows.append(f"bt:{n}\t{en}\t{de}\n")
        tmp = os.path.join(bt_dir, f"{pair}.tsv.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines(rows)
        os.replace(tmp, os.path.join(bt_dir, f"{pair}.tsv"))
        stats[f"bt-{pair}"] = {"pairs": len(rows), "beam": args.beam, "dropped": dict(sorted(dropped.items()))}
        print(f"{pair}: {len(rows)} back-translated pairs; dropped {stats[f'bt-{pair}']['dropped']}")
    with open(os.path.join(bt_dir, "stats.json"), "w") as f:
        json.dump(stats, f, indent=1)


if __name__ == "__main__":
    main()
