// ISA detection and the kernel tables, generated from kernel_list.h.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ops/common/cpu_x86.h"
#include "ops/declarations.h"
#include "ops/ops.h"

#if (EDGEMT_ARCH_ARM64 || EDGEMT_ARCH_ARM32) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace edgemt::ops {
namespace {

#define EDGEMT_PICK_by_base(name, token, base) &name##__##base
#define EDGEMT_PICK_by_own(name, token, base) &name##__##token
#define EDGEMT_TABLE_ENTRY(name, type, source, folder, token, base) \
  t.name = EDGEMT_PICK_##source(name, token, base);
#define EDGEMT_TABLE_CASE(token, family, base, arch, flags, detect) \
  case Isa::token: {                                                \
    EDGEMT_KERNELS(EDGEMT_TABLE_ENTRY, token, base)                 \
    break;                                                          \
  }

Kernels make_table(Isa isa) {
  Kernels t{};
  switch (isa) {
    EDGEMT_ISAS(EDGEMT_TABLE_CASE)
    case Isa::kCount:
      break;
  }
  return t;
}

constexpr const char* kNames[] = {
#define EDGEMT_ISA_NAME(token, family, base, arch, flags, detect) #token,
    EDGEMT_ISAS(EDGEMT_ISA_NAME)
#undef EDGEMT_ISA_NAME
};

// The detect expressions of the ISA list use these.
#define EDGEMT_X86_HAS(feature) __builtin_cpu_supports(feature)
#if (EDGEMT_ARCH_ARM64 || EDGEMT_ARCH_ARM32) && defined(__linux__)
#define EDGEMT_ARM_HWCAP(bit) ((getauxval(AT_HWCAP) & (bit)) != 0)
#else
#define EDGEMT_ARM_HWCAP(bit) false
#endif

bool cpu_has(Isa isa) {
  switch (isa) {
#define EDGEMT_CPU_CASE(token, family, base, arch, flags, detect) \
  case Isa::token:                                                \
    return detect;
    EDGEMT_ISAS(EDGEMT_CPU_CASE)
#undef EDGEMT_CPU_CASE
    default:
      return false;
  }
}

struct Selection {
  Isa isa;
  Kernels table;
};

Selection select() {
  Isa isa = best_isa();
  if (const char* forced = std::getenv("EDGEMT_ISA"); forced != nullptr && *forced != '\0') {
    Isa want;
    if (!isa_from_name(forced, &want)) {
      std::fprintf(stderr, "edgemt: EDGEMT_ISA=%s is not an ISA of this build; using %s\n", forced,
                   isa_name(isa));
    } else if (!isa_supported(want)) {
      std::fprintf(stderr, "edgemt: EDGEMT_ISA=%s is not supported by this CPU; using %s\n", forced,
                   isa_name(isa));
    } else {
      isa = want;
    }
  }
  return Selection{isa, make_table(isa)};
}

const Selection& selection() {
  static const Selection s = select();
  return s;
}

}  // namespace

const char* isa_name(Isa isa) {
  const auto i = static_cast<size_t>(isa);
  return i < static_cast<size_t>(Isa::kCount) ? kNames[i] : "?";
}

bool isa_from_name(const char* name, Isa* isa) {
  for (size_t i = 0; i < static_cast<size_t>(Isa::kCount); ++i) {
    if (std::strcmp(name, kNames[i]) == 0) {
      *isa = static_cast<Isa>(i);
      return true;
    }
  }
  return false;
}

bool isa_supported(Isa isa) { return isa < Isa::kCount && cpu_has(isa); }

Isa best_isa() {
  Isa best = Isa::ref;
  for (size_t i = 0; i < static_cast<size_t>(Isa::kCount); ++i)
    if (cpu_has(static_cast<Isa>(i))) best = static_cast<Isa>(i);
  return best;
}

const Kernels* kernels_for(Isa isa) {
  static Kernels tables[static_cast<size_t>(Isa::kCount)];
  static bool built = [] {
    for (size_t i = 0; i < static_cast<size_t>(Isa::kCount); ++i) tables[i] = make_table(static_cast<Isa>(i));
    return true;
  }();
  (void)built;
  if (!isa_supported(isa)) return nullptr;
  return &tables[static_cast<size_t>(isa)];
}

const Kernels& kernels() { return selection().table; }
Isa active_isa() { return selection().isa; }

}  // namespace edgemt::ops
