// The micro-kernel catalog (ukernels.h).
#include "backends/cpu/ir/ukernels.h"

#include <regex>

namespace kir::cpu {

int GemmUKernel::lanes() const {
  const int bytes = isa == "avx512" ? 64 : isa == "avx2" ? 32 : 0;
  return bytes ? bytes / static_cast<int>(info(dtype).bits / 8) : 1;
}

std::string GemmUKernel::name() const {
  return "gemm." + std::string(kir::name(dtype)) + "." + isa + "." + std::to_string(mr) + "x" + std::to_string(nv);
}

std::string GemmUKernel::capability() const {
  if (isa == "avx512") return "avx512f";
  if (isa == "avx2") return "avx2";
  return "";
}

std::optional<GemmUKernel> parse_gemm_ukernel(const std::string& op) {
  static const std::regex re(R"(gemm\.(f32|f64)\.(avx512|avx2|portable)\.([0-9]+)x([0-9]+))");
  std::smatch m;
  if (!std::regex_match(op, m, re)) return std::nullopt;
  GemmUKernel g;
  g.dtype = m[1] == "f32" ? DType::F32 : DType::F64;
  g.isa = m[2];
  g.mr = std::stoi(m[3]);
  g.nv = std::stoi(m[4]);
  if (g.mr < 1 || g.mr > 16 || g.nv < 1 || g.nv > 8) return std::nullopt;
  return g;
}

std::string check_kernel_call(const Program& p, const Stmt& s) {
  auto g = parse_gemm_ukernel(s.op);
  if (!g) return "unknown micro-kernel `" + s.op + "`";
  if (s.buf < 0 || static_cast<size_t>(s.buf) >= p.bufs.size()) return "Kernel " + s.op + " writes no buffer";
  const Buffer& c = p.buf(s.buf);
  if (c.dtype != g->dtype) return "Kernel " + s.op + " writes " + std::string(name(c.dtype)) + " buffer " + c.name;
  if (c.shape.size() != 2 || s.index.size() != 2) return "Kernel " + s.op + " needs a rank-2 C block and two indices";
  if (s.detail.size() != 6) return "Kernel " + s.op + " takes 6 detail arguments, not " + std::to_string(s.detail.size());
  for (int k = 0; k < 2; ++k) {
    const Expr& e = *s.detail[static_cast<size_t>(k)];
    if (e.kind != ExprKind::Load || e.dtype != g->dtype || p.buf(e.buf).kind != BufKind::Scratch)
      return std::string("Kernel ") + s.op + " argument " + (k ? "B" : "A") + " is not an element of a " +
             std::string(name(g->dtype)) + " scratch panel";
  }
  for (int k = 2; k < 5; ++k)
    if (!is_integer(s.detail[static_cast<size_t>(k)]->dtype)) return "Kernel " + s.op + " kc/mr/nr is not an integer";
  if (s.detail[5]->dtype != DType::Bool) return "Kernel " + s.op + " `first` is not bool";
  for (int k : {3, 4}) {
    auto v = const_index(s.detail[static_cast<size_t>(k)]);
    const int lim = k == 3 ? g->mr : g->nr();
    if (v && (*v < 0 || *v > lim)) return "Kernel " + s.op + " block of " + std::to_string(*v) + " exceeds its tile";
  }
  return "";
}

}  // namespace kir::cpu
