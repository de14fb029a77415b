// Parity of an op spec with its paired Intent kernel (replacing the reference's Python-class
// checks P1–P7; docs/manifests.md "Parity with the paired kernel"). A manifest file
// `<dir>/<family>.yaml` pairs op `Op` with `<dir>/kernels/Op.kir` or `<dir>/../kernels/Op.kir`;
// that file holds `kernel @Op` or one kernel per dtype case `@Op__<kir dtype>[__<kir dtype>...]`.
// Surface shorthands in the file are normalized first (as kir run does); then every such kernel's
// parameters must match the manifest's inputs, outputs and kernel-expressible
// params (and construction-time tensors) by name, order, access, dtype, rank and extent symbols.
#pragma once
#include <string>

#include "specs/src/diag.h"
#include "specs/src/model.h"

namespace kir::specs {

// The tensor a kernel parameter is the presence flag of (`%present_<t>` -> "t"), or "" when the
// name is no presence flag. kir spec run sets such a constexpr bool to whether t is present.
std::string presence_flag_target(const std::string& param);

// The paired kernel file of an op, or "" when it has none.
std::string paired_kernel_path(const OpSpec& op);

// Runs the parity checks of `op` against its paired kernel file (nothing when it has none).
void check_parity(const OpSpec& op, const Manifest& m, SpecDiags& d);

// Same, against kernel text given directly (tests); `kernel_file` names it in messages.
void check_parity_text(const OpSpec& op, const Manifest& m, const std::string& kernel_text,
                       const std::string& kernel_file, SpecDiags& d);

}  // namespace kir::specs
