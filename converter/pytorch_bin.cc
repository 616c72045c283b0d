// pytorch_model.bin reader. Not implemented yet: such checkpoints must first be saved
// as safetensors (tools/ has a script for it).
#include "converter/checkpoint.h"

namespace edgemt::convert {

std::unique_ptr<Checkpoint> open_pytorch_bin(const std::string& path) {
  throw ConvertError(path + ": reading pytorch_model.bin is not supported yet; save the model as "
                     "model.safetensors first (python3 tools/convert_bin_to_safetensors.py DIR)");
}

}  // namespace edgemt::convert
