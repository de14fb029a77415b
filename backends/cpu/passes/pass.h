// A transformation group of the CPU IR (checklist C5, C13): its name, the preconditions it
// requires (in words; the verifier checks the structural postconditions after every pass, with
// stricter options once expansion, loop formation and lifetime have run), the rewrite, and the
// analyses it invalidates. Analyses (uses, writers, lifetimes) are recomputed from the
// current program by each pass that needs them; nothing is cached across passes, so
// invalidation is total by construction and the list documents what a pass disturbs.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "backends/cpu/ir/cpu_ir.h"

namespace kir::cpu {

struct Pass {
  std::string name;
  std::string preconditions;            // in words; the verifier checks the structural part
  std::vector<std::string> invalidates;  // analyses the rewrite disturbs
  std::function<void(Program&)> run;
};

// The shared passes, in pipeline order.
Pass fusion_pass();           // passes/fusion.cpp
Pass bounds_pass();           // passes/bounds.cpp
// The bounds pass's rewrite, for a pass that needs its facts first (fusion: a load proven inside
// its view is no fault).
void prove_bounds(Program& P);
Pass select_pass();           // passes/select_expand.cpp
Pass epilogue_pass();         // passes/epilogue.cpp
Pass expand_pass();           // passes/select_expand.cpp
Pass result_forwarding_pass();  // passes/result_forwarding.cpp
Pass loop_formation_pass();   // passes/loop_formation.cpp
Pass row_fusion_pass();       // passes/row_fusion.cpp
Pass hoist_pass();            // passes/hoist.cpp
Pass task_partition_pass();   // passes/task_partition.cpp
Pass lifetime_pass();         // passes/lifetime.cpp

// Whether coordinate `coord` of Compute `c` runs over exactly the declared extent of axis `axis`
// of view `view`, an extent the call checks on entry (passes/bounds.cpp): an index equal to that
// coordinate stays inside the view.
bool spans_view_axis(const Program& P, const Stmt& c, size_t coord, BufId view, size_t axis);

// Analyses shared by the passes (passes/analysis.cpp): recomputed on every call.
struct BufferUse {
  int loads = 0;   // Load/ViewDim occurrences in expressions
  int writes = 0;  // Compute/Store/Copy/Structured results writing it
  int other = 0;   // Copy sources, Structured operands
  int kernel_args = 0;  // Kernel arguments: a micro-kernel reads a block from the element it is given
};
std::vector<BufferUse> buffer_uses(const Program& p);
// Whether statement `s` (or anything nested in it) writes buffer `b`.
bool writes_buffer(const Stmt& s, BufId b);
// Whether statement `s` (or anything nested) reads buffer `b` (loads, copies, structured).
bool stmt_reads_buffer(const Stmt& s, BufId b);
// Buffers whose loads appear in `e`.
void loaded_buffers(const Expr& e, std::vector<BufId>& out);

}  // namespace kir::cpu
