// The YAML that Marian writes and reads: its model configuration ("special:model.yml"
// inside model.npz, model.npz.yml) and decoder configurations (decoder.yml,
// config.*.yml). These are flat mappings of scalars and lists of scalars, in block
// style ("key: value", "key:\n  - item") or flow style ("key: [a, b]").
//
// A reader of just that subset, rather than yaml-cpp: libyaml-cpp-dev is not
// Multi-Arch: same in Debian 12, and edgemt-convert is cross-built for the Raspberry
// Pi (the ARM test runs convert their models under qemu). Anything outside the subset
// (nested mappings, anchors, multi-line scalars) is refused with the line it is on.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace edgemt::convert {

struct YamlValue {
  bool is_list = false;
  std::string scalar;              // !is_list
  std::vector<std::string> items;  // is_list
};

using YamlMap = std::map<std::string, YamlValue>;

// Throws ConvertError("<file>:<line>: ...") on anything it does not read.
YamlMap parse_marian_yaml(const std::string& text, const std::string& file);

// Marian's word vocabulary (.yml, as Marian's DefaultVocab writes it: "piece: id" per
// line, pieces plain or quoted): id -> piece. Ids must be 0..n-1, each given once.
std::vector<std::string> parse_marian_vocab(const std::string& text, const std::string& file);

}  // namespace edgemt::convert
