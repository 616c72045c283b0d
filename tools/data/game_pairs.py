#!/usr/bin/env python3
"""English-German messages of games that Debian (bookworm) ships with their German
translation in a format of their own (not gettext: those come through packages.txt and
build_corpus.py's gettext path), mostly spoken lines between characters:

  game:fillets    fillets-ng-data (Fish Fillets NG): script/<level>/*dialogs_de.lua holds
                  every line as `dialogId("id", "font", "English")` followed by
                  `dialogStr("German")` (two fish talking about what is around them).
  game:hedgewars  hedgewars-data: Data/Locale/de.lua, a Lua table `["English"] = "German"`
                  (campaign dialogue and mission instructions; `|` is a line break).
  game:supernova  scummvm-data: supernova.dat, Mission Supernova 1 and 2 (a comic space
                  adventure written in German): `TEXTde`/`TEXTen` blocks (4-byte
                  little-endian size, then NUL-separated cp437 strings) of the same count,
                  string i with string i; `|` is a line break.
  game:gcompris   gcompris-qt-data (GCompris, educational games for children):
                  translations/gcompris_de.qm, a Qt .qm file that keeps the source texts
                  (instructions, calendar and shopping questions).
  game:tuxpaint   tuxpaint-stamps-default: stamps/**/<stamp>.txt, the English caption on
                  the first line and `de.utf8=<German>` on another (everyday objects).

Each message becomes one line `game:<name>\\ten\\tde` of DATA/games/messages.tsv, line
breaks and tabs as spaces, exact duplicates once; build_corpus.py cleans, splits (a message
over 200 characters pairs sentence by sentence when both sides have as many sentences) and
filters them as it does gettext messages, all kept (no per-package cap).
DATA/games/stats.json counts the messages read and written per source.

Usage: python3 tools/data/game_pairs.py [--data /work/edgemt-data] [--skip-fetch]
Downloads the five packages (about 480 MB of .deb) into DATA/games/debs and extracts only
the files above into DATA/games/x/<package>/.
"""
import argparse
import collections
import glob
import json
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fetch_debs  # noqa: E402

# source -> (package, regular expression of the files it needs inside the package)
SOURCES = {
    "fillets": ("fillets-ng-data", r"/fillets-ng/script/.*dialogs_de\.lua$"),
    "hedgewars": ("hedgewars-data", r"/hedgewars/Data/Locale/de\.lua$"),
    "supernova": ("scummvm-data", r"/scummvm/supernova\.dat$"),
    "gcompris": ("gcompris-qt-data", r"/gcompris-qt/translations/gcompris_de\.qm$"),
    "tuxpaint": ("tuxpaint-stamps-default", r"/tuxpaint/stamps/.*\.txt$"),
}
# The sources of characters' talk (evaluate.py's talk set), not GCompris' instructions
# and Tux Paint's captions.
DIALOGUE = ("fillets", "hedgewars", "supernova")

_LUA_STR = r'"((?:[^"\\\n]|\\.)*)"'
_FILLETS = re.compile(r'dialogId\(\s*' + _LUA_STR + r'\s*,\s*' + _LUA_STR + r'\s*,\s*' + _LUA_STR
                      + r'\s*\)\s*dialogStr\(\s*' + _LUA_STR + r'\s*\)')
_HEDGEWARS = re.compile(r'^\s*\[\s*' + _LUA_STR + r'\s*\]\s*=\s*' + _LUA_STR, re.M)


def unlua(s):
    """The text of a Lua string literal's body (escapes \\n, \\t, \\", \\', \\\\)."""
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)


