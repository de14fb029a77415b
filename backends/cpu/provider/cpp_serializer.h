// The C++ provider's serializer (checklist C13, C15): spells a legalized CPU IR program (no
// Compute, no Structured left; resources allocated) as one C++ function with the kir_abi.h
// entry point `extern "C" int <entry>(kir_call*)`. It only spells: every loop, resource,
// task, check and parameter it writes is a statement of the program; it chooses nothing.
#pragma once
#include <string>

#include "backends/cpu/ir/cpu_ir.h"

namespace kir::cpu {

// The function definition for `p` (no #include lines: see cpp_prelude()).
std::string serialize_cpp(const Program& p, const std::string& entry);
// The lines every generated translation unit starts with.
std::string cpp_prelude();
// The C++ storage type of a dtype ("float", "uint16_t", ...).
std::string cpp_type(DType d);

}  // namespace kir::cpu
