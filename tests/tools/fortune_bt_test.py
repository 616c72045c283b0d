#!/usr/bin/env python3
"""Tests of tools/data/fortune_bt.py (everyday sentences from fortune files for
back-translation) on fortune files written here; the translation step runs a stand-in for
edgemt's translate. Standard library only; run by ctest (tools_fortune_bt) or directly."""
import os
import shutil
import stat
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "data"))
import fortune_bt  # noqa: E402


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class Sentences(unittest.TestCase):
    def test_fortune_to_sentences(self):
        f = ("Wenn ein Seemann nicht weiss, welches Ufer er ansteuern soll, dann ist\n"
             "kein Wind der richtige. Das sagte er oft.\n"
             "\t\t-- Lucius Annaeus Seneca (4-65 n.Chr.)\n")
        self.assertEqual(fortune_bt.fortune_sentences(f),
                         ["Wenn ein Seemann nicht weiss, welches Ufer er ansteuern soll, dann ist kein Wind der richtige.",
                          "Das sagte er oft."])
        # a hyphen at a line end joins the word; an abbreviation does not end a sentence
        self.assertEqual(fortune_bt.fortune_sentences("Er kam z.B. mit dem Fahr-\nrad. Dann ging er."),
                         ["Er kam z.B. mit dem Fahrrad.", "Dann ging er."])
        # paragraphs are apart; dialogue dashes and a whole sentence's quotes go
        self.assertEqual(fortune_bt.fortune_sentences('"Wie geht es dir?"\n\n- Danke, gut.'),
                         ["Wie geht es dir?", "Danke, gut."])
        self.assertEqual(fortune_bt.fortune_sentences("Dr. Smith saw Mr. Jones. He left."),
                         ["Dr. Smith saw Mr. Jones.", "He left."])

    def test_read_fortunes(self):
        tmp = tempfile.mkdtemp()
        try:
            p = os.path.join(tmp, "f")
            write(p, "one\nline\n%\ntwo\n%\n%\nthree\n")
            self.assertEqual(fortune_bt.read_fortunes(p), ["one\nline", "two", "three"])
        finally:
            shutil.rmtree(tmp)

    def test_old_spelling(self):
        for w in "daß muß läßt gefaßt Schluß bißchen Streß verläßt ißt vergißt Kuß Genuß Fluß häßlich müßte".split():
            self.assertTrue(fortune_bt._OLD_DE.search(w), w)
        for w in ("Spaß Straße Gruß Muße süß mäßig weiß ließ heißt fließt Fuß Maß groß Grüße genießt "
                  "gemäß saß Ruß Buße müßig Gefäß schließlich beißt außen dass muss").split():
            self.assertIsNone(fortune_bt._OLD_DE.search(w), w)

    def test_filter(self):
        f = fortune_bt.SentenceFilter("de")
        f.identifier = None  # the result must not depend on py3langid being installed
        self.assertIsNone(f.keep("Das Leben ist ein Traum."))
        self.assertEqual(f.keep("Ja, gut."), "length")
        self.assertEqual(f.keep(" ".join(["Wort"] * 41)), "length")
        self.assertEqual(f.keep("Er sagte, daß er kommt."), "old-spelling")
        self.assertEqual(f.keep("Siehe http://example.org für mehr."), "code")
        self.assertEqual(f.keep("und dann ging er nach Hause."), "fragment")
        self.assertEqual(f.keep('Er sagte "nein und ging.'), "unbalanced")
        self.assertEqual(f.keep("1234 5678 9012 3456 7890 ab."), "letters")
        self.assertIsNone(fortune_bt.SentenceFilter.keep(
            type("F", (), {"lang": "en", "identifier": None})(), "He said that he must go."))