def fillets(files):
    for fn in files:
        with open(fn, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for _id, _font, en, de in _FILLETS.findall(text):
            yield unlua(en), unlua(de)


def hedgewars(files):
    for fn in files:
        with open(fn, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for en, de in _HEDGEWARS.findall(text):
            yield unlua(en).replace("|", "\n"), unlua(de).replace("|", "\n")


def supernova_blocks(data):
    """{language: [[bytes strings of one TEXT block], ...]} of a supernova.dat image."""
    blocks = collections.defaultdict(list)
    for m in re.finditer(rb"TEXT(de|en)\x00\x00", data):
        if m.end() + 4 > len(data):
            continue
        size = struct.unpack("<I", data[m.end():m.end() + 4])[0]
        body = data[m.end() + 4:m.end() + 4 + size]
        if len(body) != size:
            continue
        blocks[m.group(1).decode()].append(body.split(b"\x00"))
    return blocks


def supernova(files, stats):
    for fn in files:
        with open(fn, "rb") as f:
            blocks = supernova_blocks(f.read())
        for en_block, de_block in zip(blocks.get("en", []), blocks.get("de", [])):
            if len(en_block) != len(de_block):  # not the same texts: nothing pairs
                stats["supernova_blocks_count_differs"] += 1
                continue
            for e, d in zip(en_block, de_block):
                yield e.decode("cp437").replace("|", "\n"), d.decode("cp437").replace("|", "\n")


_QM_MAGIC = bytes([0x3C, 0xB8, 0x64, 0x18, 0xCA, 0xEF, 0x9C, 0x95,
                   0xCD, 0x21, 0x1C, 0xBF, 0x60, 0xA1, 0xBD, 0xDD])


def read_qm(path):
    """(source, [translations]) of each message of a Qt .qm file that keeps its source
    texts. Layout: 16-byte magic, then sections (tag byte, 4-byte big-endian length);
    section 0x69 holds the messages, each a run of records up to an end record (1):
    3 translation (UTF-16BE; length 0xffffffff: none), 5 hash (4 bytes), 6 source text,
    7 context, 8 comment (UTF-8), 2 and 4 old UTF-16 source/context."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:16] != _QM_MAGIC:
        raise ValueError(f"{path}: not a Qt .qm file")
    pos, msgs = 16, b""
    while pos + 5 <= len(data):
        (ln,) = struct.unpack(">I", data[pos + 1:pos + 5])
        if data[pos] == 0x69:
            msgs = data[pos + 5:pos + 5 + ln]
        pos += 5 + ln
    pos, src, trans = 0, None, []
    while pos < len(msgs):
        tag = msgs[pos]
        pos += 1
        if tag == 1:
            yield src, trans
            src, trans = None, []
        elif tag == 5:
            pos += 4
        elif tag in (2, 3, 4, 6, 7, 8):
            if pos + 4 > len(msgs):
                raise ValueError(f"{path}: record {tag} cut short")
            (ln,) = struct.unpack(">I", msgs[pos:pos + 4])
            pos += 4
            if ln == 0xFFFFFFFF:
                continue
            body = msgs[pos:pos + ln]
            pos += ln
            if tag == 3:
                trans.append(body.decode("utf-16-be", "replace"))
            elif tag == 6:
                src = body.decode("utf-8", "replace")
        else:
            raise ValueError(f"{path}: unknown record {tag} at {pos - 1}")


def gcompris(files):
    for fn in files:
        for src, trans in read_qm(fn):
            if src and trans and trans[0]:
                yield src, trans[0]


def tuxpaint(files):
    for fn in files:
        with open(fn, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        de = [ln[len("de.utf8="):] for ln in lines[1:] if ln.startswith("de.utf8=")]
        if lines and de:
            yield lines[0], de[0]


def extract(debdir, xdir, pkg, pattern):
    """The files of `pkg`'s .deb whose path matches `pattern`, extracted (cached) under
    xdir/pkg; [] when the .deb is missing."""
    dest = os.path.join(xdir, pkg)
    stamp = os.path.join(dest, ".done")
    if not os.path.exists(stamp):
        deb = fetch_debs.deb_for(debdir, pkg)
        if deb is None:
            return []
        subprocess.run(["rm", "-rf", dest], check=True)
        os.makedirs(dest)
        rx = re.compile(pattern)
        for name, data in fetch_debs.deb_files(deb, lambda n: rx.search("/" + n.lstrip("./"))):
            out = os.path.join(dest, os.path.normpath(name.lstrip("./")))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as o:
                o.write(data)
        open(stamp, "w").close()
    rx = re.compile(pattern)
    return sorted(p for p in glob.glob(os.path.join(dest, "**", "*"), recursive=True)
                  if os.path.isfile(p) and rx.search("/" + os.path.relpath(p, dest)))


def one_line(s):
    return " ".join(s.replace("\t", " ").split())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--skip-fetch", action="store_true", help="no download (the cached packages only)")
    args = ap.parse_args()
    base = os.path.join(args.data, "games")
    debdir, xdir = os.path.join(base, "debs"), os.path.join(base, "x")
    os.makedirs(debdir, exist_ok=True)
    stats = collections.Counter()
    failed = []
    if not args.skip_fetch:
        failed = fetch_debs.download(debdir, sorted({pkg for pkg, _ in SOURCES.values()}))
    seen = set()
    rows = []
    for name, (pkg, pattern) in SOURCES.items():
        files = extract(debdir, xdir, pkg, pattern)
        if not files:
            print(f"warning: {pkg} missing or without its files: no game:{name}", file=sys.stderr)
            continue
        reader = globals()[name]
        messages = reader(files, stats) if name == "supernova" else reader(files)
        for en, de in messages:
            stats[name + "_read"] += 1
            en, de = one_line(en), one_line(de)
            if not en or not de or en == de or (en, de) in seen:
                continue
            seen.add((en, de))
            rows.append(("game:" + name, en, de))
            stats[name + "_written"] += 1
    with open(os.path.join(base, "messages.tsv"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")
    out = {"messages": len(rows), "download_failed": failed, "counts": dict(sorted(stats.items()))}
    with open(os.path.join(base, "stats.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
