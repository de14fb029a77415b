// Shared pieces of the intent._kir extension (docs/python-package.md): the KirError exception
// (every kir failure reaches Python as intent._kir.KirError with its located diagnostics), the
// guard that turns C++ errors into it, and the conversions between NumPy arrays and the element
// bit patterns the interpreter, the numerics library and the backend work on.
#pragma once
#include <pybind11/eval.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interp/error.h"
#include "interp/value.h"
#include "kir/ir.h"
#include "numerics/dtype.h"

namespace kir::py_kir {

namespace py = pybind11;

// One located problem: the dict form Python sees in KirError.diagnostics.
struct DiagInfo {
  std::string file;
  int64_t line = 0, col = 0;
  std::string severity = "error";
  std::string rule;
  std::string message;
  std::map<std::string, std::string> extra;  // runtime errors: op, coords, kind
};

// Thrown by binding code; the registered translator raises KirError(text, diagnostics).
struct KirFailure : std::exception {
  std::string text;
  std::vector<DiagInfo> diags;
  std::vector<std::string> trace;  // run(trace=True) stopped by an error: the lines up to it (KirError.trace)
  explicit KirFailure(std::string t, std::vector<DiagInfo> d = {}) : text(std::move(t)), diags(std::move(d)) {}
  const char* what() const noexcept override { return text.c_str(); }
};

// KirError for kir's parse/normalize/verify diagnostics: str = one line per diagnostic
// (`file:line:col: error[RULE]: message`, the CLI's text without source excerpts).
KirFailure failure_from(const Diagnostics& diags);
// KirError for an interpreter error: str = its message; one diagnostic when the message carries
// a location (rule = the error kind, e.g. "break-on", "out-of-bounds").
KirFailure failure_from(const interp::RuntimeError& e);
// Parses "file:line:col" (the file may itself contain ':'); false when it is not one.
bool parse_location(const std::string& loc, std::string& file, int64_t& line, int64_t& col);
// Locations found at the start of the lines of a message (backend faults, differential reports).
std::vector<DiagInfo> diags_in_text(const std::string& text);

// Creates intent._kir.KirError in `m` and registers the translator of KirFailure.
void register_kir_error(py::module_& m);

// Runs `f`, turning kir's C++ exceptions (interp::RuntimeError, std::exception) into KirFailure.
// Python errors raised inside pass through unchanged.
template <typename F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const KirFailure&) {
    throw;
  } catch (const py::error_already_set& e) {
    // NumPy or Python rejecting an argument while it is converted: a bad argument.
    if (e.matches(PyExc_ValueError) || e.matches(PyExc_TypeError) || e.matches(PyExc_OverflowError))
      throw KirFailure(std::string("bad argument: ") + e.what());
    throw;
  } catch (const py::cast_error& e) {
    throw KirFailure(std::string("bad argument: ") + e.what());
  } catch (const py::builtin_exception&) {
    throw;
  } catch (const interp::RuntimeError& e) {
    throw failure_from(e);
  } catch (const std::bad_alloc&) {
    throw KirFailure("out of memory");
  } catch (const std::exception& e) {
    throw KirFailure(e.what(), diags_in_text(e.what()));
  }
}

// ---- plain arguments (KirFailure naming `what` when the value does not fit) ----

std::optional<std::string> opt_str(py::handle v, const std::string& what);         // None or str
std::vector<std::string> str_list(py::handle v, const std::string& what);          // None, a str, or strs
std::optional<int64_t> opt_int(py::handle v, const std::string& what);             // None or int
uint64_t u64_arg(py::handle v, const std::string& what);                           // int in [0, 2^64)
std::optional<double> opt_float(py::handle v, const std::string& what);            // None or a number

// ---- dtypes and arrays ----

DType dtype_arg(const std::string& name);        // KirFailure on an unknown name
py::dtype carrier_dtype(DType d);                // the NumPy dtype holding d's bit patterns
bool has_dtype(py::handle arr, const py::dtype& want);  // arr.dtype == want
bool has_native_numpy_type(DType d);             // bool, ints, f16/f32/f64 (not bf16, e*)

// Bit patterns of a C-order array of `shape`.
struct Bits {
  interp::Shape shape;
  std::vector<uint64_t> bits;
};

// The elements of `obj` as bit patterns of dtype d. Accepted: an intent Array (an object with
// `bits` and a str `dtype`) of dtype d; a NumPy array of d's carrier dtype (bf16 as uint16,
// e4m3/e5m2/e2m1/e8m0 as uint8, index as int64); other array-likes (lists, arrays of another
// dtype) only where nothing can be lost silently: integers into an integer dtype that holds them,
// floats or integers into f16/f32/f64 (rounded once, to nearest even) or into bf16 and the small
// formats (rounded by kir's numerics). `what` names the argument in errors ("parameter %x").
Bits array_bits(py::handle obj, DType d, const std::string& what);
// A NumPy array of d's carrier dtype holding `bits` in `shape`.
py::array bits_array(DType d, const interp::Shape& shape, const std::vector<uint64_t>& bits);

py::object json_to_python(const std::string& json_text);

}  // namespace kir::py_kir
