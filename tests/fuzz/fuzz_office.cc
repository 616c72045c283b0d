// Arbitrary bytes through office documents (runtime/formats/office_document.h) and their
// ZIP container (runtime/formats/zip_archive.h). The first byte picks what the rest is:
//   0  a whole file (a ZIP archive, or not)
//   1  word/document.xml of a .docx    2  content.xml of an .odt    3  a .pptx slide
//   4  xl/sharedStrings.xml of an .xlsx
// Invariants: a file that parses renders (with its units as they are, and with pieces of
// the input as translations, tags and all, in another language) into a file that parses
// again, into as many
// units when they are its own; a ZIP archive that reads writes back into one that reads
// into the same entries. Nothing crashes, leaks or hangs on any input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/formats/office_document.h"
#include "runtime/formats/zip_archive.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

std::string archive(uint8_t mode, std::string_view xml) {
  std::vector<edgemt::ZipEntry> e;
  auto add = [&](const char* name, std::string_view data, uint16_t method = 8) {
    e.push_back({});
    e.back().name = name;
    e.back().data.assign(data);
    e.back().method = method;
  };
  if (mode == 1) {
    add("[Content_Types].xml", "<Types/>");
    add("word/document.xml", xml);
  } else if (mode == 2) {
    add("mimetype", "application/vnd.oasis.opendocument.text", 0);
    add("content.xml", xml);
  } else if (mode == 3) {
    add("ppt/presentation.xml", "<p:presentation/>");
    add("ppt/slides/slide1.xml", xml);
  } else {
    add("xl/workbook.xml", "<workbook/>");
    add("xl/sharedStrings.xml", xml);
  }
  auto z = edgemt::write_zip(e);
  EDGEMT_FUZZ_CHECK(z.has_value(), "write_zip: %s", z.status().to_string().c_str());
  return z.value();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0] % 5;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string file = mode == 0 ? std::string(rest) : archive(mode, rest);

  if (mode == 0) {
    auto entries = edgemt::read_zip(file, size_t{64} << 20);
    if (entries) {
      auto again = edgemt::write_zip(entries.value());
      EDGEMT_FUZZ_CHECK(again.has_value(), "write_zip: %s", again.status().to_string().c_str());
      auto back = edgemt::read_zip(again.value());
      EDGEMT_FUZZ_CHECK(back.has_value(), "read_zip of write_zip: %s", back.status().to_string().c_str());
      EDGEMT_FUZZ_CHECK(back.value().size() == entries.value().size(), "%zu entries became %zu",
                        entries.value().size(), back.value().size());
      for (size_t i = 0; i < back.value().size(); ++i)
        EDGEMT_FUZZ_CHECK(back.value()[i].name == entries.value()[i].name &&
                              back.value()[i].data == entries.value()[i].data,
                          "entry %zu changed", i);
    }
  }

  auto doc = edgemt::OfficeDocument::parse(file);
  if (!doc) {
    EDGEMT_FUZZ_CHECK(!doc.status().message().empty(), "an error without a message");
    return 0;
  }
  const std::vector<std::string>& units = doc.value().units();
  auto same = edgemt::OfficeDocument::parse(doc.value().render(units));
  EDGEMT_FUZZ_CHECK(same.has_value(), "rendered as itself, it does not parse: %s",
                    same.status().to_string().c_str());
  EDGEMT_FUZZ_CHECK(doc.value().kind() == edgemt::OfficeDocument::Kind::kEpub ||
                        same.value().units().size() == units.size(),
                    "rendered as itself: %zu units became %zu", units.size(), same.value().units().size());
  // Translations that are pieces of the input: any tags, ids, references.
  std::vector<std::string> odd;
  for (size_t i = 0; i < units.size(); ++i) {
    const size_t from = (i * 131) % (rest.size() + 1);
    odd.push_back(std::string(rest.substr(from, 1 + i % 200)));
  }
  const std::string rendered = doc.value().render(odd, (size & 1) != 0 ? "de" : "pt-BR");
  EDGEMT_FUZZ_CHECK(!rendered.empty(), "render gave no file");
  if (doc.value().kind() != edgemt::OfficeDocument::Kind::kEpub) {
    auto again = edgemt::OfficeDocument::parse(rendered);
    EDGEMT_FUZZ_CHECK(again.has_value(), "rendered with odd translations, it does not parse: %s",
                      again.status().to_string().c_str());
  }
  return 0;
}
