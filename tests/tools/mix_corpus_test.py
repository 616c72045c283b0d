#!/usr/bin/env python3
"""Tests of tools/train/mix_corpus.py (the continued-training mix) on a small corpus
written here. Standard library only; run by ctest (tools_mix_corpus) or directly."""
import collections
import json
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "train"))
import mix_corpus  # noqa: E402


class Mix(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.data = os.path.join(self.tmp, "data")
        corpus = os.path.join(self.data, "corpus")
        os.makedirs(corpus)
        self.spm = os.path.join(self.tmp, "spm")
        os.makedirs(self.spm)
        rows = [("gettext:pkg%d" % (i % 7), f"message {i}", f"Nachricht {i}") for i in range(2000)]
        rows += [("ddtp:p%d" % i, f"description {i}", f"Beschreibung {i}") for i in range(300)]
        rows += [("ding-sent", f"sentence {i}", f"Satz {i}") for i in range(100)]
        for split, part in (("train", rows), ("dev", rows[:5]), ("test", rows[5:9])):
            for ext, col in (("src", 0), ("en", 1), ("de", 2)):
                with open(os.path.join(corpus, f"{split}.{ext}"), "w") as f:
                    f.writelines(r[col] + "\n" for r in part)
        self.rows = rows

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_mix(self, *extra):
        argv = sys.argv
        sys.argv = ["mix_corpus.py", "--data", self.data, "--out", os.path.join(self.tmp, "out"),
                    "--spm", self.spm, *extra]
        try:
            mix_corpus.main()
        finally:
            sys.argv = argv
        out = os.path.join(self.tmp, "out", "corpus")
        cols = {}
        for ext in ("src", "en", "de"):
            with open(os.path.join(out, f"train.{ext}")) as f:
                cols[ext] = [l.rstrip("\n") for l in f]
        return out, list(zip(cols["src"], cols["en"], cols["de"]))

    def test_kept_sources_whole_and_a_share_of_the_rest(self):
        out, mixed = self.run_mix("--keep", "ddtp,ding-sent", "--rest", "0.25", "--seed", "3")
        kinds = collections.Counter(r[0].split(":")[0] for r in mixed)
        self.assertEqual(kinds["ddtp"], 300)
        self.assertEqual(kinds["ding-sent"], 100)
        self.assertTrue(400 <= kinds["gettext"] <= 600, kinds)  # 25% of 2000, give or take
        # every row is one of the corpus's, with its own English and German (aligned)
        self.assertTrue(set(mixed) <= set(self.rows))
        self.assertEqual(len(set(mixed)), len(mixed))
        with open(os.path.join(out, "mix.json")) as f:
            info = json.load(f)
        self.assertEqual(info["pairs"], len(mixed))
        self.assertEqual(info["sources"]["gettext"]["of"], 2000)
        # dev/test and the vocabulary are the full build's
        self.assertEqual(os.path.realpath(os.path.join(out, "dev.en")),
                         os.path.realpath(os.path.join(self.data, "corpus", "dev.en")))
        self.assertEqual(os.path.realpath(os.path.join(self.tmp, "out", "spm")), os.path.realpath(self.spm))
        # deterministic, and a new mix replaces the old one
        _, again = self.run_mix("--keep", "ddtp,ding-sent", "--rest", "0.25", "--seed", "3")
        self.assertEqual(again, mixed)
        _, none = self.run_mix("--keep", "ddtp", "--rest", "0")
        self.assertEqual(collections.Counter(r[0].split(":")[0] for r in none), {"ddtp": 300})

    def test_keep_a_whole_label(self):
        # one package of a kind whole, the kind's others by the share
        _, mixed = self.run_mix("--keep", "gettext:pkg3,ding-sent", "--rest", "0")
        self.assertEqual(collections.Counter(r[0] for r in mixed), {"gettext:pkg3": 286, "ding-sent": 100})
        with self.assertRaises(SystemExit) as e:
            self.run_mix("--keep", "gettext:nosuchpkg")
        self.assertIn("gettext:nosuchpkg", str(e.exception))

    def test_extra_pairs_added_without_held_out_sentences(self):
        extra = os.path.join(self.tmp, "bt.tsv")
        with open(extra, "w") as f:
            f.write("bt:fortune-de/zitate\tLife is a dream.\tDas Leben ist ein Traum.\n")
            f.write("bt:fortune-de/zitate\tmessage 0\tsynthetic\n")        # English side is a dev sentence
            f.write("bt:fortune-de/witze\tsynthetic\tNachricht 6\n")       # German side is a test sentence
            f.write("bt:fortune-de/witze\tA hole in the browser.\tEin Loch im Browser.\n")
        _, mixed = self.run_mix("--keep", "ding-sent", "--rest", "0", "--extra", extra)
        bt = [r for r in mixed if r[0].startswith("bt:")]
        self.assertEqual(sorted(bt), [("bt:fortune-de/witze", "A hole in the browser.", "Ein Loch im Browser."),
                                      ("bt:fortune-de/zitate", "Life is a dream.", "Das Leben ist ein Traum.")])
        self.assertEqual(len(mixed), 102)
        with open(os.path.join(self.tmp, "out", "corpus", "mix.json")) as f:
            self.assertEqual(json.load(f)["sources"]["bt"]["pairs"], 2)
        _, tagged = self.run_mix("--keep", "ding-sent", "--rest", "0", "--extra", extra,
                                 "--extra-tag", "<bt>", "--extra-tag-side", "en")
        self.assertIn(("bt:fortune-de/zitate", "<bt> Life is a dream.", "Das Leben ist ein Traum."), tagged)
        self.assertEqual(sum(r[1].startswith("<bt> ") for r in tagged), 2)
        _, none = self.run_mix("--keep", "ding-sent", "--rest", "0", "--extra", extra, "--extra-share", "0")
        self.assertEqual(len(none), 100)
        with open(extra, "a") as f:
            f.write("no tabs here\n")
        with self.assertRaises(SystemExit) as e:
            self.run_mix("--keep", "ddtp", "--extra", extra)
        self.assertIn("bt.tsv:5", str(e.exception))

    def test_bad_arguments(self):
        with self.assertRaises(SystemExit) as e:
            self.run_mix("--keep", "nosuchsource")
        self.assertIn("nosuchsource", str(e.exception))
        with self.assertRaises(SystemExit):
            self.run_mix("--rest", "1.5")


if __name__ == "__main__":
    unittest.main()
