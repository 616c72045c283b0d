#pragma once

#include <string>

#include "converter/source_model.h"

namespace edgemt::convert {

// A Marian model: an .npz file, or a directory holding one (as Marian, OPUS-MT's Tatoeba
// releases and Firefox Translations ship them) with its SentencePiece vocabularies.
bool is_marian_input(const std::string& input);

// Reads a Marian transformer from model.npz (float32; the architecture from its
// "special:model.yml", else model.npz.yml beside it) and its vocabularies: those a
// decoder configuration in the directory names (decoder.yml, *.decoder.yml,
// config*.yml: "models" and "vocabs"), else vocab*.spm (one joint model) or
// srcvocab*.spm + trgvocab*.spm. Throws ConvertError naming what is wrong or
// unsupported.
SourceModel read_marian(const std::string& input);

}  // namespace edgemt::convert
