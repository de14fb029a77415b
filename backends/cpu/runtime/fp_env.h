// The default floating-point environment for generated code (rule C9): kernels compute with
// round-to-nearest-even, no FTZ/DAZ and every exception masked, whatever the caller set, and the
// caller gets its own environment back exactly (rounding, x87 control word, MXCSR incl. FTZ/DAZ
// and the status flags). The call path and each worker of a pool run hold an FpEnvGuard.
#pragma once
#include <cfenv>
#include <cstdint>

namespace kir::cpu::rt {

// MXCSR with RNE, FTZ and DAZ off, all exceptions masked, no status flag set.
inline constexpr uint32_t kDefaultMxcsr = 0x1F80;
// x87 control word: all exceptions masked, 64-bit precision, round to nearest.
inline constexpr uint16_t kDefaultX87ControlWord = 0x037F;

// Sets this thread's floating-point environment to the default one described above.
void set_default_fp_env();

// The MXCSR of this thread (0 where the target has none).
uint32_t read_mxcsr();
void write_mxcsr(uint32_t v);

class FpEnvGuard {
 public:
  FpEnvGuard();  // saves the caller's environment, then sets the default one
  ~FpEnvGuard();  // restores the saved environment exactly
  FpEnvGuard(const FpEnvGuard&) = delete;
  FpEnvGuard& operator=(const FpEnvGuard&) = delete;

 private:
  std::fenv_t saved_;
  uint32_t saved_mxcsr_;
};

}  // namespace kir::cpu::rt
