// Capability detection (capabilities.h) and the table that names each fact, spells its compiler
// flag and lists its prerequisites. The table is in declaration order, which is also an order
// where every prerequisite comes before the facts that need it.
#include "backends/cpu/runtime/capabilities.h"

#include <array>
#include <cstdint>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define KIR_RT_X86 1
#endif
#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace kir::cpu::rt {
namespace {

using Member = bool Capabilities::*;

struct Fact {
  std::string_view name;
  Member member;
  std::string_view flag;
  std::array<Member, 3> needs;  // prerequisites (nullptr: none)
};

// Prerequisites are the union of what gcc's and clang's flags imply (clang's -mavx512f also
// enables fma and f16c, its -mavx512fp16 also dq and vl), so a closed set's flags enable exactly
// that set under both compilers.
constexpr std::array<Fact, 18> kFacts = {{
    {"sse42", &Capabilities::sse42, "-msse4.2", {}},
    {"avx", &Capabilities::avx, "-mavx", {&Capabilities::sse42}},
    {"avx2", &Capabilities::avx2, "-mavx2", {&Capabilities::avx}},
    {"fma", &Capabilities::fma, "-mfma", {&Capabilities::avx}},
    {"f16c", &Capabilities::f16c, "-mf16c", {&Capabilities::avx}},
    {"bmi2", &Capabilities::bmi2, "-mbmi2", {}},
    {"avx512f", &Capabilities::avx512f, "-mavx512f",
     {&Capabilities::avx2, &Capabilities::fma, &Capabilities::f16c}},
    {"avx512bw", &Capabilities::avx512bw, "-mavx512bw", {&Capabilities::avx512f}},
    {"avx512vl", &Capabilities::avx512vl, "-mavx512vl", {&Capabilities::avx512f}},
    {"avx512dq", &Capabilities::avx512dq, "-mavx512dq", {&Capabilities::avx512f}},
    {"avx512cd", &Capabilities::avx512cd, "-mavx512cd", {&Capabilities::avx512f}},
    {"avx512_bf16", &Capabilities::avx512_bf16, "-mavx512bf16", {&Capabilities::avx512bw}},
    {"avx512_vnni", &Capabilities::avx512_vnni, "-mavx512vnni", {&Capabilities::avx512f}},
    {"avx512_fp16", &Capabilities::avx512_fp16, "-mavx512fp16",
     {&Capabilities::avx512bw, &Capabilities::avx512dq, &Capabilities::avx512vl}},
    {"avx_vnni", &Capabilities::avx_vnni, "-mavxvnni", {&Capabilities::avx2}},
    {"amx_tile", &Capabilities::amx_tile, "-mamx-tile", {}},
    {"amx_bf16", &Capabilities::amx_bf16, "-mamx-bf16", {&Capabilities::amx_tile}},
    {"amx_int8", &Capabilities::amx_int8, "-mamx-int8", {&Capabilities::amx_tile}},
}};

bool needs_met(const Capabilities& c, const Fact& f) {
  for (Member m : f.needs)
    if (m != nullptr && !(c.*m)) return false;
  return true;
}

#ifdef KIR_RT_X86
uint64_t xgetbv0() {
  uint32_t lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t{hi} << 32) | lo;
}

// Linux (5.16+) hands out the AMX tile data state per process on request; without the grant a
// tile instruction faults even though XCR0 enables the state.
bool amx_permitted() {
#if defined(__linux__) && defined(__x86_64__)
  constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}

Capabilities detect() {
  Capabilities c;
  unsigned a = 0, b = 0, cx = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &cx, &d)) return c;
  const bool osxsave = cx & (1u << 27);
  const uint64_t xcr0 = osxsave ? xgetbv0() : 0;
  const bool ymm = (xcr0 & 0x6) == 0x6;            // SSE + AVX state
  const bool zmm = (xcr0 & 0xE6) == 0xE6;          // + opmask, ZMM_Hi256, Hi16_ZMM
  const bool tiles = (xcr0 & 0x60000) == 0x60000;  // XTILECFG + XTILEDATA
  c.sse42 = cx & (1u << 20);
  c.fma = ymm && (cx & (1u << 12));
  c.avx = ymm && (cx & (1u << 28));
  c.f16c = ymm && (cx & (1u << 29));
  if (__get_cpuid_max(0, nullptr) >= 7) {
    __cpuid_count(7, 0, a, b, cx, d);
    const unsigned subleaves = a;
    c.avx2 = ymm && (b & (1u << 5));
    c.bmi2 = b & (1u << 8);
    c.avx512f = zmm && (b & (1u << 16));
    c.avx512dq = zmm && (b & (1u << 17));
    c.avx512cd = zmm && (b & (1u << 28));
    c.avx512bw = zmm && (b & (1u << 30));
    c.avx512vl = zmm && (b & (1u << 31));
    c.avx512_vnni = zmm && (cx & (1u << 11));
    c.amx_bf16 = tiles && (d & (1u << 22));
    c.avx512_fp16 = zmm && (d & (1u << 23));
    c.amx_tile = tiles && (d & (1u << 24));
    c.amx_int8 = tiles && (d & (1u << 25));
    if (subleaves >= 1) {
      __cpuid_count(7, 1, a, b, cx, d);
      c.avx_vnni = ymm && (a & (1u << 4));
      c.avx512_bf16 = zmm && (a & (1u << 5));
    }
  }
  if (c.amx_tile && !amx_permitted()) c.amx_tile = false;
  // Drop what lacks a prerequisite (e.g. a hypervisor exposing avx512f without avx2), keeping
  // the set closed so that march_flags() enables nothing more.
  for (const Fact& f : kFacts)
    if (c.*f.member && !needs_met(c, f)) c.*f.member = false;
  return c;
}
#else
Capabilities detect() { return {}; }
#endif

}  // namespace

std::vector<std::string_view> Capabilities::names() const {
  std::vector<std::string_view> out;
  for (const Fact& f : kFacts)
    if (this->*f.member) out.push_back(f.name);
  return out;
}

std::string Capabilities::str() const {
  std::string s;
  for (std::string_view n : names()) {
    if (!s.empty()) s += ' ';
    s += n;
  }
  return s;
}

std::string Capabilities::march_flags() const {
  std::string s;
  for (const Fact& f : kFacts) {
    if (!(this->*f.member)) continue;
    if (!s.empty()) s += ' ';
    s += f.flag;
  }
  return s;
}

Capabilities Capabilities::from_names(const std::vector<std::string_view>& names) {
  Capabilities c;
  for (std::string_view n : names) {
    const Fact* found = nullptr;
    for (const Fact& f : kFacts)
      if (f.name == n) found = &f;
    if (found == nullptr) throw std::invalid_argument("unknown CPU capability '" + std::string(n) + "'");
    c.*found->member = true;
  }
  // Prerequisites come first in the table, so one backward sweep closes the set transitively.
  for (auto it = kFacts.rbegin(); it != kFacts.rend(); ++it)
    if (c.*it->member)
      for (Member m : it->needs)
        if (m != nullptr) c.*m = true;
  return c;
}

const std::vector<std::string_view>& capability_names() {
  static const std::vector<std::string_view> all = [] {
    std::vector<std::string_view> v;
    for (const Fact& f : kFacts) v.push_back(f.name);
    return v;
  }();
  return all;
}

const Capabilities& host_capabilities() {
  static const Capabilities caps = detect();
  return caps;
}

}  // namespace kir::cpu::rt
