"""The Python module (edgemt) against transformers' references and the C++ outputs.

Runs under pytest or as a plain script (python3 tests/python/test_edgemt.py):
    EDGEMT_PARITY_SOURCE_DIR  tests/data/parity (reference.json, vocab.json)
    EDGEMT_PARITY_BUILD_DIR   the converted .emt files (<build>/tests/parity)
    PYTHONPATH                <build>/python, unless edgemt is pip-installed
"""

import json
import os
import sys
import threading

import edgemt

SRC = os.environ.get("EDGEMT_PARITY_SOURCE_DIR", "tests/data/parity")
BUILT = os.environ.get("EDGEMT_PARITY_BUILD_DIR", "build/release/tests/parity")
MODEL = "m2_joint_swish_d40h4_untied"


def reference(name=MODEL):
    with open(os.path.join(SRC, name, "reference.json"), encoding="utf-8") as f:
        return json.load(f)


def model_path(name=MODEL):
    return os.path.join(BUILT, name + ".emt")


def pieces(name=MODEL):
    with open(os.path.join(SRC, name, "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    by_id = {i: p for p, i in vocab.items()}
    return vocab, by_id


def test_version_and_isa():
    assert edgemt.version() == edgemt.__version__
    assert edgemt.active_isa()


def test_translate_ids_equals_transformers():
    ref = reference()
    max_new = ref["max_new_tokens"]
    tr = edgemt.Translator(model_path(), max_beam=4, max_decoding_length=max_new, intra_threads=2)
    assert tr.translate_ids(ref["src_ids"], beam_size=1) == ref["greedy"]
    assert tr.translate_ids(ref["src_ids"], beam_size=4) == ref["beam4"]


def test_translate_batch_takes_and_returns_tokens_like_ctranslate2():
    ref = reference()
    vocab, by_id = pieces()
    eos = ref["config"]["eos_token_id"]
    source = [[by_id[i] for i in ids if i != eos] for ids in ref["src_ids"]]
    tr = edgemt.Translator(model_path(), max_beam=4, max_decoding_length=ref["max_new_tokens"])
    results = tr.translate_batch(source, beam_size=4, max_batch_size=16, batch_type="examples")
    assert len(results) == len(source)
    for r, want in zip(results, ref["beam4"]):
        assert isinstance(r, edgemt.TranslationResult)
        assert [vocab[p] for p in r.hypotheses[0]] == want


def test_translate_batch_nbest_and_scores_like_ctranslate2():
    """num_hypotheses / return_scores: transformers' 4-best (generate with
    num_return_sequences=4) in order, and the best one's sequences_scores."""
    ref = reference()
    vocab, by_id = pieces()
    eos = ref["config"]["eos_token_id"]
    source = [[by_id[i] for i in ids if i != eos] for ids in ref["src_ids"]]
    tr = edgemt.Translator(model_path(), max_beam=4, max_decoding_length=ref["max_new_tokens"])
    results = tr.translate_batch(source, beam_size=4, num_hypotheses=4, return_scores=True, length_penalty=1.0)
    assert len(results) == len(source)
    for r, want, score in zip(results, ref["beam4_nbest"], ref["beam4_score"]):
        assert [[vocab[p] for p in h] for h in r.hypotheses] == want
        assert len(r.scores) == len(r.hypotheses)
        assert abs(r.scores[0] - score) <= 1e-4 + 1e-4 * abs(score), (r.scores[0], score)
        assert r.scores == sorted(r.scores, reverse=True)
    # Greedy with scores: one hypothesis, the same ids as without, a log-probability.
    greedy = tr.translate_batch(source[:5], beam_size=1, return_scores=True)
    for r, want in zip(greedy, ref["greedy"][:5]):
        assert [vocab[p] for p in r.hypotheses[0]] == want and len(r.hypotheses) == 1
        assert len(r.scores) == 1 and r.scores[0] <= 0.0
    assert tr.translate_batch(source[:1], beam_size=4, num_hypotheses=2)[0].scores == []


def test_score_batch_gives_transformers_sequence_scores():
    """score_batch (CTranslate2's): forced decoding of transformers' best beam hypothesis
    gives its sequences_scores (the mean token log-probability, length_penalty 1)."""
    ref = reference()
    vocab, by_id = pieces()
    eos = ref["config"]["eos_token_id"]
    source = [[by_id[i] for i in ids if i != eos] for ids in ref["src_ids"]]
    target = [[by_id[i] for i in nbest[0]] for nbest in ref["beam4_nbest"]]
    tr = edgemt.Translator(model_path(), max_beam=4, max_decoding_length=ref["max_new_tokens"])
    results = tr.score_batch(source, target)
    compared = 0
    for r, t, want in zip(results, target, ref["beam4_score"]):
        assert r.tokens == t + ["</s>"] and len(r.log_probs) == len(t) + 1
        assert all(x <= 0.0 for x in r.log_probs)
        if len(t) + 1 >= ref["max_new_tokens"]:
            continue  # ended by the length limit: transformers forces its eos
        got = sum(r.log_probs) / len(r.log_probs)
        assert abs(got - want) <= 1e-4 + 1e-4 * abs(want), (got, want)
        compared += 1
    assert compared >= 3, compared
    ids = tr.score_ids([ref["src_ids"][0]], [[vocab[p] for p in target[0]]])
    assert len(ids) == 1 and abs(sum(ids[0]) - sum(results[0].log_probs)) < 1e-4
    # Text: the bundled model's own translation is far likelier than an unrelated sentence.
    de = edgemt.Translator(source_lang="en", target_lang="de")
    src_text = "The file could not be opened."
    own = de.translate(src_text, beam_size=1)
    lp_own, lp_other = de.score([src_text, src_text], [own, "Das Wetter ist heute sehr sch\u00f6n."])
    assert all(x <= 0.0 for x in lp_own) and sum(lp_own) > sum(lp_other) + 10, (lp_own, lp_other)
    assert de.score(src_text, own) == lp_own
    for bad in (lambda: tr.score_batch(source[:2], target[:1]), lambda: de.score("a", ["b"]),
                lambda: tr.score_ids([ref["src_ids"][0]], [[10 ** 7]])):
        try:
            bad()
        except (ValueError, IndexError, TypeError):
            pass
        else:
            raise AssertionError("a bad scoring call did not raise")


def test_translate_text():
    ref = reference()
    tr = edgemt.Translator(model_path(), max_beam=4, max_decoding_length=ref["max_new_tokens"])
    out = tr.translate(ref["sentences"][:5], beam_size=1, repetition_guard=False, protect_spans=False)
    assert out == ref["greedy_text"][:5]
    assert tr.translate(ref["sentences"][0], beam_size=1, repetition_guard=False, protect_spans=False) == ref["greedy_text"][0]
    assert tr.translate([""]) == [""]
    # Sentence splitting (the default): two sentences on one line come back as each alone,
    # in place, with the spacing between them; split_sentences=False reaches the C API.
    alone = tr.translate(ref["sentences"][:2], beam_size=1, split_sentences=False, repetition_guard=False,
                       protect_spans=False)
    assert alone == ref["greedy_text"][:2]
    two = " " + ref["sentences"][0] + "  " + ref["sentences"][1] + "\n"
    assert tr.translate(two, beam_size=1, repetition_guard=False, protect_spans=False) == " " + alone[0] + "  " + alone[1] + "\n"
    whole = tr.translate(two, beam_size=1, split_sentences=False)
    assert "\n" not in whole and not whole.startswith(" ")
    # Protected spans (the default) come through whatever the model makes of the rest; a
    # text of nothing but spans is not translated; protect_spans=False reaches the C API.
    url = "https://example.org/a.html?id=7"
    assert url in tr.translate(ref["sentences"][0] + " " + url + " " + ref["sentences"][1], beam_size=1)
    assert tr.translate(url + " (%s)") == url + " (%s)"
    assert tr.translate(url + " (%s)", protect_spans=False) == tr.translate(url + " (%s)", split_sentences=False,
                                                                            protect_spans=False)
    assert tr.translate(url + " (%s)", protect_spans=False) != url + " (%s)"
    # A glossary: a term becomes its target whatever the model; bad terms are refused.
    word = ref["sentences"][1].split(" ")[0]
    assert "GLOSSAR" in tr.translate(ref["sentences"][1], glossary={word: "GLOSSAR"})
    try:
        tr.translate("x", glossary={"a\tb": "c"})
        assert False, "a tab in a term was accepted"
    except ValueError:
        pass
    # HTML documents: the markup comes back as it was, the text node translated.
    doc = '<p title="x">' + ref["sentences"][0] + "</p><!-- c -->"
    out = tr.translate(doc, format="html")
    node = tr.translate(ref["sentences"][0])
    assert out == '<p title="x">' + node.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") + \
        "</p><!-- c -->", out
    try:
        tr.translate("x", format="rst")
        assert False, "an unknown format was accepted"
    except ValueError as e:
        # The names are the format table's (translate --format's), every one listed.
        for name in ("text", "html", "srt", "tsv", "arb", "xlf", "ts", "yml", "stringsdict"):
            assert "'%s'" % name in str(e), str(e)
    # Markdown: the heading's marker and the code block are kept, the heading translated.
    md = "# " + ref["sentences"][0] + "\n\n```\ncode here\n```\n"
    assert tr.translate(md, format="markdown") == "# " + node + "\n\n```\ncode here\n```\n"
    # Subtitles: the cue's text translated, its number and times kept (SubRip and WebVTT).
    for fmt, head, times in (("srt", "1\n", "00:00:01,000 --> 00:00:02,000\n"),
                             ("vtt", "WEBVTT\n\n", "00:01.000 --> 00:02.000\n")):
        sub = head + times + ref["sentences"][0] + "\n"
        cue = " ".join(node.replace("-->", "->").split()) or ref["sentences"][0]
        if fmt == "vtt":  # WebVTT's text is escaped as HTML's
            cue = cue.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        assert tr.translate(sub, format=fmt) == head + times + cue + "\n", (fmt, tr.translate(sub, format=fmt))
    # Wrapped text: a line of its own is translated as plain text is.
    assert tr.translate(ref["sentences"][0] + "\n\n", format="wrapped") == \
        (" ".join(node.split()) or ref["sentences"][0]) + "\n\n"
    # CSV: the text cell translated as plain text (quoted), the key and the number kept.
    sentence0 = ref["sentences"][0].replace('"', '""')
    table = 'key,text,n\r\napp.title,"%s",42\r\n' % sentence0
    want_cell = '"%s"' % tr.translate(ref["sentences"][0]).replace('"', '""')
    got_table = tr.translate(table, format="csv")
    assert got_table.endswith('\r\napp.title,%s,42\r\n' % want_cell), got_table
    assert tr.translate(table, format="tsv") == got_table  # (the format's other name)
    # JSON: the string value translated as plain text, the key and the number kept.
    import json as _json
    got_json = _json.loads(tr.translate(_json.dumps({"title": ref["sentences"][0], "n": 3}), format="json"))
    assert got_json == {"title": tr.translate(ref["sentences"][0]), "n": 3}, got_json
    try:
        tr.translate('{"a": ', format="json")
        assert False, "invalid JSON was accepted"
    except ValueError:
        pass
    # XLIFF: the source's translation as the target, read back with Python's own XML parser.
    import xml.etree.ElementTree as _et
    from xml.sax.saxutils import escape as _escape
    doc = ('<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en">'
           '<body><trans-unit id="t"><source>%s</source></trans-unit></body></file></xliff>'
           % _escape(ref["sentences"][0]))
    ns = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
    target = _et.fromstring(tr.translate(doc, format="xliff")).find(".//x:target", ns)
    assert target is not None and target.get("state") == "needs-review-translation", doc
    import html as _html
    assert target.text == _html.unescape(tr.translate(_escape(ref["sentences"][0]), format="html")), target.text
    # Android string resources: a string translated as its HTML, with Android's escapes;
    # an untranslatable one left out.
    res = ('<resources><string name="a">%s</string><string name="k" translatable="false">Key</string>'
           '</resources>' % _escape(ref["sentences"][1]))
    strings = _et.fromstring(tr.translate(res, format="android")).findall("string")
    assert [s.get("name") for s in strings] == ["a"], strings
    want_a = _html.unescape(tr.translate(_escape(ref["sentences"][1]), format="html"))
    for ch in ("\\", "'", '"'):
        want_a = want_a.replace(ch, "\\" + ch)
    if want_a[:1] in ("@", "?"):
        want_a = "\\" + want_a
    assert strings[0].text == want_a, (strings[0].text, want_a)
    # Java .properties: the value translated as plain text (read back with Python's own
    # unicode_escape, which reads Java's \\uXXXX, \\n, \\t and \\\\), the URL's kept.
    import re as _re
    props = "# app\napp.title = %s\napp.url=https://example.org\n" % ref["sentences"][1].replace("\\", "\\\\")
    got_props = tr.translate(props, format="properties").split("\n")
    assert got_props[0] == "# app" and got_props[2] == "app.url=https://example.org", got_props
    assert got_props[1].startswith("app.title = "), got_props
    value = got_props[1][len("app.title = "):]
    assert all(ord(c) < 128 for c in value), value  # an all-ASCII file: \\uXXXX escapes
    value = value.encode("ascii").decode("unicode_escape").encode("utf-16", "surrogatepass").decode("utf-16")
    assert value == tr.translate(ref["sentences"][1]), (value, tr.translate(ref["sentences"][1]))
    # Apple .strings: the value translated as plain text, its quotes and '\\' escaped.
    apple = '/* title */\n"title" = "%s";\n' % ref["sentences"][2].replace("\\", "\\\\").replace('"', '\\"')
    m = _re.fullmatch(r'/\* title \*/\n"title" = "((?:[^"\\]|\\.)*)";\n', tr.translate(apple, format="strings"))
    assert m, tr.translate(apple, format="strings")
    unescaped = _re.sub(r"\\(.)", lambda e: {"n": "\n", "t": "\t", "r": "\r"}.get(e[1], e[1]), m[1])
    assert unescaped == tr.translate(ref["sentences"][2]), (unescaped, tr.translate(ref["sentences"][2]))
    # .NET .resx: the string resource's value translated as plain text (read back with
    # Python's own XML parser), the designer's and the comment kept.
    resx = ('<root><data name="T" xml:space="preserve"><value>%s</value><comment>c</comment></data>'
            '<data name="&gt;&gt;b.Name"><value>Save button</value></data></root>' % _escape(ref["sentences"][0]))
    data = _et.fromstring(tr.translate(resx, format="resx")).findall("data")
    assert [d.findtext("value") for d in data] == [tr.translate(ref["sentences"][0]), "Save button"], data
    assert data[0].findtext("comment") == "c"
    # Xcode String Catalogs: the key (the source text) gets the model's target language's
    # localization, marked needs_review; read back with Python's own JSON parser.
    target = tr.model.target_language
    catalog = {"sourceLanguage": "x", "strings": {ref["sentences"][0]: {}, "Brand": {"shouldTranslate": False}}}
    catalog_text = _json.dumps(catalog, indent=2)
    got_catalog = _json.loads(tr.translate(catalog_text, format="xcstrings"))
    assert got_catalog["strings"]["Brand"] == {"shouldTranslate": False}, got_catalog
    if target and target != "x":
        unit = got_catalog["strings"][ref["sentences"][0]]["localizations"][target]["stringUnit"]
        assert unit == {"state": "needs_review", "value": tr.translate(ref["sentences"][0])}, (unit, target)
    else:  # a model that names no target language: nothing to add the localization as
        assert tr.translate(catalog_text, format="xcstrings") == catalog_text
    # YAML (Rails' en.yml): the value translated as plain text, the language key renamed;
    # read back with PyYAML where it is installed.
    got_yaml = tr.translate('# app\nen:\n  title: "%s"\n' % ref["sentences"][1].replace("\\", "\\\\").replace('"', '\\"'),
                            format="yaml")
    assert got_yaml.startswith("# app\n%s:\n  title: " % (target or "en")), got_yaml
    try:
        import yaml as _yaml
    except ImportError:
        _yaml = None
    if _yaml is not None:
        assert _yaml.safe_load(got_yaml) == {target or "en": {"title": tr.translate(ref["sentences"][1])}}, got_yaml
    # Apple .stringsdict: each plural category's string translated as plain text; read back
    # with Python's own plistlib, the rule given the target's categories it lacks.
    import plistlib
    rule = {"NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
            "one": ref["sentences"][0], "other": ref["sentences"][1]}
    sdict = plistlib.dumps({"%d items": {"NSStringLocalizedFormatKey": "%#@n@", "n": rule}}).decode("utf-8")
    got_sdict = plistlib.loads(tr.translate(sdict, format="stringsdict").encode("utf-8"))
    got_rule = got_sdict["%d items"]["n"]
    assert got_sdict["%d items"]["NSStringLocalizedFormatKey"] == "%#@n@", got_sdict
    assert got_rule["one"] == tr.translate(ref["sentences"][0]), got_rule
    assert got_rule["other"] == tr.translate(ref["sentences"][1]), got_rule
    for extra in set(got_rule) - set(rule):
        assert extra in ("zero", "two", "few", "many") and got_rule[extra] == got_rule["other"], got_rule
    try:
        tr.translate("<resources/>", format="stringsdict")
        assert False, "a file that is not a property list was accepted"
    except ValueError as e:
        assert "not a .stringsdict file" in str(e), e
    try:
        tr.translate('"a" = "b"', format="strings")
        assert False, "a .strings entry without its ';' was accepted"
    except ValueError:
        pass
    try:
        tr.translate("<xliff><file>", format="xliff")
        assert False, "XML that is not well-formed was accepted"
    except ValueError:
        pass
    # gettext catalogs: the untranslated message is filled with the text's translation.
    sentence = ref["sentences"][0].replace("\\", "\\\\").replace('"', '\\"')
    catalog = 'msgid "Done"\nmsgstr "Fertig"\n\nmsgid "%s"\nmsgstr ""\n' % sentence
    want = node.replace("\\", "\\\\").replace('"', '\\"')
    filled = tr.translate(catalog, format="po", split_sentences=True)
    assert filled == 'msgid "Done"\nmsgstr "Fertig"\n\n#, fuzzy\nmsgid "%s"\nmsgstr "%s"\n' % (sentence, want), filled
    try:
        tr.translate('msgid "open\n', format="po")
        assert False, "a malformed catalog was accepted"
    except ValueError as e:
        assert "po line 1" in str(e)
    # Office documents: an OpenDocument text (written here with zipfile) comes back a ZIP
    # archive with its entries, the paragraph translated as the text is, the rest kept.
    import io
    import zipfile

    def esc(x):
        return x.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content><office:body><office:text>'
               '<text:p text:style-name="P1">%s</text:p></office:text></office:body></office:document-content>')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content % esc(ref["sentences"][0]), compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("Pictures/x.png", b"\x89PNG\r\n\x1a\n\x00\x01", compress_type=zipfile.ZIP_DEFLATED)
    out = tr.translate_document(buf.getvalue())
    assert isinstance(out, bytes)
    with zipfile.ZipFile(io.BytesIO(out)) as z:
        assert z.namelist() == ["mimetype", "content.xml", "Pictures/x.png"]
        assert z.read("Pictures/x.png") == b"\x89PNG\r\n\x1a\n\x00\x01"
        assert z.read("content.xml").decode() == content % esc(node or ref["sentences"][0]), z.read("content.xml")
    for bad in (b"plain text", b"PK\x03\x04broken"):
        try:
            tr.translate_document(bad)
            assert False, "not a document, accepted"
        except ValueError as e:
            assert "not a .docx" in str(e) or "ZIP" in str(e), str(e)
    try:
        tr.translate_document("a str")
        assert False, "a str was accepted"
    except TypeError:
        pass


def test_source_relative_length_limit():
    ref = reference()
    tr = edgemt.Translator(model_path(), max_beam=4, max_decoding_length=ref["max_new_tokens"])
    src = ref["src_ids"]
    full = tr.translate_ids(src, beam_size=1)
    cut = tr.translate_ids(src, beam_size=1, max_length_factor=0.5, max_length_offset=1)
    assert len(cut) == len(src)
    shorter = 0
    for s, f, c in zip(src, full, cut):
        limit = (len(s) + 1) // 2 + 1  # ceil(0.5 * n) + 1 tokens, eos included
        assert len(c) < limit, (s, c)
        if len(f) >= limit:  # the limit cut it: greedy ids are a prefix of the full ones
            assert c == f[:len(c)], (f, c)
            shorter += 1
        else:
            assert c == f
    assert shorter > 0
    try:
        tr.translate_ids(src, max_length_factor=-1)
        raise AssertionError("a negative factor was accepted")
    except ValueError:
        pass


def test_bundled_models_by_language_pair():
    de_en = edgemt.Translator(source_lang="de", target_lang="en")
    assert (de_en.model.source_language, de_en.model.target_language) == ("de", "en")
    assert de_en.translate("Die Datei konnte nicht geöffnet werden.").strip() != ""
    assert edgemt.Translator(target_lang="en").model.source_language == "de"
    assert edgemt.Translator().model.source_language == "en"  # the default: English->German
    en_de_path = edgemt._edgemt.bundled_model_path("en", "de")
    assert en_de_path.endswith("edgemt-en-de.emt")
    # A text written in capitals is translated recased and given back in capitals;
    # protect_spans=False gives the model the capitals.
    en_de = edgemt.Translator(source_lang="en", target_lang="de")
    caps = en_de.translate("PLEASE READ THE INSTRUCTIONS.")
    assert caps == caps.upper() and caps != "PLEASE READ THE INSTRUCTIONS.", caps
    assert en_de.translate("PLEASE READ THE INSTRUCTIONS.", protect_spans=False) != caps
    for bad, error in (({"source_lang": "xx", "target_lang": "yy"}, FileNotFoundError),
                       ({"model_path": en_de_path, "source_lang": "de"}, ValueError)):
        try:
            edgemt.Translator(**bad)
        except error as e:
            assert "en->de" in str(e) or "is not de" in str(e), e
        else:
            raise AssertionError(f"Translator({bad}) did not raise {error.__name__}")


def test_pivot_through_two_bundled_models():
    """EDGEMT_MODELS_DIR holding en->de (the bundled model) and de->xx (a Marian test model
    that names no languages): en->xx goes through German, as the two Translators in turn."""
    import tempfile

    en_de_path = edgemt._edgemt.bundled_model_path("en", "de")
    second = os.path.join(BUILT, "mar10_opus_yml_vocab.emt")
    texts = ["The file could not be opened. Please try again later.", "",
             "<p>Save the <b>document</b> now.</p>"]
    with tempfile.TemporaryDirectory() as d:
        os.symlink(en_de_path, os.path.join(d, "edgemt-en-de.emt"))
        os.symlink(second, os.path.join(d, "edgemt-de-xx.emt"))
        old = os.environ.get("EDGEMT_MODELS_DIR")
        os.environ["EDGEMT_MODELS_DIR"] = d
        try:
            route = edgemt._edgemt.bundled_model_route("en", "xx")
            assert [os.path.basename(p) for p in route] == ["edgemt-en-de.emt", "edgemt-de-xx.emt"], route
            assert len(edgemt._edgemt.bundled_model_route("en", "de")) == 1
            tr = edgemt.Translator(source_lang="en", target_lang="xx")
            assert tr.pivot is not None and tr.pivot.model.target_language == "de"
            first, last = edgemt.Translator(en_de_path), edgemt.Translator(second)
            for fmt in ("text", "html"):
                want = last.translate(first.translate(texts, format=fmt), format=fmt)
                assert tr.translate(texts, format=fmt) == want, (fmt, want)
                assert want != first.translate(texts, format=fmt)
            assert tr.translate(texts[0]) == last.translate(first.translate(texts[0]))
            assert edgemt.Translator(source_lang="en", target_lang="de").pivot is None
            for call in (lambda: tr.translate_scored("x"), lambda: tr.translate_ids([[5, 0]]),
                         lambda: tr.translate_batch([["a"]]), lambda: tr.translate("x", glossary={"a": "b"}),
                         lambda: tr.translate('msgid "a"\nmsgstr ""\n', format="po"),
                         lambda: tr.translate("<xliff/>", format="xliff")):
                try:
                    call()
                except NotImplementedError:
                    pass
                else:
                    raise AssertionError("a pivot Translator accepted a one-model call")
            for src, tgt in (("en", "en"), ("xx", "en")):
                try:
                    edgemt.Translator(source_lang=src, target_lang=tgt)
                except FileNotFoundError:
                    pass
                else:
                    raise AssertionError(f"{src}->{tgt} did not raise")
        finally:
            if old is None:
                del os.environ["EDGEMT_MODELS_DIR"]
            else:
                os.environ["EDGEMT_MODELS_DIR"] = old


def test_scored_translations_with_alignments():
    tr = edgemt.Translator(source_lang="en", target_lang="de")
    text = "The file could not be opened. Please try again!"
    r = tr.translate_scored(text, num_hypotheses=2)
    assert r["translation"] == tr.translate(text, beam_size=2)
    assert 0.0 < r["confidence"] <= 1.0 and len(r["n_best"]) == 2
    assert r["source_words"] == text.split()
    assert [s["source"] for s in r["sentences"]] == ["The file could not be opened.", "Please try again!"]
    pairs = []
    for t, w in enumerate(r["words"]):
        assert 0.0 < w["confidence"] <= 1.0
        assert 0 <= w["source"] < len(r["source_words"])
        pairs.append("%d-%d" % (w["source"], t))
    assert r["alignment"] == " ".join(pairs)
    # "Datei" renders "file" (the bundled model).
    datei = [w for w in r["words"] if w["word"] == "Datei"]
    assert datei and r["source_words"][datei[0]["source"]] == "file", r
    assert tr.translate_scored(["", text])[0] == {"translation": ""}
    try:
        tr.translate_scored(text, num_hypotheses=0)
    except ValueError:
        pass
    else:
        raise AssertionError("num_hypotheses=0 did not raise")


def test_errors_are_python_exceptions():
    try:
        edgemt.Translator("/nonexistent/model.emt")
        assert False, "no exception"
    except FileNotFoundError as e:
        assert "/nonexistent/model.emt" in str(e)
    tr = edgemt.Translator(model_path(), max_beam=2)
    for bad in (dict(beam_size=9), dict(num_hypotheses=0), dict(sampling_topk=5, beam_size=2),
                dict(sampling_topk=0), dict(sampling_topk=5, sampling_temperature=0), dict(sampling_topp=0.5)):
        try:
            tr.translate_batch([["a"]], **bad)
            assert False, f"no exception for {bad}"
        except (ValueError, NotImplementedError):
            pass
    try:
        tr.translate_ids([[5, 10**9]])
        assert False, "no exception"
    except ValueError as e:
        assert "vocabulary" in str(e)
    # Any sequence of sequences of ints; anything else a clear error naming the place.
    want = tr.translate_ids([[5, 7, 0]])
    assert tr.translate_ids(((5, 7, 0),)) == tr.translate_ids(s for s in [range(5, 9, 2)]) == want
    assert tr.translate_ids([]) == []
    for bad, err, where in (("57", TypeError, "ids must"), ([[5, "7"]], TypeError, "ids[0][1]"),
                            ([[5], [7.0]], TypeError, "ids[1][0]"), ([[5], 7], TypeError, "ids[1]"),
                            ([["57"]], TypeError, "ids[0][0]"), (["57"], TypeError, "ids[0]"),
                            ([[5, 2**40]], ValueError, "ids[0][1]"), (None, TypeError, "ids must")):
        try:
            tr.translate_ids(bad)
            assert False, f"{bad!r} was accepted"
        except err as e:
            assert where in str(e), (bad, str(e))
    try:
        edgemt.Translator(model_path(), device="cuda")
        assert False, "no exception"
    except ValueError:
        pass


def test_rerank_with_the_bundled_reverse_model():
    # rerank=True picks the bundled de->en model; the choice is among the beam's own
    # hypotheses, the one with the best search score + weight * backward per-token score.
    texts = ["I would like a cup of coffee, please.", "She forgot her umbrella at the restaurant.",
             "The cat sat on the mat."]
    plain = edgemt.Translator(source_lang="en", target_lang="de", max_beam=4)
    back = edgemt.Translator(source_lang="de", target_lang="en")
    reranked = edgemt.Translator(source_lang="en", target_lang="de", max_beam=4, rerank=True, rerank_weight=3.0)
    got = reranked.translate(texts, beam_size=4, split_sentences=False, protect_spans=False)
    changed = 0
    for text, out in zip(texts, got):
        scored = plain.translate_scored(text, num_hypotheses=4, beam_size=4, split_sentences=False,
                                        protect_spans=False)
        hyps = [(h["translation"], h["score"]) for h in scored["n_best"]]
        combined = []
        best_score = max(score for _, score in hyps)
        for hyp, score in hyps:
            lps = back.score(hyp, text)
            # Candidates: within 0.5 x the weight of the best search score (kRerankMargin).
            combined.append(score + 3.0 * sum(lps) / len(lps) if score >= best_score - 0.5 * 3.0 else -1e30)
        best = max(range(len(hyps)), key=lambda i: combined[i])
        assert out == hyps[best][0], (text, out, hyps, combined)
        changed += best != 0
    assert changed > 0, "a heavy weight changed nothing"
    reranked.set_reranker(None)
    assert reranked.translate(texts, beam_size=4, split_sentences=False, protect_spans=False) == \
        plain.translate(texts, beam_size=4, split_sentences=False, protect_spans=False)
    for bad in (lambda: reranked.set_reranker(plain.model), lambda: reranked.set_reranker(True, -1.0)):
        try:
            bad()
        except ValueError:
            pass
        else:
            raise AssertionError("a bad reranker did not raise")


def test_translate_pdf():
    """translate_pdf: the sample PDF's four paragraphs, each translated as translate() does,
    one a line with a blank line between; not a PDF raises ValueError, a str TypeError."""
    tr = edgemt.Translator(source_lang="en", target_lang="de")
    for bad, err in ((b"plain text", ValueError), ("a str", TypeError)):
        try:
            tr.translate_pdf(bad)
        except err:
            pass
        else:
            raise AssertionError("translate_pdf(%r) did not raise %s" % (bad, err.__name__))
    import shutil
    if shutil.which("pdftotext") is None:
        print("     (no pdftotext: the PDF itself not translated)")
        return
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "documents", "sample.pdf")
    with open(path, "rb") as f:
        out = tr.translate_pdf(f.read())
    paragraphs = out.split("\n\n")
    assert len(paragraphs) == 4 and out.endswith("\n"), out
    want = tr.translate(["Installing the program", "Save the document before closing the window."])
    assert paragraphs[0] == want[0] and paragraphs[3] == want[1] + "\n", (paragraphs, want)


