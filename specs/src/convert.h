// Conversion of YAML row values and parameter defaults to Values by kind (reference W11):
// Dim → int >= 0, Shape → list of ints >= 0, Seq[Int] → list of ints or a value-primitive call
// ("repeat(512, 64)"), params by their type (unions try each member; ADT literals
// {ctor: {field: value}} with the exact field set and the constructor's invariant).
#pragma once
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

#include "specs/src/kind.h"
#include "specs/src/model.h"
#include "specs/src/value.h"

namespace kir::specs {

// Returns the value, or nullopt with `err` set.
std::optional<Value> convert_value(const YAML::Node& n, const Kind& k, const Manifest& m, std::string& err);

// Seq[Int] row values: an int list or a string calling a value primitive.
std::optional<Value> convert_seq_int(const YAML::Node& n, std::string& err);

// Checks an ADT value's invariant; returns "" or the failure message.
std::string check_invariant(const Value& v, const Manifest& m);

}  // namespace kir::specs
