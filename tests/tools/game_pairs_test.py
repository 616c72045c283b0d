#!/usr/bin/env python3
"""Tests of tools/data/game_pairs.py (games' messages in formats of their own: Lua
dialogue scripts and tables, Mission Supernova's .dat, Qt .qm, Tux Paint's stamp captions)
and of build_corpus.py's reading of them, on small files written here. Standard library
only; run by ctest (tools_game_pairs) or directly."""
import collections
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "data"))
import build_corpus  # noqa: E402
import game_pairs  # noqa: E402


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def qm_record_str(tag, text, utf16=False):
    body = text.encode("utf-16-be" if utf16 else "utf-8")
    return bytes([tag]) + struct.pack(">I", len(body)) + body


def qm_file(messages):
    """A .qm image: magic, a hash section (skipped by readers), the messages section.
    messages: (source, translation or None) pairs."""
    msgs = b""
    for src, tr in messages:
        msgs += bytes([5]) + struct.pack(">I", 0x1234)  # obsolete hash record
        if tr is None:
            msgs += bytes([3]) + struct.pack(">I", 0xFFFFFFFF)
        else:
            msgs += qm_record_str(3, tr, utf16=True)
        msgs += qm_record_str(7, "Context") + qm_record_str(6, src) + bytes([1])
    hashes = struct.pack(">II", 1, 0)
    return (game_pairs._QM_MAGIC + bytes([0x42]) + struct.pack(">I", len(hashes)) + hashes
            + bytes([0x69]) + struct.pack(">I", len(msgs)) + msgs)


def text_block(lang, strings):
    body = b"\x00".join(s.encode("cp437") for s in strings)
    return b"TEXT" + lang.encode() + b"\x00\x00" + struct.pack("<I", len(body)) + body


