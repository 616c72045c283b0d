#!/usr/bin/env python3
"""Tests of tools/data/help_pairs.py (the corpus's help pages reader) on small pages
written here in the shape of LibreOffice's help HTML and GNOME's Mallard pages.
Standard library only; run by ctest (tools_help_pairs) or directly."""
import collections
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "data"))
import help_pairs  # noqa: E402

LO_EN = """<!DOCTYPE html><html><head><title>Macro Security</title>
<script>var x = "<p id='par_js'>no</p>";</script></head><body>
<header><p dir="auto">LibreOffice 7.4 Help</p></header>
<div id="DisplayArea">
<h1 id="hd_1" dir="auto"><a name="m"></a>Macro Security</h1>
<p id="par_1" class="paragraph">You can call the dialog from <span class="switchinline"><span hidden="true" id="MACx_1" class="MAC"><span class="emph">LibreOffice - Preferences</span></span><span hidden="true" id="defaultx_1"><span class="emph">Tools - Options</span></span></span><span class="emph"> - Security</span>.</p>
<p id="par_2" class="paragraph">Choose <span class="switchinline"><span hidden="true" id="WRITERx_2">Table</span><span hidden="true" id="CALCx_2">Sheet</span></span> to insert one.</p>
<p id="par_3">Only in English.</p>
<p id="par_4">Line one<br>line two.</p>
<p>No id here.</p>
</div></body></html>"""

LO_DE = """<!DOCTYPE html><html><head><title>Makrosicherheit</title></head><body>
<header><p dir="auto">Hilfe für LibreOffice 7.4</p></header>
<div id="DisplayArea">
<h1 id="hd_1" dir="auto"><a name="m"></a>Makrosicherheit</h1>
<p id="par_4">Zeile eins<br>Zeile zwei.</p>
<p id="par_1" class="paragraph">Sie erreichen den Dialog über <span class="switchinline"><span hidden="true" id="MACx_1" class="MAC"><span class="emph">LibreOffice - Einstellungen</span></span><span hidden="true" id="defaultx_1"><span class="emph">Extras - Optionen</span></span></span><span class="emph"> - Sicherheit</span>.</p>
<p id="par_2" class="paragraph">Wählen Sie <span class="switchinline"><span hidden="true" id="WRITERx_2">Tabelle</span><span hidden="true" id="CALCx_2">Tabellenblatt</span></span>, um eine einzufügen.</p>
<p>Keine ID.</p>
</div></body></html>"""

PAGE = """<?xml version="1.0" encoding="utf-8"?>
<page xmlns="http://projectmallard.org/1.0/" xmlns:its="http://www.w3.org/2005/11/its" type="topic" id="t">
  <info>
    <link type="guide" xref="index"/>
    <credit type="author"><name>{author}</name></credit>
    {translator}
    <title type="link" role="trail">{trail}</title>
    <desc>{desc}</desc>
  </info>
  <title>{title}</title>
  <p>{p1}</p>
  <steps>
    <item><p>{step}</p></item>
  </steps>
  <p>{see} <link xref="other"/>.</p>
  <screen>ls -l</screen>
  <note><p>{note}</p></note>
</page>"""

EN = dict(author="GNOME Documentation Project", translator="", trail="Search",
          desc="Find files by name.", title="Search for files",
          p1="You can search for files by name in the file manager.",
          step="Press <key>Ctrl</key>+<key>F</key> and type a word.", see="See",
          note="Search is quick. It uses an index.")
