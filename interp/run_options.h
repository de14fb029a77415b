// The interpreter options a user spells as text — `--policy`, `--break-on`, `--dump` of `kir run`
// and the `policy=`, `break_on=`, `dump=` arguments of the Python package's run() — read into
// interp::Options by one parser, so the two surfaces cannot accept different spellings.
#pragma once
#include <string>

#include "interp/interpreter.h"
#include "kir/ir.h"

namespace kir::interp {

// Applies one policy ("parallel=shuffle:7", "region=random:3", "atomics=interleaved:1",
// "accumulation=sequential", "lanes=8:64", ...). Returns "" or the usage message naming `p`.
std::string apply_policy(const std::string& p, Options& opts);
// "nan" or "inf". Returns "" or the usage message ("takes nan or inf, ..."; the caller names its option).
std::string apply_break_on(const std::string& what, Options& opts);
// A value to print at each definition (`%name` or `name`); it must be the result of some op of
// `m`, read from `file` (so a dump never silently prints nothing). Returns "" or the message.
std::string apply_dump(const std::string& name, const Module& m, const std::string& file, Options& opts);

}  // namespace kir::interp
