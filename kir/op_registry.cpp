// The op table. Adding an op means adding a line here, its verifier rule in kir/verify/, its
// semantics in interp/, and a round-trip file under tests/kir/valid/.
#include "kir/op_registry.h"

#include <algorithm>

namespace kir {
namespace {
using S = OpStatus;
using F = OpFamily;
using E = Effect;

const std::vector<OpInfo> kOps = {
    {"const", S::Canonical, F::Constant, E::Pure, "L4.14", "scalar or constexpr constant"},
    // pointwise binary (L4.1, L4.14); div carries the fdiv options (L4.4)
    {"add", S::Canonical, F::Pointwise, E::Pure, "L4.14", "addition"},
    {"sub", S::Canonical, F::Pointwise, E::Pure, "L4.14", "subtraction"},
    {"mul", S::Canonical, F::Pointwise, E::Pure, "L4.14", "multiplication"},
    {"div", S::Canonical, F::Pointwise, E::Pure, "L4.4", "division (fdiv options for floats)"},
    {"rem", S::Canonical, F::Pointwise, E::Pure, "L4.14", "remainder"},
    {"min", S::Canonical, F::Pointwise, E::Pure, "L4.14", "minimum"},
    {"max", S::Canonical, F::Pointwise, E::Pure, "L4.14", "maximum"},
    {"pow", S::Canonical, F::Pointwise, E::Pure, "L4.14", "power"},
    {"and", S::Canonical, F::Pointwise, E::Pure, "L4.14", "bitwise/logical and"},
    {"or", S::Canonical, F::Pointwise, E::Pure, "L4.14", "bitwise/logical or"},
    {"xor", S::Canonical, F::Pointwise, E::Pure, "L4.14", "bitwise/logical xor"},
    {"shl", S::Canonical, F::Pointwise, E::Pure, "L4.14", "shift left"},
    {"shr", S::Canonical, F::Pointwise, E::Pure, "L4.14", "shift right (arithmetic for signed)"},
    {"cmp", S::Canonical, F::Compare, E::Pure, "L4.14", "comparison"},
    {"select", S::Canonical, F::Compare, E::Pure, "L4.14", "select"},
    // unary
    {"neg", S::Canonical, F::Unary, E::Pure, "L4.14", "negation"},
    {"not", S::Canonical, F::Unary, E::Pure, "L4.14", "bitwise/logical not"},
    {"exp", S::Canonical, F::Unary, E::Pure, "L4.3", "e^x"},
    {"exp2", S::Canonical, F::Unary, E::Pure, "L4.5", "2^x"},
    {"log", S::Canonical, F::Unary, E::Pure, "L4.3", "natural logarithm"},
    {"log1p", S::Canonical, F::Unary, E::Pure, "L4.3", "log(1 + x)"},
    {"lgamma", S::Canonical, F::Unary, E::Pure, "L4.3", "log|Gamma(x)|"},
    {"sin", S::Canonical, F::Unary, E::Pure, "L4.3", "sine"},
    {"asin", S::Canonical, F::Unary, E::Pure, "L4.3", "arcsine"},
    {"cos", S::Canonical, F::Unary, E::Pure, "L4.3", "cosine"},
    {"tanh", S::Canonical, F::Unary, E::Pure, "L4.5", "hyperbolic tangent"},
    {"floor", S::Canonical, F::Unary, E::Pure, "L4.3", "floor"},
    {"erf", S::Canonical, F::Unary, E::Pure, "L4.3", "error function"},
    {"erfc", S::Canonical, F::Unary, E::Pure, "L4.3", "complementary error function"},
    {"i0", S::Canonical, F::Unary, E::Pure, "L4.3", "modified Bessel function I0"},
    {"rsqrt", S::Canonical, F::Unary, E::Pure, "L4.3", "1/sqrt(x)"},
    {"sqrt", S::Canonical, F::Unary, E::Pure, "L4.3", "square root"},
    {"sigmoid", S::Canonical, F::Unary, E::Pure, "L4.3", "1/(1+e^-x)"},
    {"abs", S::Canonical, F::Unary, E::Pure, "L4.3", "absolute value"},
    // conversions
    {"cast", S::Canonical, F::Conversion, E::Pure, "L4.14", "value conversion"},
    {"bitcast", S::Canonical, F::Conversion, E::Pure, "L4.14", "bit reinterpretation"},
    // shape
    {"broadcast", S::Canonical, F::Shape, E::Pure, "L4.1", "explicit broadcast relation"},
    {"reshape", S::Canonical, F::Shape, E::Pure, "L4.6", "row-major reshape"},
    {"transpose", S::Canonical, F::Shape, E::Pure, "L4.7", "axis permutation"},
    {"full", S::Canonical, F::Shape, E::Pure, "L4.9", "tensor filled with a scalar"},
    {"join", S::Canonical, F::Shape, E::Pure, "L4.10", "stack two values on a new trailing axis"},
    {"dim", S::Canonical, F::Shape, E::Pure, "L4.8", "one logical extent of .shape"},
    // aggregates
    {"tuple", S::Canonical, F::Aggregate, E::Pure, "L4.11", "tuple construction"},
    {"tuple.get", S::Canonical, F::Aggregate, E::Pure, "L4.11", "tuple component"},
    {"record", S::Canonical, F::Aggregate, E::Pure, "L4.12", "record construction"},
    {"record.get", S::Canonical, F::Aggregate, E::Pure, "L4.12", "record field"},
    // domains and relations
    {"domain", S::Canonical, F::Domain, E::Pure, "L3.1", "half-open integer domain"},
    {"subregion", S::Canonical, F::Domain, E::Pure, "L3.3", "source-derived contiguous subregion"},
    {"indices", S::Canonical, F::Domain, E::Pure, "L3.4", "source coordinates of a domain/subregion"},
    {"relation", S::Canonical, F::Domain, E::Pure, "L15.1", "typed index relation with validity"},
    // control
    {"if", S::Canonical, F::Control, E::Control, "L6.1", "structured if"},
    {"for", S::Canonical, F::Control, E::Control, "L6.1", "ordered domain loop with carries"},
    {"while", S::Canonical, F::Control, E::Control, "L6.1", "structured while with carries"},
    {"parallel", S::Canonical, F::Control, E::Control, "L5.1", "unordered forall"},
    {"yield", S::Canonical, F::Control, E::Control, "L6.1", "region result"},
    {"condition", S::Canonical, F::Control, E::Control, "L6.1", "while condition"},
    {"break", S::Canonical, F::Control, E::Control, "L6.3", "structured break"},
    {"continue", S::Canonical, F::Control, E::Control, "L6.3", "structured continue"},
    {"return", S::Canonical, F::Control, E::Control, "L1.2", "helper return"},
    {"call", S::Canonical, F::Control, E::Call, "L1.4", "helper call"},
    // structured
    {"reduce", S::Canonical, F::Structured, E::Pure, "L7.1", "generic reduce"},
    {"scan", S::Canonical, F::Structured, E::Pure, "L8.1", "generic scan"},
    {"region_fold", S::Canonical, F::Structured, E::Pure, "L9.1", "region fold"},
    {"region_scan", S::Canonical, F::Structured, E::Pure, "L9.5", "region scan"},
    {"contract", S::Canonical, F::Structured, E::Pure, "L10.4", "paired-axis contraction"},
    {"scaled_contract", S::Canonical, F::Structured, E::Pure, "L11.1", "block-scaled contraction"},
    {"quantize", S::Canonical, F::Structured, E::Pure, "L11.3", "quantize to a closed format"},
    {"quantized_dot", S::Canonical, F::Structured, E::Pure, "L11.3", "quantized dot product"},
    {"sparse_contract", S::Canonical, F::Structured, E::Pure, "L12.1", "structured-sparse contraction"},
    {"histogram", S::Canonical, F::Structured, E::Pure, "L13.1", "histogram"},
    // memory
    {"gather", S::Canonical, F::Memory, E::Pure, "L15.3", "pure tensor gather"},
    {"view.load", S::Canonical, F::Memory, E::Read, "L15.3", "external view load"},
    {"view.store", S::Canonical, F::Memory, E::Write, "L15.3", "external view store"},
    {"buffer.alloc", S::Canonical, F::Memory, E::Write, "L15.4", "logical buffer"},
    {"buffer.load", S::Canonical, F::Memory, E::Read, "L15.3", "logical buffer load"},
    {"buffer.store", S::Canonical, F::Memory, E::Write, "L15.3", "logical buffer store"},
    {"unique_store", S::Canonical, F::Memory, E::Write, "L15.3", "injective indexed store"},
    {"scatter_reduce", S::Canonical, F::Memory, E::Write, "L15.3", "indexed reduction store"},
    // atomics
    {"atomic.load", S::Canonical, F::Atomic, E::Atomic, "L16.1", "atomic load"},
    {"atomic.store", S::Canonical, F::Atomic, E::Atomic, "L16.1", "atomic store"},
    {"atomic.rmw", S::Canonical, F::Atomic, E::Atomic, "L16.1", "atomic read-modify-write"},
    {"atomic.compare_exchange", S::Canonical, F::Atomic, E::Atomic, "L16.1", "atomic compare-exchange"},
    // RNG
    {"random.bits", S::Canonical, F::Random, E::Random, "L17.1", "Philox4x32-10 bits"},
    {"random.uniform", S::Canonical, F::Random, E::Random, "L17.2", "uniform from bits"},
    // surface shorthands (L19.1): normalized away
    {"matmul", S::Surface, F::Surface, E::Pure, "L10.1", "contract"},
    {"dot", S::Surface, F::Surface, E::Pure, "L10.1", "contract"},
    {"matvec", S::Surface, F::Surface, E::Pure, "L10.1", "contract"},
    {"vecmat", S::Surface, F::Surface, E::Pure, "L10.1", "contract"},
    {"outer", S::Surface, F::Surface, E::Pure, "L10.3", "broadcast multiply"},
    {"reduce.sum", S::Surface, F::Surface, E::Pure, "L7.6", "reduce"},
    {"reduce.max", S::Surface, F::Surface, E::Pure, "L7.6", "reduce"},
    {"reduce.any", S::Surface, F::Surface, E::Pure, "L7.6", "reduce"},
    {"reduce.all", S::Surface, F::Surface, E::Pure, "L7.6", "reduce"},
    {"arg_reduce.max", S::Surface, F::Surface, E::Pure, "L7.7", "reduce"},
    {"cumsum", S::Surface, F::Surface, E::Pure, "L8.2", "scan"},
    {"cummax", S::Surface, F::Surface, E::Pure, "L8.2", "scan"},
    {"zeros", S::Surface, F::Surface, E::Pure, "L4.9", "full"},
    {"scaled_matmul", S::Surface, F::Surface, E::Pure, "L11.1", "scaled_contract"},
    {"sparse_matmul", S::Surface, F::Surface, E::Pure, "L12.1", "sparse_contract"},
    {"sparse_contract_2to4", S::Surface, F::Surface, E::Pure, "L12.1", "sparse_contract"},
    // not in the language (L18.1, L19.1, L6.3, L6.4)
    {"partition", S::Forbidden, F::Forbidden, E::Pure, "L18.1", "logical parts are written with domains, subregions and index arithmetic"},
    {"ordered", S::Forbidden, F::Forbidden, E::Pure, "L6.3", "there is no public ordered; use ordinary domain iteration"},
    {"state_stream", S::Forbidden, F::Forbidden, E::Pure, "L6.4", "use reduce/scan, region_fold/region_scan or an ordinary loop"},
    {"auto", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "physical choices belong to the compiler"},
    {"program_id", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "program ids are physical; kernels are logical"},
    {"num_programs", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "program counts are physical; kernels are logical"},
    {"lane_id", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "lane ids are physical; kernels are logical"},
    {"thread_id", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "thread ids are physical; kernels are logical"},
    {"copy", S::Forbidden, F::Forbidden, E::Pure, "L15.5", "there is no canonical copy: an indexed read feeds an indexed write"},
    {"softmax", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "whole-operator ops are written from canonical ops"},
    {"attention", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "whole-operator ops are written from canonical ops"},
    {"moe", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "whole-operator ops are written from canonical ops"},
    {"barrier", S::Forbidden, F::Forbidden, E::Pure, "L19.1", "barriers and pipelines are physical lowering"},
    {"launch", S::Forbidden, F::Forbidden, E::Pure, "L1.3", "kernel launches are not allowed inside kernels or helpers"},
    {"target", S::Forbidden, F::Forbidden, E::Pure, "L1.3", "target queries are not allowed"},
};
}  // namespace

const std::vector<OpInfo>& all_ops() { return kOps; }

const OpInfo* find_op(std::string_view name) {
  auto it = std::find_if(kOps.begin(), kOps.end(), [&](const OpInfo& o) { return o.name == name; });
  return it == kOps.end() ? nullptr : &*it;
}

bool is_pointwise_binary(std::string_view name) {
  const OpInfo* o = find_op(name);
  return o && o->family == OpFamily::Pointwise;
}
bool is_unary_math(std::string_view name) {
  const OpInfo* o = find_op(name);
  return o && o->family == OpFamily::Unary && name != "neg" && name != "not";
}
bool is_terminator(std::string_view name) {
  return name == "yield" || name == "return" || name == "break" || name == "continue" || name == "condition";
}

}  // namespace kir
