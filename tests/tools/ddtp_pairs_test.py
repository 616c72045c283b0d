#!/usr/bin/env python3
"""Tests of tools/data/ddtp_pairs.py (Debian's translated package descriptions) on small
Translation-en / Translation-de indexes written here in the archive's format.
Standard library and apt's apt-helper; run by ctest (tools_ddtp_pairs) or directly."""
import json
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "data"))
import ddtp_pairs  # noqa: E402

EN = """Package: libfoo-perl
Description-md5: 11111111111111111111111111111111
Description-en: Perl module for replicating events to several event handlers
 Foo reads events from one source. It sends each of them to every handler.
 .
 Features:
  * fast delivery of events to many handlers at
    once
  * small memory use

Package: bar
Description-md5: 22222222222222222222222222222222
Description-en: simple bar chart tool
 Bar draws charts from tables.
 .
 It has no dependencies.

Package: baz
Description-md5: 33333333333333333333333333333333
Description-en: archive manager for the desktop
 Baz opens every archive format.

Package: qux
Description-md5: 55555555555555555555555555555555
Description-en: qux library (development files)
 This package contains the header files.
"""

DE = """Package: libfoo-perl
Description-md5: 11111111111111111111111111111111
Description-de: Perl-Modul zum Weiterleiten von Ereignissen an mehrere Ereignis-Handler
 Foo liest Ereignisse aus einer Quelle. Es sendet jedes davon an alle Handler.
 .
 Funktionalitäten:
  * schnelle Zustellung von Ereignissen an viele Handler
    gleichzeitig
  * geringer Speicherbedarf

Package: bar
Description-md5: 22222222222222222222222222222222
Description-de: einfaches Werkzeug für Balkendiagramme
 Bar zeichnet Diagramme aus Tabellen. Es hat keine Abhängigkeiten.

Package: ghost
Description-md5: 44444444444444444444444444444444
Description-de: Paket ohne englische Beschreibung
 Diese Beschreibung hat kein englisches Original.

Package: qux
Description-md5: 55555555555555555555555555555555
Description-de: qux-Bibliothek (Entwicklungsdateien)
 This package contains the header files.
"""


class Blocks(unittest.TestCase):
    def test_paragraphs_items_and_continuations(self):
        lines = EN.split("\n\n")[0].split("\n")[2:]
        desc = [lines[0][len("Description-en:"):].strip()] + [l[1:] for l in lines[1:]]
        synopsis, blocks = ddtp_pairs.blocks(desc)
        self.assertEqual(synopsis, "Perl module for replicating events to several event handlers")
        self.assertEqual(blocks, [
            ("para", "Foo reads events from one source. It sends each of them to every handler."),
            ("para", "Features:"),
            ("item", "fast delivery of events to many handlers at once"),
            ("item", "small memory use"),
        ])


class Main(unittest.TestCase):
    def setUp(self):
        self.data = tempfile.mkdtemp()
        lists = os.path.join(self.data, "ddtp", "lists")
        os.makedirs(lists)
        for lang, text in (("en", EN), ("de", DE)):
            with open(os.path.join(lists, f"deb.example_dists_x_main_i18n_Translation-{lang}"), "w") as f:
                f.write(text)

    def tearDown(self):
        shutil.rmtree(self.data)

    def run_main(self):
        argv = sys.argv
        sys.argv = ["ddtp_pairs.py", "--data", self.data, "--skip-fetch"]
        try:
            ddtp_pairs.main()
        finally:
            sys.argv = argv
        with open(os.path.join(self.data, "ddtp", "pairs.tsv"), encoding="utf-8") as f:
            rows = [tuple(l.rstrip("\n").split("\t")) for l in f]
        with open(os.path.join(self.data, "ddtp", "stats.json")) as f:
            return rows, json.load(f)

    def test_pairs(self):
        rows, stats = self.run_main()
        self.assertIn(("ddtp:libfoo-perl", "Perl module for replicating events to several event handlers",
                       "Perl-Modul zum Weiterleiten von Ereignissen an mehrere Ereignis-Handler"), rows)
        # sentence by sentence where both blocks have as many sentences
        self.assertIn(("ddtp:libfoo-perl", "It sends each of them to every handler.",
                       "Es sendet jedes davon an alle Handler."), rows)
        # list items with their continuation lines
        self.assertIn(("ddtp:libfoo-perl", "fast delivery of events to many handlers at once",
                       "schnelle Zustellung von Ereignissen an viele Handler gleichzeitig"), rows)
        # bar: two English paragraphs, one German: only the synopsis pairs
        bar = [r for r in rows if r[0] == "ddtp:bar"]
        self.assertEqual(bar, [("ddtp:bar", "simple bar chart tool", "einfaches Werkzeug für Balkendiagramme")])
        self.assertEqual(stats["counters"]["desc_shape_differs"], 1)
        # no English original (md5 4444...) and no German translation (baz): nothing
        self.assertFalse([r for r in rows if r[0] in ("ddtp:ghost", "ddtp:baz")])
        self.assertEqual(stats["counters"]["desc_no_english"], 1)
        # an untranslated sentence (German side = English) is filtered
        qux = [r for r in rows if r[0] == "ddtp:qux"]
        self.assertEqual(qux, [("ddtp:qux", "qux library (development files)", "qux-Bibliothek (Entwicklungsdateien)")])
        self.assertEqual(stats["counters"]["rej_same"], 1)

    def test_read_index(self):
        lists = os.path.join(self.data, "ddtp", "lists")
        idx, paths = ddtp_pairs.read_index(lists, "de")
        self.assertEqual(len(paths), 1)
        self.assertEqual(sorted(p for p, _ in idx.values()), ["bar", "ghost", "libfoo-perl", "qux"])
        self.assertEqual(idx["44444444444444444444444444444444"][1],
                         ["Paket ohne englische Beschreibung", "Diese Beschreibung hat kein englisches Original."])
        self.assertEqual(ddtp_pairs.read_index(lists, "fr"), ({}, []))

if __name__ == "__main__":
    unittest.main()