def test_sampling_is_seeded():
    """sampling_topk draws tokens: the same seed gives the same outputs (in a batch or one
    by one), three seeds do not all agree; at a tiny temperature it is greedy search."""
    tr = edgemt.Translator(model_path(), max_beam=1)
    texts = reference()["sentences"]
    a = tr.translate(texts, sampling_topk=50, sampling_temperature=1.5, seed=7)
    b = [tr.translate(t, sampling_topk=50, sampling_temperature=1.5, seed=7) for t in texts]
    assert a == b
    c = tr.translate(texts, sampling_topk=50, sampling_temperature=1.5, seed=8)
    d = tr.translate(texts, sampling_topk=50, sampling_temperature=1.5, seed=9)
    assert not (a == c == d), "three seeds gave the same samples"
    cold = tr.translate(texts, sampling_topk=50, sampling_temperature=1e-4, seed=7)
    assert cold == tr.translate(texts, beam_size=1)
    toks = [r.hypotheses[0] for r in tr.translate_batch([["a", "b"]], sampling_topk=50, seed=3)]
    assert toks == [r.hypotheses[0] for r in tr.translate_batch([["a", "b"]], sampling_topk=50, seed=3)]


def test_cancel_flag_stops_a_call_from_another_thread():
    """A CancelFlag set before a call, or by another thread while a long one runs, makes it
    raise CancelledError (a RuntimeError); reset, the next call translates as before."""
    tr = edgemt.Translator(edgemt._edgemt.bundled_model_path("en", "de"))
    flag = edgemt.CancelFlag()
    assert not flag.cancelled
    flag.cancel()
    assert flag.cancelled
    for call in (lambda: tr.translate("The file could not be opened.", cancel=flag),
                 lambda: tr.translate_scored("The file could not be opened.", cancel=flag),
                 lambda: tr.translate_ids([[52, 7, 0]], cancel=flag)):
        try:
            call()
        except edgemt.CancelledError as e:
            assert isinstance(e, RuntimeError) and "cancelled" in str(e), e
        else:
            raise AssertionError("a cancelled call returned")
    flag.reset()
    many = ["Please restart the computer number %d." % i for i in range(400)]
    timer = threading.Timer(0.02, flag.cancel)
    timer.start()
    try:
        tr.translate(many, cancel=flag)
    except edgemt.CancelledError:
        pass
    else:
        raise AssertionError("the call ended before the flag was set")
    finally:
        timer.join()
    flag.reset()
    assert tr.translate("Save the document.", cancel=flag) == tr.translate("Save the document.")
    try:
        tr.translate("x", cancel=True)
    except TypeError:
        pass
    else:
        raise AssertionError("cancel=True was taken")


def test_threads_share_a_model_and_release_the_gil():
    ref = reference()
    model = edgemt.Model(model_path())
    results = [None] * 4

    def work(i):
        tr = edgemt.Translator(model=model, max_beam=4, max_decoding_length=ref["max_new_tokens"])
        results[i] = tr.translate_ids(ref["src_ids"], beam_size=4)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == ref["beam4"] for r in results)


if __name__ == "__main__":
    failed = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print(f"ok   {name}")
            except Exception as e:  # noqa: BLE001
                failed += 1
                print(f"FAIL {name}: {type(e).__name__}: {e}")
    print(f"{failed} failed")
    sys.exit(1 if failed else 0)
