// Declarations of every kernel symbol, generated from kernel_list.h:
// <name>__ref, and for each ISA level <name>__<base> (by_base entries) or
// <name>__<token> (by_own entries).
#pragma once

#include <type_traits>

#include "ops/ops.h"

namespace edgemt::ops {

#define EDGEMT_DECL_by_base(name, type, token, base) std::remove_pointer_t<type> name##__##base;
#define EDGEMT_DECL_by_own(name, type, token, base) std::remove_pointer_t<type> name##__##token;
#define EDGEMT_DECL_ENTRY(name, type, source, folder, token, base) \
  EDGEMT_DECL_##source(name, type, token, base)
#define EDGEMT_DECL_ISA(token, family, base, arch, flags, detect) \
  EDGEMT_KERNELS(EDGEMT_DECL_ENTRY, token, base)
EDGEMT_ISAS(EDGEMT_DECL_ISA)
#undef EDGEMT_DECL_ISA
#undef EDGEMT_DECL_ENTRY
#undef EDGEMT_DECL_by_own
#undef EDGEMT_DECL_by_base

}  // namespace edgemt::ops