DE = dict(author="GNOME-Dokumentationsprojekt",
          translator='<credit type="translator copyright"><name>Jemand</name></credit>',
          trail="Suchen", desc="Dateien nach Namen finden.", title="Nach Dateien suchen",
          p1="Sie können in der Dateiverwaltung nach Dateien suchen.",
          step="Drücken Sie <key>Strg</key>+<key>F</key> und geben Sie ein Wort ein.",
          see="Siehe", note="Die Suche ist schnell. Sie nutzt einen Index.")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class LibreOfficeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.en = os.path.join(self.tmp.name, "en-US")
        self.de = os.path.join(self.tmp.name, "de")
        write(os.path.join(self.en, "text", "shared", "optionen", "m.html"), LO_EN)
        write(os.path.join(self.de, "text", "shared", "optionen", "m.html"), LO_DE)
        write(os.path.join(self.en, "text", "only_en.html"), LO_EN)

    def tearDown(self):
        self.tmp.cleanup()

    def test_pairs_by_id_with_the_default_case_of_a_switch(self):
        c = collections.Counter()
        pairs = dict(help_pairs.libreoffice_blocks(self.en, self.de, c))
        self.assertEqual(pairs, {
            "Macro Security": "Makrosicherheit",
            "You can call the dialog from Tools - Options - Security.":
                "Sie erreichen den Dialog über Extras - Optionen - Sicherheit.",
            "Line one line two.": "Zeile eins Zeile zwei.",
        })
        # par_2's switch has no default case (its text would have a hole); par_3 has no
        # German; the page only in English is counted, not paired.
        self.assertEqual(c["documents"], 1)
        self.assertEqual(c["documents_en_only"], 1)
        self.assertEqual(c["blocks_unmatched"], 1)

    def test_a_repeated_id_is_not_a_key(self):
        path = os.path.join(self.tmp.name, "dup.html")
        write(path, '<p id="a">One.</p><p id="a">Two.</p><p id="b">Three.</p>')
        self.assertEqual(help_pairs.libreoffice_units(path), {"b": "Three."})


class MallardTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        base = os.path.join(self.tmp.name, "usr", "share", "help")
        write(os.path.join(base, "C", "gnome-help", "t.page"), PAGE.format(**EN))
        write(os.path.join(base, "de", "gnome-help", "t.page"), PAGE.format(**DE))

    def tearDown(self):
        self.tmp.cleanup()

    def test_blocks_pair_by_position_without_credits_code_or_holes(self):
        c = collections.Counter()
        pairs = list(help_pairs.gnome_blocks(self.tmp.name, c))
        self.assertEqual(pairs, [
            ("Find files by name.", "Dateien nach Namen finden."),
            ("Search for files", "Nach Dateien suchen"),
            ("You can search for files by name in the file manager.",
             "Sie können in der Dateiverwaltung nach Dateien suchen."),
            ("Press Ctrl+F and type a word.", "Drücken Sie Strg+F und geben Sie ein Wort ein."),
            ("Search is quick. It uses an index.", "Die Suche ist schnell. Sie nutzt einen Index."),
        ])
        self.assertEqual(c["blocks_with_hole"], 1)  # "See <link xref/>."
        self.assertEqual(c["sections_skipped"], 0)

    def test_a_page_of_another_shape_pairs_only_matching_sections(self):
        base = os.path.join(self.tmp.name, "usr", "share", "help")
        extra = PAGE.format(**DE).replace("<note>", "<p>Ein Absatz mehr.</p><note>")
        write(os.path.join(base, "de", "gnome-help", "t.page"), extra)
        c = collections.Counter()
        pairs = list(help_pairs.gnome_blocks(self.tmp.name, c))
        self.assertEqual(c["sections_skipped"], 1)
        # The page's body is one section (its title starts it), now of another shape:
        # only the info block before it pairs.
        self.assertEqual(pairs, [("Find files by name.", "Dateien nach Namen finden.")])

    def test_sentences_pair_when_counts_agree(self):
        c = collections.Counter()
        self.assertEqual(help_pairs.doc_pairs.block_sentences("Search is quick. It uses an index.",
                                                   "Die Suche ist schnell. Sie nutzt einen Index.", c),
                         [("Search is quick.", "Die Suche ist schnell."),
                          ("It uses an index.", "Sie nutzt einen Index.")])


