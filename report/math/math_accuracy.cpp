// math_section: the rows of the math accuracy section. Per dtype the inputs are made once; all
// kernels are compiled as one batch; then per function the backend runs on every input, the
// correctly rounded references and glibc's results are computed on worker threads, and the
// errors are summarized into a math_row of docs/report-schema.json.
#include "report/math/math_accuracy.h"

#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "numerics/contract.h"
#include "numerics/format.h"
#include "numerics/value_text.h"
#include "report/math/math_glibc.h"
#include "report/math/math_inputs.h"
#include "report/math/math_kernels.h"
#include "report/math/math_parallel.h"
#include "report/math/math_stats.h"

namespace kir::report {
namespace {

using nlohmann::json;

std::vector<num::MathFn> resolve_functions(const std::vector<std::string>& names) {
  std::vector<num::MathFn> out;
  if (names.empty()) {
    for (int i = 0; i < num::kNumMathFns; ++i) out.push_back(static_cast<num::MathFn>(i));
    return out;
  }
  for (const auto& n : names) {
    auto f = num::parse_math_fn(n);
    if (!f) {
      std::string all;
      for (int i = 0; i < num::kNumMathFns; ++i) all += (i ? ", " : "") + std::string(num::name(static_cast<num::MathFn>(i)));
      throw std::invalid_argument("math section: unknown function '" + n + "' (functions: " + all + ")");
    }
    out.push_back(*f);
  }
  return out;
}

std::vector<kir::DType> resolve_dtypes(const std::vector<kir::DType>& ds) {
  if (ds.empty()) return {kir::DType::F16, kir::DType::BF16, kir::DType::F32, kir::DType::F64};
  for (kir::DType d : ds)
    if (d != kir::DType::F16 && d != kir::DType::BF16 && d != kir::DType::F32 && d != kir::DType::F64)
      throw std::invalid_argument("math section: dtype " + std::string(kir::name(d)) + " is not f16, bf16, f32 or f64");
  return ds;
}

std::string value_text(kir::DType d, uint64_t bits) {
  const num::Scalar s{d, bits};
  return num::format_value(s) + " (" + num::format_bits(s) + ")";
}

std::string error_text(kir::DType d, uint64_t got, uint64_t cr) {
  const auto e = error_ulps(got, cr, d);
  if (!e) return "NaN mismatch";
  std::string t = std::to_string(*e) + (*e == 1 ? " ulp" : " ulps");
  if (*e == 0 && got != cr && num::classify(cr, d) == num::FpClass::Zero) t += ", wrong sign of zero";
  return t;
}

// "x = 1 (0x3f800000): got ..., correctly rounded ..., 2 ulps"
std::string describe_input(kir::DType d, uint64_t x, uint64_t got, uint64_t cr) {
  return "x = " + value_text(d, x) + ": got " + value_text(d, got) + ", correctly rounded " + value_text(d, cr) + ", " +
         error_text(d, got, cr);
}

// "2 ulps", "1 ulp or abs 1.9e-06"
std::string contract_text(const num::Accuracy& a) {
  const auto u = static_cast<uint64_t>(a.max_ulps);
  std::string t = std::to_string(u) + (u == 1 ? " ulp" : " ulps");
  char buf[64];
  if (a.max_rel > 0) {
    std::snprintf(buf, sizeof buf, " or rel %g", a.max_rel);
    t += buf;
  }
  if (a.max_abs > 0) {
    std::snprintf(buf, sizeof buf, " or abs %g", a.max_abs);
    t += buf;
  }
  return t;
}

struct RowInput {
  num::MathFn fn;
  kir::DType d;
  const MathInputs* in;
};

json measure_row(const RowInput& r, const MathKernels& kernels, const MathOptions& o, double* seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto& x = r.in->bits;
  const std::string kname = math_kernel_name(r.fn, r.d);
  const auto contract = num::accuracy(num::contract_op(r.fn), r.d);
  const GlibcAnchor anchor = glibc_anchor(r.fn, r.d);

  // Correctly rounded references and glibc's results, on worker threads.
  std::vector<uint64_t> cr(x.size()), libm(anchor.available ? x.size() : 0);
  parallel_chunks(x.size(), o.threads, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      cr[i] = num::eval(r.fn, r.d, x[i]);
      if (anchor.available) libm[i] = anchor.eval(x[i]);
    }
  });

