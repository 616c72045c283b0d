"""edgemt: offline machine translation for small devices.

The interface follows CTranslate2's, so that code written for it ports with few changes::

    import edgemt
    translator = edgemt.Translator("model.emt", intra_threads=2)
    results = translator.translate_batch([["▁Hello", "▁world", "."]], beam_size=4)
    print(results[0].hypotheses[0])            # target tokens

    translator.translate(["Hello world."])     # text in, text out (the model's own tokenizer)
    translator.translate_ids([[52, 7, 0]])     # token ids in and out

The model file decides the weights' precision (float32 or int8), so ``compute_type`` is
only checked, not applied. The GIL is released while translating: several Python
threads can translate at once, each with its own Translator over one shared model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Union

from . import _edgemt

__all__ = ["Translator", "TranslationResult", "Model", "CancelFlag", "CancelledError", "version", "active_isa"]
__version__ = _edgemt.version()

Model = _edgemt.Model
# A flag to stop a call from another thread: pass cancel=flag to a translate call and
# call flag.cancel(); the call raises CancelledError (a RuntimeError) within one decoder
# step. flag.reset() readies it for the next call.
CancelFlag = _edgemt.CancelFlag
CancelledError = _edgemt.CancelledError


def version() -> str:
    """edgemt's version."""
    return _edgemt.version()


def active_isa() -> str:
    """The instruction set the kernels use in this process ("avx2", "neon64_dot", ...)."""
    return _edgemt.active_isa()


@dataclass
class TranslationResult:
    """One input's result, as CTranslate2 returns it (hypotheses[0] is the best)."""

    hypotheses: List[List[str]]
    scores: List[float] = field(default_factory=list)


@dataclass
class ScoringResult:
    """One pair's score, as CTranslate2's score_batch returns it: the target's tokens and
    the end token, each with its log-probability given the source."""

    tokens: List[str]
    log_probs: List[float]


# CTranslate2 options that edgemt does not implement: accepted at their default value only.
_UNSUPPORTED_DEFAULTS = {
    "target_prefix": None, "asynchronous": False, "patience": 1, "coverage_penalty": 0,
    "repetition_penalty": 1, "no_repeat_ngram_size": 0, "disable_unk": False, "suppress_sequences": None,
    "end_token": None, "return_end_token": False, "prefix_bias_beta": 0, "min_decoding_length": 1,
    "use_vmap": False, "return_attention": False, "return_alternatives": False,
    "min_alternative_expansion_prob": 0, "sampling_topp": 1,
    "replace_unknowns": False, "callback": None,
}
# Accepted and ignored: batching is planned by the translator itself.
_IGNORED = {"max_batch_size", "batch_type", "max_input_length"}
# translate()'s formats: name -> the C API's edgemt_format (the format table's:
# runtime/formats/format_list.h).
_FORMATS = dict(_edgemt.FORMATS)


