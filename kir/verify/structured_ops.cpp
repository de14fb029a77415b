// Registers the structured-op verifiers (reduce, scan, region_fold/scan, the contract family,
// quantize/quantized_dot, histogram). Extent arithmetic on hostile input can overflow 64 bits;
// that is reported as an error of the op, never allowed to escape.
#include "kir/verify/structured_checks.h"

namespace kir::verify {

namespace {

OpCheck guarded(void (*check)(const Operation&, Context&), const char* rule) {
  return [check, rule](const Operation& op, Context& cx) {
    try {
      check(op, cx);
    } catch (const ExtentOverflow& e) {
      cx.error(op, rule, std::string("extent arithmetic overflows: ") + e.what());
    }
  };
}

}  // namespace

void register_structured_ops(OpTable& t) {
  using namespace structured;
  t["reduce"] = guarded(check_reduce, "L7.1");
  t["scan"] = guarded(check_scan, "L8.1");
  t["region_fold"] = guarded(check_region_fold, "L9.1");
  t["region_scan"] = guarded(check_region_scan, "L9.5");
  t["contract"] = guarded(check_contract, "L10.4");
  t["sparse_contract"] = guarded(check_sparse_contract, "L12.1");
  t["scaled_contract"] = guarded(check_scaled_contract, "L11.1");
  t["quantize"] = guarded(check_quantize, "L11.3");
  t["quantized_dot"] = guarded(check_quantized_dot, "L11.3");
  t["histogram"] = guarded(check_histogram, "L13.1");
}

}  // namespace kir::verify
