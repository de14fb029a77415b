// The JSON forms of what `kir verify --json` and `kir run --json` report: diagnostics with their
// locations and rules, a run-time error with its kind, op, location, coordinates and loops, and
// an output view with its dtype, shape, never-written and non-finite elements.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "interp/error.h"
#include "interp/interpreter.h"
#include "kir/location.h"

namespace kir::tools {

nlohmann::json diagnostics_json(const Diagnostics& diags);
nlohmann::json runtime_error_json(const interp::RuntimeError& e);
nlohmann::json output_json(const interp::HostView& h);

}  // namespace kir::tools
