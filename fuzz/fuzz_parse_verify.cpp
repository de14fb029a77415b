// libFuzzer target: any byte string goes through the KIR parser; what parses goes through the
// verifier, the normalizer and the printer, and printed text must parse again and print the
// same (fmt idempotence). Crashes, hangs, leaks and sanitizer reports are the findings.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "kir/normalize/normalize.h"
#include "kir/text/parser.h"
#include "kir/text/printer.h"
#include "kir/verify/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  kir::Diagnostics diags;
  auto m = kir::parse_module(text, "fuzz.kir", diags);
  if (!m) return 0;
  std::string once = kir::print_module(*m);
  kir::Diagnostics d2;
  auto again = kir::parse_module(once, "fuzz.fmt.kir", d2);
  if (!again || kir::print_module(*again) != once) std::abort();  // printer/parser disagree
  auto copy = kir::clone(*m);
  kir::verify_module(*m, diags);
  if (kir::normalize_module(*copy, diags)) {
    kir::verify_module(*copy, diags);
    kir::print_module(*copy);
  }
  (void)diags.render(text);
  return 0;
}