KDE_DOC = """<?xml version="1.0" ?>
<!DOCTYPE book PUBLIC "-//KDE//DTD DocBook XML V4.5-Based Variant V1.1//EN" "dtd/kdedbx45.dtd" [
  <!ENTITY kappname "&demo;">
  <!ENTITY chapter1 SYSTEM "chapter1.docbook">
  <!ENTITY % addindex "IGNORE">
]>
<book lang="&language;">
<bookinfo><title>{manual}</title><authorgroup><author>Someone</author></authorgroup></bookinfo>
<chapter><title>{intro}</title>
<para>{p1}</para>
<screen>demo --help</screen>
&chapter1;
</chapter>
</book>"""

KDE_CHAPTER = """<sect1><title>{menus}</title>
<para>{choose} <menuchoice><shortcut><keycombo action="simul">&Ctrl;<keycap>S</keycap></keycombo></shortcut><guimenu>{file}</guimenu><guimenuitem>{save}</guimenuitem></menuchoice>.</para>
<para>{press} <keycombo action="simul">&Ctrl;<keycap>Q</keycap></keycombo>.</para>
<para>{unknown} &nosuchentity;.</para>
</sect1>"""

KDE_EN = dict(manual="The Demo Handbook", intro="Introduction", p1="&kappname; shows how &kde; works.",
              menus="Menus", choose="To save, choose", file="File", save="Save", press="To quit, press",
              unknown="This has an")
KDE_DE = dict(manual="Das Handbuch zu Demo", intro="Einleitung", p1="&kappname; zeigt, wie &kde; funktioniert.",
              menus="Menüs", choose="Zum Speichern wählen Sie", file="Datei", save="Speichern",
              press="Zum Beenden drücken Sie", unknown="Dies hat eine")
GENERAL = '<!ENTITY demo "<application>Demo</application>">\n<!ENTITY language "en">\n'
USER = {"en": '<!ENTITY Ctrl "<keycap>Ctrl</keycap>">\n<!ENTITY kde "KDE">\n',
        "de": '<!ENTITY Ctrl   "<keycap>Strg</keycap>">\n<!ENTITY kde "K-Arbeitsumgebung" >\n'}


class KdeDocBookTest(unittest.TestCase):
    def test_entities_chapters_and_menus(self):
        with tempfile.TemporaryDirectory() as tmp:
            cust = os.path.join(tmp, "kdoctools", "usr", "share", "kf5", "kdoctools", "customization")
            write(os.path.join(cust, "entities", "general.entities"), GENERAL)
            blocks = {}
            for lang, words in (("en", KDE_EN), ("de", KDE_DE)):
                write(os.path.join(cust, lang, "user.entities"), USER[lang])
                d = os.path.join(tmp, "HTML", lang, "demo")
                write(os.path.join(d, "index.docbook"), KDE_DOC.format(**words))
                write(os.path.join(d, "chapter1.docbook"), KDE_CHAPTER.format(**words))
                ent = help_pairs.kde_entities(os.path.join(tmp, "kdoctools"), lang)
                blocks[lang] = help_pairs.docbook_blocks(os.path.join(d, "index.docbook"), ent)
            c = collections.Counter()
            pairs = list(help_pairs.doc_pairs.align_blocks(blocks["en"], blocks["de"], c, {"title"}))
        self.assertEqual(pairs, [
            ("Introduction", "Einleitung"),
            ("Demo shows how KDE works.", "Demo zeigt, wie K-Arbeitsumgebung funktioniert."),
            ("Menus", "Menüs"),
            ("To save, choose File → Save.", "Zum Speichern wählen Sie Datei → Speichern."),
            ("To quit, press Ctrl+Q.", "Zum Beenden drücken Sie Strg+Q."),
        ])  # the book info, the screen and the paragraph with an unknown entity left out


if __name__ == "__main__":
    unittest.main(verbosity=2)
