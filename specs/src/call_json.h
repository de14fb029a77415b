// The JSON form of instantiated calls (`kir spec instantiate`): case id, label, params, per
// tensor name/role/presence/shape/dtype/values/device, the solved indices and lets `ix`, and the
// evaluated roofline. Values map to JSON by kind: None → null, Bool → true/false, Int → a
// number (a decimal string beyond 64 bits), a finite float → a number, Str → a string, a
// sequence → an array, an ADT value → {"kind": ctor, "fields": {...}}. JSON has no infinities
// or NaN (a plain encoder would write null, the same as None), so a non-finite float is the
// one-key object {"float": "inf"}, {"float": "-inf"} or {"float": "nan"}.
#pragma once
#include <nlohmann/json.hpp>

#include "specs/src/instantiate.h"
#include "specs/src/value.h"

namespace kir::specs {

nlohmann::json value_json(const Value& v);
nlohmann::json call_json(const Call& c);

}  // namespace kir::specs