class Translator:
    """A translator over one model file: its own working memory, planned at creation.

    model_path: an .emt file (edgemt-convert makes them); None: the bundled model, the
    English->German one unless source_lang/target_lang name another pair (e.g.
    source_lang="de", target_lang="en"; one of the two is enough where it names a single
    bundled model). With model_path, they are checked against the model's pair. Where no
    bundled model translates the pair but two chain through a pivot language (fr->en and
    en->de for fr->de; English preferred), translate() goes through both in turn (the
    other calls then raise NotImplementedError); `pivot` is then the first Translator.
    intra_threads: worker threads of this translator (CTranslate2's name; 0 = 1).
    max_batch: sentences translated together; max_beam, max_input_length,
    max_decoding_length: limits the memory is planned for (0: the model's).
    rerank: rerank each sentence's beam hypotheses with a model of the opposite direction
    (set_reranker): True for the bundled one (de->en for an en->de model; through a pivot,
    each model's), or a model path or Model; rerank_weight: its weight (0.3).
    """

    def __init__(self, model_path: Optional[str] = None, device: str = "cpu", *, compute_type: str = "default",
                 inter_threads: int = 1, intra_threads: int = 1, max_batch: int = 8, max_beam: int = 0,
                 max_input_length: int = 0, max_decoding_length: int = 0,
                 model: Optional[Model] = None, source_lang: Optional[str] = None,
                 target_lang: Optional[str] = None, rerank: Union[bool, str, Model] = False,
                 rerank_weight: float = 0.3):
        if device != "cpu":
            raise ValueError(f"device {device!r} is not supported: edgemt runs on the CPU")
        if compute_type not in ("default", "auto", "int8", "int8_float32", "float32", "float"):
            raise ValueError(f"compute_type {compute_type!r} is not supported (the model file sets the precision)")
        if inter_threads != 1:
            raise NotImplementedError("inter_threads > 1: create one Translator per thread over a shared Model")
        self.pivot: Optional["Translator"] = None
        if model is None and model_path is None and (source_lang or target_lang):
            route = (_edgemt.bundled_model_route(source_lang, target_lang) if source_lang and target_lang
                     else [_edgemt.bundled_model_path(source_lang or "", target_lang or "")])
            if len(route) == 2:
                self.pivot = Translator(route[0], intra_threads=intra_threads, max_batch=max_batch,
                                        max_beam=max_beam, max_input_length=max_input_length,
                                        max_decoding_length=max_decoding_length)
            model_path = route[-1]
        if model is None:
            path = model_path or _edgemt.default_model_path()
            if not path:
                raise FileNotFoundError("no model_path given and no bundled model found")
            model = Model(path)
        first = self.pivot.model if self.pivot is not None else model
        for asked, m, has, side in ((source_lang, first, first.source_language, "source"),
                                    (target_lang, model, model.target_language, "target")):
            if asked and has and asked != has:
                raise ValueError(f"the model translates {m.source_language}->{m.target_language}; "
                                 f"its {side} language is not {asked}")
        self.model = model
        self._t = _edgemt.Translator(model, max_batch, max_beam, max_input_length, max_decoding_length,
                                     max(1, intra_threads))
        if rerank is not False:
            if self.pivot is not None:
                if rerank is not True:
                    raise ValueError("through a pivot, rerank=True reranks with each model's bundled reverse")
                self.pivot.set_reranker(True, rerank_weight)
            self.set_reranker(rerank, rerank_weight)

    def set_reranker(self, reverse: Union[bool, str, Model, None] = True, weight: float = 0.3) -> None:
        """Rerank with a reverse model (noisy-channel reranking): translate() and the other
        text calls find each sentence's beam hypotheses, score each by the reverse model's
        log-probability of the source sentence given it (per token), and keep the best
        search score + weight * that. About 2.5x the time at beam 4; greedy search is not
        reranked. reverse: True for the bundled model of the opposite direction, a model
        path or Model; None or False removes the reranker. The reverse model must translate
        this model's target language to its source language."""
        if reverse is None or reverse is False:
            self._t.set_reranker(None, 0.0)
            return
        if reverse is True:
            src, tgt = self.model.source_language, self.model.target_language
            if not src or not tgt:
                raise ValueError("the model does not name its languages: pass the reverse model's path")
            reverse = _edgemt.bundled_model_path(tgt, src)
        if isinstance(reverse, str):
            reverse = Model(reverse)
        self._t.set_reranker(reverse, float(weight))

    @staticmethod
    def _options(beam_size, max_decoding_length, length_penalty, max_length_factor=None,
                 max_length_offset=None, sampling_topk=1, sampling_temperature=1.0,
                 seed=0, cancel=None) -> "_edgemt.Options":
        o = _edgemt.Options()
        if cancel is not None:
            if not isinstance(cancel, CancelFlag):
                raise TypeError("cancel must be an edgemt.CancelFlag, got %s" % type(cancel).__name__)
            o.cancel = cancel
        if int(sampling_topk) < 1:
            raise ValueError(f"sampling_topk must be at least 1, got {sampling_topk}")
        if not float(sampling_temperature) > 0.0:
            raise ValueError(f"sampling_temperature must be > 0, got {sampling_temperature}")
        if not 0 <= int(seed) < 2 ** 64:
            raise ValueError(f"seed must be in [0, 2**64), got {seed}")
        o.sampling_topk = int(sampling_topk)
        o.sampling_temperature = float(sampling_temperature)
        o.seed = int(seed)
        if beam_size is not None:
            o.beam = int(beam_size)
            if o.beam < 1:
                raise ValueError(f"beam_size must be at least 1, got {beam_size}")
        if max_decoding_length is not None:
            o.max_length = int(max_decoding_length)
            if o.max_length < 1:
                raise ValueError(f"max_decoding_length must be at least 1, got {max_decoding_length}")
        if length_penalty is not None:
            o.has_length_penalty = True
            o.length_penalty = float(length_penalty)
        if max_length_factor is not None:
            o.max_length_factor = float(max_length_factor)
            if not o.max_length_factor >= 0.0:
                raise ValueError(f"max_length_factor must be a number >= 0, got {max_length_factor}")
        if max_length_offset is not None:
            o.max_length_offset = int(max_length_offset)
        return o

    def _direct_only(self, call: str) -> None:
        if self.pivot is not None:
            raise NotImplementedError(f"{call}() needs one model; this Translator goes through a pivot "
                                      f"language (only translate() chains the two)")

    @staticmethod
    def _check_unsupported(kwargs) -> None:
        for k, v in kwargs.items():
            if k in _IGNORED:
                continue
            if k not in _UNSUPPORTED_DEFAULTS:
                raise TypeError(f"translate_batch() got an unexpected keyword argument {k!r}")
            if v != _UNSUPPORTED_DEFAULTS[k]:
                raise NotImplementedError(f"{k}={v!r} is not supported by edgemt")

    def translate_batch(self, source: Sequence[Sequence[str]], *, beam_size: Optional[int] = None,
                        num_hypotheses: int = 1, length_penalty: Optional[float] = None,
                        max_decoding_length: Optional[int] = None, return_scores: bool = False,
                        sampling_topk: int = 1, sampling_temperature: float = 1.0, seed: int = 0,
                        cancel: Optional[CancelFlag] = None, **kwargs) -> List[TranslationResult]:
        """Translates token sequences (SentencePiece pieces, without the end token).

        beam_size / length_penalty: None means the model's settings; max_decoding_length:
        None means the translator's limit. Returns one TranslationResult per input, with up
        to num_hypotheses hypotheses (beam search's finished ones, best first; at most the
        beam) and, with return_scores, their scores (log-probability / length**length_penalty,
        as CTranslate2's; greedy scores its one hypothesis).
        sampling_topk > 1: each next token is drawn among the sampling_topk most likely
        (at most 1024) with probabilities softmax(logits / sampling_temperature); needs
        beam_size 1 (None becomes 1); a sentence's draws depend only on `seed` and the
        sentence (CTranslate2 takes a global random seed instead).
        cancel: an edgemt.CancelFlag another thread may set (flag.cancel()) to stop the
        call, which then raises edgemt.CancelledError; this method and the other translate
        calls take one.
        """
        self._check_unsupported(kwargs)
        self._direct_only("translate_batch")
        if int(num_hypotheses) < 1:
            raise ValueError(f"num_hypotheses must be at least 1, got {num_hypotheses}")
        tokens = [list(map(str, s)) for s in source]
        options = self._options(beam_size, max_decoding_length, length_penalty, None, None, sampling_topk,
                                sampling_temperature, seed, cancel)
        if num_hypotheses == 1 and not return_scores:
            return [TranslationResult(hypotheses=[h]) for h in self._t.translate_tokens(tokens, options)]
        out = self._t.translate_tokens_nbest(tokens, int(num_hypotheses), options)
        return [TranslationResult(hypotheses=[h for h, _ in hyps], scores=[s for _, s in hyps] if return_scores else [])
                for hyps in out]

    def translate(self, texts: Union[str, Iterable[str]], *, beam_size: Optional[int] = None,
                  length_penalty: Optional[float] = None, max_decoding_length: Optional[int] = None,
                  max_length_factor: Optional[float] = None,
                  max_length_offset: Optional[int] = None,
                  split_sentences: bool = True,
                  repetition_guard: bool = True,
                  protect_spans: bool = True,
                  glossary: Optional[Dict[str, str]] = None,
                  format: str = "text",
                  sampling_topk: int = 1, sampling_temperature: float = 1.0,
                  seed: int = 0, cancel: Optional[CancelFlag] = None) -> Union[str, List[str]]:
        """Text to text with the model's own tokenizer (a str gives a str).

        max_length_factor / max_length_offset: each sentence generates at most
        ceil(factor x source tokens) + offset tokens (Marian's max-length-factor); None: off.
        split_sentences: each text is split into sentences, translated and put back with its
        whitespace and line breaks; False: each text is one sentence.
        repetition_guard: a hypothesis that repeats one n-gram back to back (a token 8
        times, up to 16 tokens 4 times) ends there; False: the model's exact search.
        protect_spans: URLs, e-mail addresses, file paths, `code`, placeholders (%s, {name},
        $1), numbers with units, long tokens (base64, hex digests) and characters the
        model's vocabulary lacks ("€", emoji) come through verbatim, and a sentence
        written in capitals is translated recased and given back in capitals; False:
        translated as any text.
        glossary: {source term: target term}; each source term found in a sentence (a
        whole word) is translated as its target.
        format: "text", or "html": each text is an HTML document whose text nodes are
        translated (tags, attributes, comments, script/style/code/pre kept as written);
        "po": each text is a gettext catalog whose untranslated messages are filled in and
        flagged fuzzy, everything else kept as written; "markdown": each text is a Markdown
        document whose prose is translated, code, URLs, HTML and markup kept; "srt" (or
        "vtt"): each text is a subtitle file (SubRip, or WebVTT with its WEBVTT header)
        whose cues' text is translated, each cue broken into as many lines as it had,
        cue numbers, times and formatting tags kept; "wrapped": each text is plain text
        whose paragraphs are wrapped at a width (an e-mail, a README.txt): a paragraph's
        wrapped lines are translated together and wrapped again, short lines kept;
        "csv": each text is a table of comma-separated values (',', ';', tab or '|'):
        its cells with words translated, numbers, identifiers and quoting kept (a
        translation table whose header names the source language's column, "keys,en,de":
        that column's translations in the target's column, a new one where none); "json": a
        JSON document (an app's locale file): its string values with words translated,
        keys, numbers and the layout kept (invalid JSON raises ValueError); "xliff": an
        XLIFF 1.2 or 2.x document (translation tools, Xcode, Angular): each segment without
        a translation gets a target, inline codes kept; Qt Linguist .ts files likewise
        (XML that is not well-formed raises ValueError); "android": an app's Android string
        resources (res/values/strings.xml): strings, arrays and plurals translated with
        their styling, placeholders and Android's escapes, translatable="false" left out;
        "properties": a Java resource bundle (messages.properties): its values with words
        translated with Java's escapes (\\uXXXX in an all-ASCII file; a MessageFormat
        pattern's apostrophes doubled), keys and comments kept; "strings": an Apple
        Localizable.strings file: its values with words translated, keys and comments kept
        (an entry without its '=' or ';' raises ValueError); "resx": a .NET Resources.resx
        file: its string resources with words translated, comments, other resources and the
        designer's kept (XML that is not well-formed raises ValueError); "xcstrings": an Xcode
        String Catalog: each string the model's target language lacks gets its
        localization (plurals with its categories), marked needs_review; "yaml" (or "yml"): a
        YAML locale file (Rails' config/locales/en.yml): its scalar values with words
        translated in their quoting, keys and comments kept, "en:" renamed; "stringsdict":
        an Apple Localizable.stringsdict file: each plural rule's category strings
        translated, the rule given the target language's categories it lacks (a file that
        is not a property list raises ValueError).
        sampling_topk / sampling_temperature / seed: random sampling for variety, as in
        translate_batch (the same seed gives the same translation of a sentence).
        cancel: an edgemt.CancelFlag another thread may set to stop the call (raises
        edgemt.CancelledError).
        """
        if format not in _FORMATS:
            names = [repr(n) for n in _FORMATS]
            raise ValueError("format must be %s or %s, got %r" % (", ".join(names[:-1]), names[-1], format))
        if self.pivot is not None:
            if glossary:
                raise NotImplementedError("a glossary through a pivot language is not supported")
            if _FORMATS[format] in (_FORMATS["po"], _FORMATS["xliff"]):
                # The first model would fill the file in, leaving nothing for the second.
                raise NotImplementedError("format=%r through a pivot language is not supported here; the "
                                          "translate command fills such a file in through both models" % (format,))
            texts = self.pivot.translate(
                texts, beam_size=beam_size, length_penalty=length_penalty, max_decoding_length=max_decoding_length,
                max_length_factor=max_length_factor, max_length_offset=max_length_offset,
                split_sentences=split_sentences, repetition_guard=repetition_guard, protect_spans=protect_spans,
                format=format, sampling_topk=sampling_topk, sampling_temperature=sampling_temperature, seed=seed,
                cancel=cancel)
        single = isinstance(texts, str)
        batch = [texts] if single else list(texts)
        options = self._options(beam_size, max_decoding_length, length_penalty, max_length_factor,
                                max_length_offset, sampling_topk, sampling_temperature, seed, cancel)
        options.split_sentences = bool(split_sentences)
        options.repetition_guard = bool(repetition_guard)
        options.protect_spans = bool(protect_spans)
        options.format = _FORMATS[format]
        if glossary:
            lines = []
            for src, tgt in glossary.items():
                if any(c in str(s) for s in (src, tgt) for c in "\t\n\r"):
                    raise ValueError("glossary terms cannot hold tabs or line breaks: %r" % ((src, tgt),))
                lines.append("%s\t%s" % (src, tgt))
            options.glossary = "\n".join(lines) + "\n"
        out = self._t.translate(batch, options)
        return out[0] if single else out

    def translate_document(self, data: Union[bytes, bytearray, memoryview], *, beam_size: Optional[int] = None,
                           length_penalty: Optional[float] = None, max_decoding_length: Optional[int] = None,
                           protect_spans: bool = True, cancel: Optional[CancelFlag] = None) -> bytes:
        """An office document or e-book to its translation: the bytes of a .docx, .pptx, .xlsx,
        .odt, .odp, .ods or .epub file in, the translated file's bytes out (the type is read
        from the file). Each paragraph is translated whole, its bold, italics, links and styles put on
        the words they came with; images, tables, fields and the rest of the file are kept.
        A file that is not such a document raises ValueError saying why.

            open("guide.de.docx", "wb").write(t.translate_document(open("guide.docx", "rb").read()))
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("translate_document() takes the file's bytes, got %s" % type(data).__name__)
        data = bytes(data)
        if self.pivot is not None:
            data = self.pivot.translate_document(data, beam_size=beam_size, length_penalty=length_penalty,
                                                 max_decoding_length=max_decoding_length,
                                                 protect_spans=protect_spans, cancel=cancel)
        options = self._options(beam_size, max_decoding_length, length_penalty, cancel=cancel)
        options.protect_spans = bool(protect_spans)
        return self._t.translate_document(data, options)

    def translate_pdf(self, data: Union[bytes, bytearray, memoryview], *, beam_size: Optional[int] = None,
                      length_penalty: Optional[float] = None, max_decoding_length: Optional[int] = None,
                      protect_spans: bool = True, cancel: Optional[CancelFlag] = None) -> str:
        """A PDF file's bytes to the translation of its text: each paragraph (found by
        pdftotext, from poppler-utils) translated and written on a line of its own, a blank
        line between paragraphs; the layout is not kept. Not a PDF, a damaged or encrypted
        one or one without text raises ValueError; without pdftotext, NotImplementedError.

            open("paper.de.txt", "w").write(t.translate_pdf(open("paper.pdf", "rb").read()))
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("translate_pdf() takes the file's bytes, got %s" % type(data).__name__)
        options = self._options(beam_size, max_decoding_length, length_penalty, cancel=cancel)
        options.protect_spans = bool(protect_spans)
        if self.pivot is not None:
            text = self.pivot.translate_pdf(data, beam_size=beam_size, length_penalty=length_penalty,
                                            max_decoding_length=max_decoding_length, protect_spans=protect_spans,
                                            cancel=cancel)
            return self._t.translate([text], options)[0]
        return self._t.translate_pdf(bytes(data), options)

    def translate_scored(self, texts: Union[str, Iterable[str]], *, num_hypotheses: int = 1,
                         beam_size: Optional[int] = None, length_penalty: Optional[float] = None,
                         max_decoding_length: Optional[int] = None, split_sentences: bool = True,
                         protect_spans: bool = True,
                         cancel: Optional[CancelFlag] = None) -> Union[dict, List[dict]]:
        """Plain text to scored translations with word alignments (a str gives one dict).

        Each text gives what `translate --output jsonl` prints for it: {"translation",
        "score", "confidence" (0-1, the geometric mean of its tokens' probabilities),
        "words": [{"word", "confidence", "source"}] ("source": the index of the source word
        it is aligned to, from cross-attention), "source_words", "alignment" (Moses'
        "source-target" word index pairs), "sentences": [each sentence's "source" and the
        same fields]}, and with num_hypotheses > 1 "n_best" lists ({"translation", "score",
        "confidence"}, best first; beam search gives at most its beam).
        """
        import json

        self._direct_only("translate_scored")
        if num_hypotheses < 1:
            raise ValueError("num_hypotheses must be at least 1, got %r" % (num_hypotheses,))
        single = isinstance(texts, str)
        batch = [texts] if single else list(texts)
        if beam_size is None and num_hypotheses > 1:
            beam_size = num_hypotheses
        options = self._options(beam_size, max_decoding_length, length_penalty, cancel=cancel)
        options.split_sentences = bool(split_sentences)
        options.protect_spans = bool(protect_spans)
        out = [json.loads(x) for x in self._t.translate_scored(batch, num_hypotheses, options)]
        return out[0] if single else out

    def score_batch(self, source: Sequence[Sequence[str]], target: Sequence[Sequence[str]],
                    **kwargs) -> List[ScoringResult]:
        """Scores token sequences (SentencePiece pieces, without end tokens), as
        CTranslate2's score_batch: per pair the target's tokens plus "</s>", each with its
        log-probability given the source (the model's raw log-softmax; forced decoding).
        Their sum is the target's log-probability (a reranker or filter's score)."""
        for k in kwargs:
            if k not in ("max_batch_size", "batch_type", "max_input_length", "offset", "asynchronous"):
                raise TypeError(f"score_batch() got an unexpected keyword argument {k!r}")
        if kwargs.get("offset", 0) != 0 or kwargs.get("asynchronous", False):
            raise NotImplementedError("offset and asynchronous are not supported by edgemt")
        self._direct_only("score_batch")
        src = [list(map(str, s)) for s in source]
        tgt = [list(map(str, t)) for t in target]
        if len(src) != len(tgt):
            raise ValueError(f"score_batch: {len(src)} sources but {len(tgt)} targets")
        out = self._t.score_tokens(src, tgt)
        return [ScoringResult(tokens=t + ["</s>"], log_probs=list(lp)) for t, lp in zip(tgt, out)]

    def score(self, source: Union[str, Iterable[str]],
              target: Union[str, Iterable[str]]) -> Union[List[float], List[List[float]]]:
        """Text pairs, each tokenized whole with the model's tokenizers: each target's
        tokens' log-probabilities given its source, the end included (sum() of it is the
        target's log-probability). A str pair gives one list."""
        self._direct_only("score")
        single = isinstance(source, str)
        if single != isinstance(target, str):
            raise TypeError("score: source and target must both be str or both be lists")
        src = [source] if single else list(source)
        tgt = [target] if single else list(target)
        if len(src) != len(tgt):
            raise ValueError(f"score: {len(src)} sources but {len(tgt)} targets")
        out = self._t.score(src, tgt)
        return out[0] if single else out

    def score_ids(self, source: Sequence[Sequence[int]], target: Sequence[Sequence[int]]) -> List[List[float]]:
        """Token ids: each target's tokens' log-probabilities given its source, the final
        eos included (one more value than the target has ids)."""
        self._direct_only("score_ids")
        return self._t.score_ids([list(map(int, s)) for s in source], [list(map(int, t)) for t in target])

    def translate_ids(self, ids: Sequence[Sequence[int]], *, beam_size: Optional[int] = None,
                      length_penalty: Optional[float] = None, max_decoding_length: Optional[int] = None,
                      max_length_factor: Optional[float] = None,
                      max_length_offset: Optional[int] = None,
                      cancel: Optional[CancelFlag] = None) -> List[List[int]]:
        """Token ids to token ids (an end-of-sentence id is appended when missing). ids is
        any sequence of sequences of ints (lists, tuples, numpy rows); a call allocates
        nothing per sequence beyond the lists it returns."""
        self._direct_only("translate_ids")
        return self._t.translate_ids(ids,
                                     self._options(beam_size, max_decoding_length, length_penalty,
                                                   max_length_factor, max_length_offset, cancel=cancel))
