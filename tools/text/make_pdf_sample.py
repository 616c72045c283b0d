#!/usr/bin/env python3
"""Writes the PDF the tests translate (tests/data/documents/sample.pdf): two pages of
Helvetica text as a word processor lays it out, one text line per show operator, with a
heading, a paragraph whose word is hyphenated at a line end ("pro-" / "gram"), a
paragraph with an ampersand, parentheses and an accented letter, and a second page; each
page has a running header and a page number at its foot (page furniture, which
pdf_text drops: "User Guide, chapter 1" on both pages, "1" and "- 2 -"). Written
by hand (the PDF objects, a content stream per page, the cross-reference table), so it
needs nothing but Python; pdftotext (poppler-utils) reads it as any PDF.

  python3 tools/text/make_pdf_sample.py tests/data/documents/sample.pdf
"""
import sys

# Per page: (y, text) lines; a larger gap between lines starts a new paragraph.
PAGES = [
    [(760, "User Guide, chapter 1"),
     (720, "Installing the program"),
     (690, "The file could not be opened because the connection to the server was lost while the pro-"),
     (676, "gram was reading the configuration file of the application. Please try again later."),
     (646, "Do you want to delete this folder? The password is too short (at least eight characters),"),
     (632, "so the system cannot accept it as a replacement for the administrator account & the caf\u00e9."),
     (36, "1")],
    [(760, "User Guide, chapter 1"),
     (720, "Save the document before closing the window."),
     (36, "- 2 -")],
]


def esc(s):
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make(pages, path):
    objs = []

    def add(body):
        objs.append(body)
        return len(objs)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    pages_id = 1 + 1 + 2 * len(pages)  # the font, a content and a page object per page, then this
    page_ids = []
    for lines in pages:
        ops = ["BT", "/F1 11 Tf"] + [f"1 0 0 1 72 {y} Tm ({esc(t)}) Tj" for y, t in lines] + ["ET"]
        data = "\n".join(ops).encode("cp1252")
        content = add(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
        page_ids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] "
                            b"/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
                            % (pages_id, font, content)))
    kids = " ".join(f"{p} 0 R" for p in page_ids).encode()
    assert add(b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % len(page_ids)) == pages_id
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, catalog, xref)
    with open(path, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    make(PAGES, sys.argv[1] if len(sys.argv) > 1 else "sample.pdf")
