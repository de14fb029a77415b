// See json_report.h.
#include "tools/json_report.h"

#include "numerics/format.h"

namespace kir::tools {

nlohmann::json diagnostics_json(const Diagnostics& diags) {
  nlohmann::json out = nlohmann::json::array();
  for (const Diagnostic& d : diags.all())
    out.push_back({{"file", d.loc.file ? *d.loc.file : ""},
                   {"line", d.loc.line},
                   {"col", d.loc.col},
                   {"severity", d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note"},
                   {"rule", d.rule},
                   {"message", d.message}});
  return out;
}

nlohmann::json runtime_error_json(const interp::RuntimeError& e) {
  return {{"kind", interp::kind_name(e.kind())}, {"op", e.op()},     {"location", e.location()},
          {"coords", e.coords()},                 {"loops", e.loops()}, {"message", e.message()},
          {"text", e.what()}};
}

nlohmann::json output_json(const interp::HostView& h) {
  const DType d = h.storage->dtype;
  int64_t undefined = 0, nan = 0, inf = 0;
  nlohmann::json first_undefined = nullptr;
  for (size_t i = 0; i < h.storage->defined.size(); ++i)
    if (h.storage->defined[i] == 0 && undefined++ == 0)
      first_undefined = interp::unravel(static_cast<int64_t>(i), h.shape);
  if (is_any_float(d))
    for (uint64_t b : h.storage->bits) {
      const auto c = num::classify(b, d);
      nan += c == num::FpClass::NaN;
      inf += c == num::FpClass::Infinite;
    }
  interp::Tensor t;
  t.dtype = d;
  t.shape = h.shape;
  t.bits = h.storage->bits;
  return {{"dtype", std::string(name(d))}, {"shape", h.shape},   {"elements", t.bits.size()},
          {"undefined", undefined},         {"first_undefined", first_undefined},
          {"nan", nan},                     {"inf", inf},         {"summary", interp::summarize(interp::Value(t))}};
}

}  // namespace kir::tools