  json row = {{"function", std::string(num::name(r.fn))},
              {"dtype", std::string(kir::name(r.d))},
              {"inputs", r.in->exhaustive ? "exhaustive" : "sampled"},
              {"count", x.size()},
              {"backend_max_ulps", nullptr},
              {"backend_mean_ulps", nullptr},
              {"contract_ulps", contract ? json(contract->max_ulps) : json(nullptr)},
              {"glibc_max_ulps", nullptr},
              {"glibc_function", anchor.function},
              {"worst_input", ""},
              {"verdict", "PASS"},
              {"reason", ""},
              {"histogram", json::array()},
              {"scatter", json::array()},
              {"glibc_scatter", json::array()}};

  if (anchor.available) {
    const ErrorStats g = measure_errors(r.d, x, libm, cr, std::nullopt);
    if (g.nan_mismatches == 0) row["glibc_max_ulps"] = static_cast<double>(g.max_ulps);
    row["glibc_scatter"] = scatter_json(g.scatter);
  }

  // The backend's results.
  std::optional<std::vector<uint64_t>> got;
  if (auto err = kernels.errors.find(kname); err != kernels.errors.end()) {
    const bool unsupported = is_not_implemented(err->second);
    row["verdict"] = unsupported ? "UNSUPPORTED" : "FAIL";
    row["reason"] = (unsupported ? "" : "the backend failed to compile the kernel: ") + err->second;
  } else {
    try {
      got = run_math_kernel(kernels, kname, r.d, x);
    } catch (const std::exception& e) {
      row["verdict"] = "FAIL";
      row["reason"] = std::string("the backend's kernel faulted: ") + e.what();
    }
  }

  if (got) {
    const ErrorStats s = measure_errors(r.d, x, *got, cr, contract);
    if (s.nan_mismatches == 0) row["backend_max_ulps"] = static_cast<double>(s.max_ulps);
    if (s.count > s.nan_mismatches) row["backend_mean_ulps"] = s.mean_ulps;
    row["histogram"] = histogram_json(s.histogram);
    row["scatter"] = scatter_json(s.scatter);
    const int64_t worst = s.worst_rejected >= 0 ? s.worst_rejected : s.worst;
    if (worst >= 0) {
      const auto w = static_cast<size_t>(worst);
      row["worst_input"] = value_text(r.d, x[w]);
      if (!contract) {
        row["verdict"] = "SKIP";
        row["reason"] = "the numerics contract has no entry for " + std::string(num::name(r.fn)) + " on " +
                        std::string(kir::name(r.d));
      } else if (s.rejected > 0) {
        row["verdict"] = "FAIL";
        row["reason"] = std::to_string(s.rejected) + " of " + std::to_string(s.count) +
                        " inputs outside the contract (" + contract_text(*contract) + "): worst " +
                        describe_input(r.d, x[w], (*got)[w], cr[w]);
      }
    }
  }
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return row;
}

std::string progress_line(const json& row, double seconds) {
  auto num_or_dash = [](const json& v) {
    if (v.is_null()) return std::string("-");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v.get<double>());
    return std::string(buf);
  };
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", seconds);
  return "math " + row["function"].get<std::string>() + " " + row["dtype"].get<std::string>() + ": " +
         row["verdict"].get<std::string>() + ", backend max " + num_or_dash(row["backend_max_ulps"]) +
         " ulp, contract " + num_or_dash(row["contract_ulps"]) + ", glibc max " + num_or_dash(row["glibc_max_ulps"]) +
         " (" + std::to_string(row["count"].get<uint64_t>()) + " inputs, " + secs + " s)";
}

}  // namespace

nlohmann::json math_section(const MathOptions& o) {
  const auto fns = resolve_functions(o.functions);
  const auto dtypes = resolve_dtypes(o.dtypes);

  std::vector<std::pair<num::MathFn, kir::DType>> rows;
  for (kir::DType d : dtypes)
    for (num::MathFn f : fns) rows.emplace_back(f, d);
  const MathKernels kernels = build_math_kernels(rows);

  json out = {{"samples", o.samples}, {"seed", o.seed}, {"functions", json::array()}};
  for (kir::DType d : dtypes) {
    const MathInputs in = math_inputs(d, o.samples, o.seed);
    for (num::MathFn f : fns) {
      double seconds = 0;
      json row = measure_row({f, d, &in}, kernels, o, &seconds);
      if (o.progress) o.progress(progress_line(row, seconds));
      out["functions"].push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace kir::report
