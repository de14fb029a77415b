// FpEnvGuard and the default environment (fp_env.h). fegetenv/fesetenv cover the x87 state and
// the MXCSR rounding/exception bits, but glibc's FE_DFL_ENV keeps MXCSR's FTZ/DAZ bits, so the
// MXCSR is saved and written explicitly.
#include "backends/cpu/runtime/fp_env.h"

#include "backends/cpu/mutants/mutants.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KIR_RT_X86 1
#endif

namespace kir::cpu::rt {

uint32_t read_mxcsr() {
#ifdef KIR_RT_X86
  return _mm_getcsr();
#else
  return 0;
#endif
}

void write_mxcsr([[maybe_unused]] uint32_t v) {
#ifdef KIR_RT_X86
  _mm_setcsr(v);
#endif
}

void set_default_fp_env() {
  std::fesetenv(FE_DFL_ENV);
#ifdef KIR_RT_X86
  const uint16_t cw = kDefaultX87ControlWord;
  asm volatile("fldcw %0" : : "m"(cw));
  _mm_setcsr(kDefaultMxcsr);
#endif
}

FpEnvGuard::FpEnvGuard() : saved_mxcsr_(read_mxcsr()) {
  std::fegetenv(&saved_);
  set_default_fp_env();
  if (mutant_active(MutantId::FpEnvFlushDenormals)) write_mxcsr(kDefaultMxcsr | 0x8040);  // FTZ | DAZ
}

FpEnvGuard::~FpEnvGuard() {
  std::fesetenv(&saved_);
  write_mxcsr(saved_mxcsr_);
}

}  // namespace kir::cpu::rt