class Readers(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_fillets_pairs_each_line_with_the_german_that_follows(self):
        path = os.path.join(self.tmp, "script", "bathroom", "dialogs_de.lua")
        write(path, '\n'.join([
            'dialogId("ba-m-1", "font_small", "What do you think, does anybody live here?")',
            'dialogStr("Meinst du, hier wohnt jemand?")',
            '',
            'dialogId("ba-v-2", "font_big", "He said \\"no\\".")',
            'dialogStr("Er sagte \\"nein\\".")',
            'dialogId("ba-m-3", "font_small", "Not translated yet.")',  # no dialogStr: nothing
            'dialogId("ba-m-4", "font_small", "It should all fit.")',
            'dialogStr("Es sollte alles reinpassen.")',
        ]))
        self.assertEqual(list(game_pairs.fillets([path])), [
            ("What do you think, does anybody live here?", "Meinst du, hier wohnt jemand?"),
            ('He said "no".', 'Er sagte "nein".'),
            ("It should all fit.", "Es sollte alles reinpassen."),
        ])

    def test_hedgewars_table_with_line_breaks(self):
        path = os.path.join(self.tmp, "de.lua")
        write(path, 'locale = {\n'
                    '  ["Why do you keep betraying us?"] = "Warum betrügst du uns andauernd?", -- A_Classic\n'
                    '--  ["Untranslated"] = "",\n'
                    '  ["Use the rope|and then jump!"] = "Benutze das Seil|und springe dann!",\n'
                    '}\n')
        self.assertEqual(list(game_pairs.hedgewars([path])), [
            ("Why do you keep betraying us?", "Warum betrügst du uns andauernd?"),
            ("Use the rope\nand then jump!", "Benutze das Seil\nund springe dann!"),
        ])

    def test_supernova_pairs_blocks_of_the_same_count(self):
        path = os.path.join(self.tmp, "supernova.dat")
        write(path, b"MSN\x01" + text_block("de", ["Das ist dein Schrank.", "Tür|zu."])
              + b"IMG0junk" + text_block("en", ["This is your cabinet.", "Door|closed."])
              + text_block("de", ["Eins", "Zwei", "Drei"]) + text_block("en", ["One", "Two"]))
        stats = collections.Counter()
        self.assertEqual(list(game_pairs.supernova([path], stats)), [
            ("This is your cabinet.", "Das ist dein Schrank."), ("Door\nclosed.", "Tür\nzu."),
        ])
        self.assertEqual(stats["supernova_blocks_count_differs"], 1)

    def test_qm_sources_and_translations(self):
        path = os.path.join(self.tmp, "gcompris_de.qm")
        write(path, qm_file([("Find the date 7 days after October 1st.",
                              "Finde das Datum 7 Tage nach dem 1. Oktober."),
                             ("Not translated", None),
                             ("Your number is too low", "Deine Zahl ist zu klein")]))
        self.assertEqual(list(game_pairs.gcompris([path])), [
            ("Find the date 7 days after October 1st.", "Finde das Datum 7 Tage nach dem 1. Oktober."),
            ("Your number is too low", "Deine Zahl ist zu klein"),
        ])

    def test_qm_errors_are_clear(self):
        bad = os.path.join(self.tmp, "bad.qm")
        write(bad, b"not a qm file at all")
        with self.assertRaisesRegex(ValueError, "not a Qt .qm file"):
            list(game_pairs.read_qm(bad))
        cut = os.path.join(self.tmp, "cut.qm")
        write(cut, game_pairs._QM_MAGIC + bytes([0x69]) + struct.pack(">I", 3) + bytes([6, 0, 0]))
        with self.assertRaisesRegex(ValueError, "cut short"):
            list(game_pairs.read_qm(cut))
        odd = os.path.join(self.tmp, "odd.qm")
        write(odd, game_pairs._QM_MAGIC + bytes([0x69]) + struct.pack(">I", 1) + bytes([0x77]))
        with self.assertRaisesRegex(ValueError, "unknown record"):
            list(game_pairs.read_qm(odd))

    def test_tuxpaint_caption_and_its_german_line(self):
        a = os.path.join(self.tmp, "stamps", "clothes", "shirt.txt")
        write(a, "A folded shirt.\nfr.utf8=Une chemise pliée.\nde.utf8=Ein gefaltetes Hemd.\n")
        b = os.path.join(self.tmp, "stamps", "clothes", "hat.txt")
        write(b, "A hat.\nfr.utf8=Un chapeau.\n")  # no German: nothing
        self.assertEqual(list(game_pairs.tuxpaint([a, b])), [("A folded shirt.", "Ein gefaltetes Hemd.")])


class Main(unittest.TestCase):
    """game_pairs.main() on an extracted cache (no download), then build_corpus's reading."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        x = os.path.join(self.tmp, "games", "x")
        fillets = os.path.join(x, "fillets-ng-data")
        write(os.path.join(fillets, "usr/share/games/fillets-ng/script/city/dialogs_de.lua"),
              'dialogId("c-1", "f", "No! The door closed again.")\ndialogStr("Nein! Die Türe ist wieder zu.")\n'
              'dialogId("c-2", "f", "No! The door closed again.")\ndialogStr("Nein! Die Türe ist wieder zu.")\n'
              'dialogId("c-3", "f", "Same")\ndialogStr("Same")\n')
        # a level's English-only script beside it is not read
        write(os.path.join(fillets, "usr/share/games/fillets-ng/script/city/dialogs_en.lua"),
              'dialogId("c-9", "f", "English only")\ndialogStr("English only too")\n')
        open(os.path.join(fillets, ".done"), "w").close()
        long_e = ("You find a rusty old key under the doormat of the abandoned farmhouse by the road. "
                  "It might open one of the sheds behind the barn, if the lock has not rusted shut yet. "
                  "Better take a crowbar along.")
        long_d = ("Du findest einen rostigen alten Schlüssel unter der Fußmatte des verlassenen Bauernhauses. "
                  "Er könnte einen der Schuppen hinter der Scheune öffnen, falls das Schloss noch nicht "
                  "eingerostet ist. Nimm besser ein Brecheisen mit.")
        hw = os.path.join(x, "hedgewars-data")
        write(os.path.join(hw, "usr/share/games/hedgewars/Data/Locale/de.lua"),
              f'  ["{long_e}"] = "{long_d}",\n  ["Tab\\tin it"] = "Tab\\tdarin",\n')
        open(os.path.join(hw, ".done"), "w").close()
        self.long = (long_e, long_d)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_messages_then_corpus_pairs(self):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "data", "game_pairs.py"),
                            "--data", self.tmp, "--skip-fetch"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("scummvm-data missing", r.stderr)  # the sources not cached are named
        with open(os.path.join(self.tmp, "games", "messages.tsv"), encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
        self.assertEqual(rows, [
            ["game:fillets", "No! The door closed again.", "Nein! Die Türe ist wieder zu."],
            ["game:hedgewars", self.long[0], self.long[1]],
            ["game:hedgewars", "Tab in it", "Tab darin"],
        ])
        stats = collections.Counter()
        pairs = list(build_corpus.extract_games(os.path.join(self.tmp, "games", "messages.tsv"), stats))
        self.assertEqual([p[0] for p in pairs], ["game:fillets"] + ["game:hedgewars"] * 4)
        self.assertIn(("game:hedgewars", "Better take a crowbar along.", "Nimm besser ein Brecheisen mit."), pairs)
        self.assertEqual(stats["game_long_split"], 1)
        self.assertEqual(stats["gettext_long_split"], 0)
        self.assertEqual(build_corpus.group("game:fillets"), "game")


if __name__ == "__main__":
    unittest.main()
