"""Minimal reader for GNU gettext binary catalogs (.mo), no external deps.

read_mo(path) -> list of (msgctxt|None, msgid, msgid_plural|None, [msgstr...])
The header entry (empty msgid) is skipped. Fuzzy entries are not present in
.mo files compiled by msgfmt (it drops them unless --use-fuzzy).
"""
import re
import struct


def _charset(header):
    m = re.search(r"charset=([A-Za-z0-9_.:-]+)", header)
    cs = m.group(1) if m else "utf-8"
    if cs.upper() in ("CHARSET", "ASCII", "ANSI_X3.4-1968"):
        cs = "utf-8"
    return cs


def read_mo(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 28:
        return []
    magic = struct.unpack("<I", data[:4])[0]
    if magic == 0x950412DE:
        e = "<"
    elif magic == 0xDE120495:
        e = ">"
    else:
        raise ValueError(f"{path}: not a .mo file")
    _rev, n, o_orig, o_trans = struct.unpack(e + "4I", data[4:20])
    raw = []
    for i in range(n):
        lo, oo = struct.unpack(e + "2I", data[o_orig + 8 * i:o_orig + 8 * i + 8])
        lt, ot = struct.unpack(e + "2I", data[o_trans + 8 * i:o_trans + 8 * i + 8])
        raw.append((data[oo:oo + lo], data[ot:ot + lt]))
    cs = "utf-8"
    for k, v in raw:
        if k == b"":
            cs = _charset(v.decode("utf-8", "replace"))
            break
    out = []
    for k, v in raw:
        if k == b"":
            continue
        try:
            ks = k.decode(cs)
            vs = v.decode(cs)
        except (UnicodeDecodeError, LookupError):
            continue
        ctxt = None
        if "\x04" in ks:
            ctxt, ks = ks.split("\x04", 1)
        ids = ks.split("\x00")
        strs = vs.split("\x00")
        out.append((ctxt, ids[0], ids[1] if len(ids) > 1 else None, strs))
    return out
