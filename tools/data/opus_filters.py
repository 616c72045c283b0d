"""The corpus' pair filters from opusfilter (PyPI; Aulamo et al. 2020), run by build_corpus.py
after its own cleaning and before deduplication.

Each pair (English, German) passes every filter below or is dropped; the reason counted
is the first filter it fails:

* ``script``: CharacterScoreFilter, every letter of both sides in Latin script.
* ``length-ratio``: LengthRatioFilter, character lengths within a factor of 2.5; where
  the longer side has at most 12 characters or neither side more than two words, word
  counts within a factor of 3 instead (a word and its compound: "dispensary",
  "Medikamentenausgabestelle").
* ``long-word``: LongWordFilter, no "word" of 70 characters or more (glued paths,
  hashes, base64; German compounds and keyword lists stay).
* ``numerals``: NonZeroNumeralsFilter, where both sides have digits: their non-zero
  digits at least half alike (misaligned pairs, wrong numbers). One side's "1" against
  the other's "ein" is a translation, so a side without digits is not compared.
* ``repetition``: RepetitionFilter, no substring of 6+ characters four times in a row
  (format strings such as "%u.%u.%u." stay).
* ``language-id``: LangidFilter's identifier (py3langid, restricted to English and
  German), on each side's words (placeholders, paths, numbers left out), where both sides
  have at least ``LID_MIN_WORDS`` of them: dropped when one side
  is the other language with probability ``LID_MIN_PROB`` or more: the msgstr left in
  English, German on the English side. Shorter UI strings ("Status", "Tag löschen") are
  a coin toss for any identifier, and so is a wrong guess below that probability.

Deduplication stays build_corpus.py's own (normalised English side, first occurrence in
source order wins), since the same key keeps test sentences out of train.
"""

import re

LID_MIN_WORDS = 5
LID_MIN_PROB = 0.99
# Words language identification looks at: letters (and inner apostrophes, hyphens) only;
# placeholders (%s, {0}, %(name)s), paths, option names and numbers say nothing of the language.
_WORD = re.compile(r"(?<![%{$\\/_.\w-])[^\W\d_]+(?:['’-][^\W\d_]+)*(?![\w}/_])")


class PairFilter:
    """keep(en, de) -> None when the pair passes, else the name of the first filter failed."""

    def __init__(self):
        try:
            from opusfilter.filters import (CharacterScoreFilter, LengthRatioFilter, LongWordFilter,
                                            NonZeroNumeralsFilter, RepetitionFilter)
            from opusfilter.lid import LangidFilter
        except ImportError as e:
            raise SystemExit(f"opusfilter is missing ({e}): pip install -r tools/requirements.txt, "
                             "or build_corpus.py --no-opusfilter")
        self.filters = [
            ("script", CharacterScoreFilter(scripts=["Latin", "Latin"], thresholds=[1.0, 1.0])),
            ("length-ratio", LengthRatioFilter(threshold=2.5, unit="char")),
            ("long-word", LongWordFilter(threshold=70)),
            ("numerals", NonZeroNumeralsFilter(threshold=0.5)),
            ("repetition", RepetitionFilter(threshold=3, min_length=6)),
        ]
        self.short_ratio = LengthRatioFilter(threshold=3.01, unit="word")
        self.lid = LangidFilter(languages=["en", "de"], langid_languages=["en", "de"])

    def __call__(self, en, de):
        pair = [(en, de)]
        for name, f in self.filters:
            if name == "length-ratio" and (max(len(en), len(de)) <= 12 or max(len(en.split()), len(de.split())) <= 2):
                f = self.short_ratio
            if name == "numerals" and not (any(c.isdigit() for c in en) and any(c.isdigit() for c in de)):
                continue
            if not f.accept(next(iter(f.score(pair)))):
                return name
        words = [_WORD.findall(en), _WORD.findall(de)]
        if min(len(words[0]), len(words[1])) >= LID_MIN_WORDS:
            for w, lang in zip(words, ("en", "de")):
                guess, prob = self.lid.identifier.classify(" ".join(w))
                if guess != lang and prob >= LID_MIN_PROB:
                    return "language-id"
        return None


def main():
    """Reports what the filters drop from existing corpus files: opus_filters.py DIR SPLIT."""
    import collections
    import os
    import sys
    import time

    d, split = sys.argv[1], sys.argv[2]
    f = PairFilter()
    counts = collections.Counter()
    examples = collections.defaultdict(list)
    t0 = time.time()
    with open(os.path.join(d, split + ".en")) as fe, open(os.path.join(d, split + ".de")) as fd, \
            open(os.path.join(d, split + ".src")) as fs:
        for en, de, src in zip(fe, fd, fs):
            en, de, src = en.rstrip("\n"), de.rstrip("\n"), src.rstrip("\n")
            why = f(en, de)
            counts[why or "kept"] += 1
            if why and len(examples[why]) < 12:
                examples[why].append(f"{src}\t{en}\t{de}")
    print(dict(counts), f"{time.time() - t0:.1f} s")
    for why, ex in examples.items():
        print("##", why)
        print("\n".join(ex))


if __name__ == "__main__":
    main()
