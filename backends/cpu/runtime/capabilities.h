// CPU capabilities as typed facts (rule C10): which instruction-set extensions this CPU has and
// the OS enables, detected at run time with cpuid/xgetbv. Never a CPU or device name: the
// provider chooses implementations by these facts, and march_flags() (compiler flags enabling
// exactly these extensions) enters the compile command and the artifact cache key.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace kir::cpu::rt {

struct Capabilities {
  bool sse42 = false, avx = false, avx2 = false, fma = false, f16c = false, bmi2 = false;
  bool avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false, avx512cd = false;
  bool avx512_bf16 = false, avx512_vnni = false, avx512_fp16 = false, avx_vnni = false;
  bool amx_tile = false, amx_bf16 = false, amx_int8 = false;

  // The set facts by lowercase name ("avx2", "avx512_bf16", "amx_tile", ...), in declaration
  // order; str() joins them with spaces.
  std::vector<std::string_view> names() const;
  std::string str() const;
  // gcc/clang flags enabling exactly these extensions ("-mavx2 -mfma ..."; "" for none).
  std::string march_flags() const;

  // The facts named (the names of names()), plus every extension they imply (avx512f implies
  // avx2, fma and f16c; amx_bf16 implies amx_tile; ...), so that march_flags() enables exactly
  // the result. Throws std::invalid_argument on an unknown name.
  static Capabilities from_names(const std::vector<std::string_view>& names);

  friend bool operator==(const Capabilities&, const Capabilities&) = default;
};

// Every capability name known, in declaration order.
const std::vector<std::string_view>& capability_names();

// This machine's capabilities, detected once (thread-safe). An extension counts only if the
// CPU reports it, the OS saves its register state (XCR0) and, for AMX, the kernel granted this
// process the tile data state; an extension whose prerequisites are missing does not count.
const Capabilities& host_capabilities();

}  // namespace kir::cpu::rt