class Main(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.de_dir = os.path.join(self.tmp, "de")
        self.en_dir = os.path.join(self.tmp, "en")
        write(os.path.join(self.de_dir, "zitate"),
              "Das Leben ist ein Traum.\n\t-- Calderón\n%\nDie meisten Leute planen ihre Ferien besser als ihr Leben.\n"
              "%\nDas Leben ist ein Traum.\n%\nEr weiß, daß es stimmt.\n%\nDer Test ist hier geheim.\n")
        write(os.path.join(self.de_dir, "zitate.dat"), "\x00\x01binary")
        write(os.path.join(self.de_dir, "asciiart"), "Hier ist ein schönes Bild.\n")
        write(os.path.join(self.en_dir, "wisdom"), "If you have to hate, hate gently.\n%\nYes, indeed.\n")
        # WordNet data files: a license header (two spaces), synsets whose gloss holds
        # usage examples after "|"
        self.wordnet = os.path.join(self.tmp, "wordnet")
        write(os.path.join(self.wordnet, "data.noun"),
              "  1 This software and database is being provided ... \"AS IS\" without warranty\n"
              "08672199 15 n 01 town 0 001 @ 08665504 n 0000 | an urban area; "
              "\"she lives in a small town by the sea\"; \"the town is quiet\"; \"to be or not\" - Shakespeare\n"
              "06286395 10 n 01 word 0 000 | a unit of language; \"the word \"bank\" has two meanings\"\n"
              "00000001 03 n 01 test 0 000 | no example here\n")
        write(os.path.join(self.wordnet, "data.verb"),
              "01835496 38 v 01 travel 0 000 | change location; \"the children were playing in the garden\"; "
              "\"if you have to hate, hate gently\"\n")
        self.data = os.path.join(self.tmp, "data")
        write(os.path.join(self.data, "corpus", "test.de"), "Der Test ist hier geheim.\n")
        self.fake = os.path.join(self.tmp, "translate")
        # stand-in for translate: upper-cases each line; one line of output per line in
        write(self.fake, "#!/bin/sh\ntr 'a-zäöü' 'A-ZÄÖÜ'\n")
        os.chmod(self.fake, os.stat(self.fake).st_mode | stat.S_IEXEC)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_main(self, *extra):
        argv = sys.argv
        sys.argv = ["fortune_bt.py", "--data", self.data, "--de-dir", self.de_dir, "--en-dir", self.en_dir,
                    "--wordnet-dir", self.wordnet, *extra]
        try:
            fortune_bt.main()
        finally:
            sys.argv = argv

    def lines(self, *parts):
        with open(os.path.join(self.data, *parts), encoding="utf-8") as f:
            return [l.rstrip("\n") for l in f]

    def test_sentences_written_without_held_out_duplicates_or_old_spelling(self):
        self.run_main("--no-translate")
        self.assertEqual(self.lines("fortunes", "de.txt"),
                         ["fortune-de/zitate\tDas Leben ist ein Traum.",
                          "fortune-de/zitate\tDie meisten Leute planen ihre Ferien besser als ihr Leben."])
        # WordNet's examples after the fortunes, capitalised; the fortune's duplicate and the
        # example with a quoted word in it are left out
        self.assertEqual(self.lines("fortunes", "en.txt"),
                         ["fortune-en/wisdom\tIf you have to hate, hate gently.",
                          "wordnet-en/noun\tShe lives in a small town by the sea",
                          "wordnet-en/noun\tThe town is quiet",
                          "wordnet-en/verb\tThe children were playing in the garden"])
        self.assertFalse(os.path.exists(os.path.join(self.data, "bt")))

    def test_no_wordnet(self):
        self.run_main("--no-translate", "--no-wordnet")
        self.assertEqual(self.lines("fortunes", "en.txt"), ["fortune-en/wisdom\tIf you have to hate, hate gently."])

    def test_missing_wordnet_is_a_clear_error(self):
        shutil.rmtree(self.wordnet)
        with self.assertRaises(SystemExit) as e:
            self.run_main("--no-translate")
        self.assertIn("wordnet-base", str(e.exception))

    def test_wordnet_examples(self):
        got = fortune_bt.wordnet_examples(os.path.join(self.wordnet, "data.noun"))
        self.assertEqual(got, ["She lives in a small town by the sea", "The town is quiet"])

    def test_translate_keeps_lines_in_order(self):
        self.assertEqual(fortune_bt.translate(self.fake, "de", "en", ["a b", "c"], 4, 1), ["A B", "C"])
        bad = os.path.join(self.tmp, "bad")
        write(bad, "#!/bin/sh\nhead -n 1\n")
        os.chmod(bad, 0o755)
        with self.assertRaises(SystemExit) as e:
            fortune_bt.translate(bad, "de", "en", ["a", "b"], 4, 1)
        self.assertIn("1 lines for 2", str(e.exception))
        fail = os.path.join(self.tmp, "fail")
        write(fail, "#!/bin/sh\necho broken >&2\nexit 3\n")
        os.chmod(fail, 0o755)
        with self.assertRaises(SystemExit) as e:
            fortune_bt.translate(fail, "de", "en", ["a"], 4, 1)
        self.assertIn("broken", str(e.exception))

    def test_missing_translate_program_is_a_clear_error(self):
        missing = os.path.join(self.tmp, "no-such-translate")
        with self.assertRaises(SystemExit) as e:
            self.run_main("--translate", missing)
        self.assertIn("no translate program at " + missing, str(e.exception))
        self.assertFalse(os.path.exists(os.path.join(self.data, "fortunes")))  # checked before the slow part
        with self.assertRaises(SystemExit) as e:  # the helper itself, too
            fortune_bt.translate(missing, "de", "en", ["a"], 4, 1)
        self.assertIn("cannot run " + missing, str(e.exception))

    def test_no_fortunes_is_an_error(self):
        shutil.rmtree(self.de_dir)
        with self.assertRaises(SystemExit) as e:
            self.run_main("--no-translate")
        self.assertIn("fortunes-de", str(e.exception))


if __name__ == "__main__":
    unittest.main()
