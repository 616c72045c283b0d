#!/usr/bin/env python3
"""Tests of tools/data/build_corpus.py's gettext extraction (the per-package cap and the
uncapped story packages) on .mo catalogs written here. Standard library only; run by ctest
(tools_build_corpus) or directly."""
import collections
import os
import shutil
import struct
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "data"))
import build_corpus  # noqa: E402
import find_packages  # noqa: E402


def write_mo(path, pairs):
    """A little-endian GNU .mo catalog of (msgid, msgstr) pairs, header entry first."""
    entries = [(b"", b"Content-Type: text/plain; charset=UTF-8\n")]
    entries += sorted((e.encode(), d.encode()) for e, d in pairs)
    n = len(entries)
    o_orig, o_trans = 28, 28 + 8 * n
    pos = o_trans + 8 * n
    orig_tab, trans_tab, blob = b"", b"", b""
    for k, _ in entries:
        orig_tab += struct.pack("<2I", len(k), pos + len(blob))
        blob += k + b"\0"
    for _, v in entries:
        trans_tab += struct.pack("<2I", len(v), pos + len(blob))
        blob += v + b"\0"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(struct.pack("<7I", 0x950412DE, 0, n, o_orig, o_trans, 0, 0) + orig_tab + trans_tab + blob)


class Gettext(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        for pkg in ("app", "game"):
            write_mo(os.path.join(self.tmp, pkg, "x.mo"),
                     [(f"The {pkg} message number {i}", f"Die {pkg}-Nachricht Nummer {i}") for i in range(10)])

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def extract(self, uncapped):
        stats = collections.Counter()
        return list(build_corpus.extract_gettext(self.tmp, ["app", "game"], 3, stats, uncapped)), stats

    def test_cap_per_package_but_for_the_uncapped(self):
        rows, stats = self.extract({"game"})
        by = collections.Counter(label for label, _, _ in rows)
        self.assertEqual(by, {"gettext:app": 3, "gettext:game": 10})
        self.assertIn(("gettext:game", "The game message number 7", "Die game-Nachricht Nummer 7"), rows)
        self.assertEqual(stats["gettext_clean"], 20)
        rows, _ = self.extract(set())
        self.assertEqual(collections.Counter(label for label, _, _ in rows), {"gettext:app": 3, "gettext:game": 3})
        # the capped choice is the same whatever else is uncapped (sha1 order, no RNG)
        app_capped = [r for r in rows if r[0] == "gettext:app"]
        self.assertEqual(app_capped, [r for r in self.extract({"game"})[0] if r[0] == "gettext:app"])

    def test_long_messages_pair_sentence_by_sentence(self):
        s1e = "You find a rusty old key under the doormat of the abandoned farmhouse by the road."
        s1d = "Du findest einen rostigen alten Schlüssel unter der Fußmatte des verlassenen Bauernhauses an der Straße."
        s2e = "It might open one of the sheds behind the barn, if the lock has not rusted shut yet."
        s2d = "Er könnte einen der Schuppen hinter der Scheune öffnen, falls das Schloss noch nicht eingerostet ist."
        s3e = "Better take a crowbar along, just in case."
        s3d = "Nimm besser ein Brecheisen mit, nur für alle Fälle."
        short_e, short_d = "Hello there. How are you?", "Hallo. Wie geht es dir?"
        write_mo(os.path.join(self.tmp, "story", "x.mo"), [
            (f"{s1e}  {s2e}  {s3e}", f"{s1d} {s2d} {s3d}"),  # 3 and 3 sentences, over 200 characters
            (f"{s2e} {s1e} {s3e}", f"{s2d} {s1d}, {s3d[0].lower() + s3d[1:]}"),  # 3 and 2: left out
            (short_e, short_d),  # short: whole
        ])
        stats = collections.Counter()
        rows = list(build_corpus.extract_gettext(self.tmp, ["story"], 100, stats, {"story"}))
        self.assertEqual(sorted((e, d) for _, e, d in rows),
                         sorted([(s1e, s1d), (s2e, s2d), (s3e, s3d), (short_e, short_d)]))
        self.assertEqual(stats["gettext_long_split"], 1)
        self.assertEqual(stats["gettext_long_unsplit"], 1)

    def test_story_packages_are_listed(self):
        with open(os.path.join(ROOT, "tools", "data", "packages.txt")) as f:
            listed = {l.strip() for l in f if l.strip() and not l.startswith("#")}
        self.assertTrue(set(find_packages.STORY_PACKAGES) <= listed)


if __name__ == "__main__":
    unittest.main()
