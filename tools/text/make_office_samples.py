#!/usr/bin/env python3
"""Writes the office documents and e-book the tests translate (tests/data/documents/
sample.docx, .pptx, .xlsx, .odt, .odp, .ods, .epub), made by the libraries people make
such files with: python-docx (its default template is Word's), python-pptx, openpyxl,
odfpy and EbookLib (PyPI; not needed to build or test). Each holds paragraphs of one
formatting and of several (bold, italics, a hyperlink), a table, a header or footer or
notes, a line break, a tab, and a field or image where the format has one; the
spreadsheets text, numbers and a formula; a comment (Word) and a chart with a title
(PowerPoint, Excel).

  pip install python-docx python-pptx openpyxl odfpy ebooklib
  python3 tools/text/make_office_samples.py tests/data/documents
"""
import os
import sys
import zipfile


def fixed_times(path):
    """Rewrites the archive with fixed entry times, so a rerun gives the same bytes."""
    with zipfile.ZipFile(path) as z:
        entries = [(i, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w") as z:
        for info, data in entries:
            info.date_time = (2026, 1, 1, 0, 0, 0)
            z.writestr(info, data)


def docx(path):
    import docx
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    d = docx.Document()
    d.add_heading("Installation guide", level=1)
    d.add_paragraph("Please restart your computer to complete the installation.")
    p = d.add_paragraph("Click ")
    p.add_run("Save").bold = True
    p.add_run(" before you close the window.")
    p = d.add_paragraph("The file could not be opened.")
    p.add_run().add_break()  # a line break inside the paragraph
    p.add_run("Check that it exists.")
    p = d.add_paragraph("Name:")
    p.add_run().add_tab()
    p.add_run("the name of the new user")
    # A hyperlink around a run (python-docx has no call for it: the XML Word writes).
    p = d.add_paragraph("Read the ")
    rid = d.part.relate_to("https://example.org/manual", docx.opc.constants.RELATIONSHIP_TYPE.HYPERLINK,
                           is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "user manual"
    run.append(text)
    link.append(run)
    p._p.append(link)
    p.add_run(" for more information.")
    # A page number field (fldChar begin / instrText / separate / result / end).
    p = d.add_paragraph("This is page ")
    for kind, value in (("begin", None), ("instr", " PAGE "), ("separate", None), ("text", "1"), ("end", None)):
        r = OxmlElement("w:r")
        if kind == "instr":
            e = OxmlElement("w:instrText")
            e.text = value
        elif kind == "text":
            e = OxmlElement("w:t")
            e.text = value
        else:
            e = OxmlElement("w:fldChar")
            e.set(qn("w:fldCharType"), kind)
        r.append(e)
        p._p.append(r)
    p.add_run(" of the document.")
    t = d.add_table(rows=2, cols=2)
    t.cell(0, 0).text = "Size"
    t.cell(0, 1).text = "The size of the file in bytes."
    t.cell(1, 0).text = "Date"
    t.cell(1, 1).text = "The day the file was last changed."
    d.sections[0].header.paragraphs[0].text = "Confidential document"
    d.sections[0].footer.paragraphs[0].text = "All rights reserved."
    p = d.add_paragraph("The backup runs every night.")
    c = d.add_comment(p.runs, text="Please check this sentence again.", author="Editor", initials="E")
    c._comment_elm.set(qn("w:date"), "2026-01-01T00:00:00Z")  # not the time of the run
    d.save(path)


def pptx(path):
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    s = prs.slides.add_slide(prs.slide_layouts[1])
    s.shapes.title.text = "Welcome to the new version"
    body = s.placeholders[1].text_frame
    body.text = "The program starts faster than before."
    p = body.add_paragraph()
    r = p.add_run()
    r.text = "Open the "
    r = p.add_run()
    r.text = "settings"
    r.font.italic = True
    r = p.add_run()
    r.text = " to change the language."
    s.notes_slide.notes_text_frame.text = "Thank the audience for coming."
    box = s.shapes.add_textbox(Inches(1), Inches(6), Inches(6), Inches(1)).text_frame
    box.text = "Questions are welcome at any time."
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE

    data = CategoryChartData()
    data.categories = ["North", "South"]
    data.add_series("Sales", (12.5, 7.0))
    s = prs.slides.add_slide(prs.slide_layouts[5])
    s.shapes.title.text = "Sales of the year"
    chart = s.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(6), Inches(4), data).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Sales by region"
    prs.save(path)


def odf(path_odt, path_odp):
    from odf.opendocument import OpenDocumentPresentation, OpenDocumentText
    from odf.style import MasterPage, PageLayout, Style, TextProperties
    from odf.draw import Frame, Page, TextBox
    from odf.text import A, H, LineBreak, P, S, Span, Tab

    d = OpenDocumentText()
    bold = Style(name="Bold", family="text")
    bold.addElement(TextProperties(fontweight="bold"))
    d.automaticstyles.addElement(bold)
    d.text.addElement(H(outlinelevel=1, text="Installation guide"))
    d.text.addElement(P(text="Please restart your computer to complete the installation."))
    p = P(text="Click ")
    p.addElement(Span(stylename=bold, text="Save"))
    p.addText(" before you close the window.")
    d.text.addElement(p)
    p = P(text="The file could not be opened.")
    p.addElement(LineBreak())
    p.addText("Check that it exists.")
    d.text.addElement(p)
    p = P(text="Name:")
    p.addElement(Tab())
    p.addText("the name of the new user")
    d.text.addElement(p)
    p = P(text="Read the ")
    p.addElement(A(href="https://example.org/manual", text="user manual"))
    p.addText(" for more information.")
    d.text.addElement(p)
    p = P(text="Two")
    p.addElement(S(c=2))
    p.addText("spaces.")
    d.text.addElement(p)
    d.save(path_odt)

    d = OpenDocumentPresentation()
    layout = PageLayout(name="Layout")
    d.automaticstyles.addElement(layout)
    master = MasterPage(name="Default", pagelayoutname=layout)
    d.masterstyles.addElement(master)
    page = Page(masterpagename=master)
    d.presentation.addElement(page)
    frame = Frame(width="20cm", height="3cm", x="2cm", y="2cm")
    page.addElement(frame)
    box = TextBox()
    frame.addElement(box)
    box.addElement(P(text="Welcome to the new version"))
    box.addElement(P(text="The program starts faster than before."))
    d.save(path_odp)


def xlsx(path):
    from openpyxl import Workbook
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    wb = Workbook()
    ws = wb.active
    ws.title = "Prices"
    ws["A1"] = "Product"
    ws["B1"] = "Price"
    ws["A2"] = "The file could not be opened."
    ws["B2"] = 12.5
    ws["A3"] = CellRichText(["Click ", TextBlock(InlineFont(b=True), "Save"), " before you close the window."])
    ws["B3"] = "=B2*2"
    ws["A4"] = "Please restart your computer to complete the installation."
    from openpyxl.chart import BarChart, Reference

    chart = BarChart()
    chart.title = "Prices of the products"
    chart.add_data(Reference(ws, min_col=2, min_row=2, max_row=2))
    ws.add_chart(chart, "D2")
    wb.save(path)


def ods(path):
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    d = OpenDocumentSpreadsheet()
    t = Table(name="Prices")
    for text, value in (("Product", None), ("The file could not be opened.", 12.5),
                        ("Please restart your computer to complete the installation.", 3)):
        row = TableRow()
        cell = TableCell(valuetype="string")
        cell.addElement(P(text=text))
        row.addElement(cell)
        if value is not None:
            cell = TableCell(valuetype="float", value=value)
            cell.addElement(P(text=str(value)))
            row.addElement(cell)
        t.addElement(row)
    d.spreadsheet.addElement(t)
    d.save(path)


def epub(path):
    from ebooklib import epub as e

    book = e.EpubBook()
    book.set_identifier("edgemt-sample-1")
    book.set_title("A short guide")
    book.set_language("en")
    c1 = e.EpubHtml(title="Getting started", file_name="chap_01.xhtml", lang="en")
    c1.content = ("<h1>Getting started</h1><p>Please restart your computer to complete the installation.</p>"
                  "<p>Click <b>Save</b> before you close the window.</p>")
    c2 = e.EpubHtml(title="Files", file_name="chap_02.xhtml", lang="en")
    c2.content = "<h1>Files</h1><p>The file could not be opened.<br/>Check that it exists.</p>"
    book.add_item(c1)
    book.add_item(c2)
    book.toc = (e.Link("chap_01.xhtml", "Getting started", "intro"), e.Link("chap_02.xhtml", "Files", "files"))
    book.add_item(e.EpubNcx())
    book.add_item(e.EpubNav())
    book.spine = ["nav", c1, c2]
    e.write_epub(path, book)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/documents"
    paths = {k: os.path.join(out, "sample." + k) for k in ("docx", "pptx", "xlsx", "odt", "odp", "ods", "epub")}
    docx(paths["docx"])
    pptx(paths["pptx"])
    xlsx(paths["xlsx"])
    odf(paths["odt"], paths["odp"])
    ods(paths["ods"])
    epub(paths["epub"])
    for k in ("docx", "pptx", "xlsx", "odt", "odp", "ods"):  # EbookLib's mimetype entry must stay first: left as written
        fixed_times(paths[k])
    for p in paths.values():
        print(p, os.path.getsize(p))


if __name__ == "__main__":
    main()
