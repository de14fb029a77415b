// Building the arguments of a kernel invocation for `kir run` and the campaign: views read from
// .npy files or generated from a seed, literal or generated runtime scalars, constexpr values, and
// extents fixed by the inputs, by --dim, or defaulted (with a note).
#pragma once
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "interp/interpreter.h"

namespace kir::tools {

struct InputSpec {
  std::map<std::string, std::string> values;  // parameter -> file.npy | random:SEED | literal
  std::map<std::string, int64_t> dims;        // extent symbol -> N
  uint64_t seed = 0;
  int64_t default_extent = 8;
};

// --input name=... and --dim NAME=N as an InputSpec; "" or a usage error message.
std::string parse_input_spec(const std::vector<std::string>& inputs, const std::vector<std::string>& dims, uint64_t seed,
                             InputSpec& spec);
// --const NAME=VALUE (kir compile) as the arguments of the constexpr and enum parameters of
// `kernels` (args[kernel][parameter]; each kernel takes the NAMEs it has), values parsed as
// --input parses them. "" or a usage error message: a NAME no kernel has such a parameter of
// (listing those there are), a value that does not parse, an enum value that is no member.
std::string parse_const_args(const Module& m, const std::vector<const Function*>& kernels,
                             const std::vector<std::string>& consts,
                             std::map<std::string, std::map<std::string, interp::KernelArg>>& args);
// The kernel `name` of `m`, or its only kernel when `name` is empty; nullptr with a usage error
// message in `err` otherwise.
const Function* choose_kernel(const Module& m, const std::string& name, const std::string& path, std::string& err);

// Fills `args` for every parameter of kernel `k`. Returns an empty string on success, otherwise a
// usage error message. Notes about defaulted extents go to `notes`.
std::string make_kernel_args(const Function& k, const InputSpec& spec, std::map<std::string, interp::KernelArg>& args,
                             std::ostream& notes);

}  // namespace kir::tools
