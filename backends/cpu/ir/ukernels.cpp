// The micro-kernel catalog (ukernels.h).
#include "backends/cpu/ir/ukernels.h"

#include <regex>
#include <vector>

namespace kir::cpu {

int GemmUKernel::lanes() const {
  const int bytes = isa == "avx512" ? 64 : isa == "avx2" ? 32 : 0;
  return bytes ? bytes / static_cast<int>(info(dtype).bits / 8) : 1;
}

std::string GemmUKernel::name() const {
  const std::string form = integer() ? "u8i8" : bf16 ? "bf16" : std::string(kir::name(dtype));
  return (sparse ? "gemm_sparse." : "gemm.") + form + "." + isa + "." + std::to_string(mr) + "x" + std::to_string(nv);
}

std::string GemmUKernel::capability() const {
  if (isa == "avx512") return integer() ? "avx512_vnni" : "avx512f";  // bf16: vdpbf16ps only where the target has it
  if (isa == "avx2") return "avx2";
  return "";
}

std::optional<GemmUKernel> parse_gemm_ukernel(const std::string& op) {
  static const std::regex re(R"(gemm\.(f32|f64|u8i8|bf16)\.(avx512|avx2|portable)\.([0-9]+)x([0-9]+))");
  static const std::regex sre(R"(gemm_sparse\.(f32|f64)\.(avx512|avx2|portable)\.([0-9]+)x([0-9]+))");
  std::smatch m;
  const bool sparse = std::regex_match(op, m, sre);
  if (!sparse && !std::regex_match(op, m, re)) return std::nullopt;
  GemmUKernel g;
  g.sparse = sparse;
  g.dtype = m[1] == "f64" ? DType::F64 : m[1] == "u8i8" ? DType::I32 : DType::F32;
  g.bf16 = m[1] == "bf16";
  if (g.side_args() && m[2] == "avx2") return std::nullopt;
  g.isa = m[2];
  g.mr = std::stoi(m[3]);
  g.nv = std::stoi(m[4]);
  if (g.mr < 1 || g.mr > 16 || g.nv < 1 || g.nv > 8) return std::nullopt;
  return g;
}

std::string GemvUKernel::name() const { return "gemv." + std::string(kir::name(dtype)) + "." + isa; }

std::optional<GemvUKernel> parse_gemv_ukernel(const std::string& op) {
  static const std::regex re(R"(gemv\.(f32|f64)\.(avx512|avx2|portable))");
  std::smatch m;
  if (!std::regex_match(op, m, re)) return std::nullopt;
  return GemvUKernel{m[1] == "f32" ? DType::F32 : DType::F64, m[2]};
}

std::string PackUKernel::name() const {
  return "pack." + std::string(kir::name(src)) + "." + std::string(kir::name(panel)) + ".w" + std::to_string(w);
}

bool packable(DType src, DType panel) {
  switch (panel) {
    case DType::F32: return src == DType::F32 || src == DType::F16 || src == DType::BF16;
    case DType::F64: return src == DType::F64 || src == DType::F32;
    case DType::U8:
    case DType::I8: return src == DType::U8 || src == DType::I8;
    case DType::BF16: return src == DType::BF16;
    default: return false;
  }
}

std::optional<PackUKernel> parse_pack_ukernel(const std::string& op) {
  static const std::regex re(R"(pack\.([a-z0-9]+)\.([a-z0-9]+)\.w([0-9]+))");
  std::smatch m;
  if (!std::regex_match(op, m, re)) return std::nullopt;
  auto src = parse_dtype(m[1].str()), panel = parse_dtype(m[2].str());
  if (!src || !panel || !packable(*src, *panel)) return std::nullopt;
  PackUKernel k{*src, *panel, std::stoi(m[3])};
  if (k.w < 1 || k.w > 256) return std::nullopt;
  return k;
}

std::optional<QdotUKernel> parse_qdot_ukernel(const std::string& op) {
  if (op == "qdot.q4k_q8k.avx512") return QdotUKernel{"avx512"};
  if (op == "qdot.q4k_q8k.avx2") return QdotUKernel{"avx2"};
  return std::nullopt;
}

int64_t qdot_field_per_block(size_t i) {
  static const int64_t per[7] = {1, 1, 12, 128, 1, 256, 16};
  return i < 7 ? per[i] : 0;
}

namespace {

bool scratch_element(const Program& p, const Expr& e, DType d) {
  return e.kind == ExprKind::Load && e.dtype == d && p.buf(e.buf).kind == BufKind::Scratch;
}

// Two distinct constant axes of `src`'s buffer at detail[i], detail[i + 1].
bool axes_of(const Program& p, const Expr& src, const Stmt& s, size_t i) {
  const size_t rank = p.buf(src.buf).shape.size();
  auto x = const_index(s.detail[i]), y = const_index(s.detail[i + 1]);
  return x && y && *x >= 0 && *y >= 0 && static_cast<size_t>(*x) < rank && static_cast<size_t>(*y) < rank && *x != *y;
}

std::string check_pack_call(const Program& p, const Stmt& s, const PackUKernel& k) {
  const Buffer& panel = p.buf(s.buf);
  if (panel.kind != BufKind::Scratch || panel.dtype != k.panel || panel.shape.size() != 1 || s.index.size() != 1)
    return "Kernel " + s.op + " writes " + panel.name + ", not a rank-1 " + std::string(name(k.panel)) + " scratch panel";
  const size_t args = k.side_args() ? 8 : 6;
  if (s.detail.size() != args)
    return "Kernel " + s.op + " takes " + std::to_string(args) + " detail arguments, not " + std::to_string(s.detail.size());
  const Expr& src = *s.detail[0];
  if (src.kind != ExprKind::Load || src.dtype != k.src)
    return "Kernel " + s.op + " source is not an element of a " + std::string(name(k.src)) + " buffer";
  if (!axes_of(p, src, s, 1)) return "Kernel " + s.op + " needs two distinct constant axes of its source";
  for (size_t i = 3; i < 6; ++i)
    if (!is_integer(s.detail[i]->dtype)) return "Kernel " + s.op + " n/kc/kcp is not an integer";
  if (k.side_args() && (!scratch_element(p, *s.detail[6], DType::I32) || s.detail[7]->dtype != DType::I32))
    return "Kernel " + s.op + (k.bf16() ? " ranges and pad are not an i32 scratch element and an i32"
                                        : " terms are not an i32 scratch element and an i32 factor");
  return "";
}

std::string check_gemv_call(const Program& p, const Stmt& s, const GemvUKernel& g) {
  const Buffer& c = p.buf(s.buf);
  if (c.dtype != g.dtype || c.shape.size() < 2 || s.index.size() != c.shape.size())
    return "Kernel " + s.op + " needs a " + std::string(name(g.dtype)) + " C of rank 2 or more and one index per axis";
  if (s.detail.size() != 9) return "Kernel " + s.op + " takes 9 detail arguments, not " + std::to_string(s.detail.size());
  for (size_t i : {size_t{0}, size_t{3}}) {
    const Expr& e = *s.detail[i];
    if (e.kind != ExprKind::Load || e.dtype != g.dtype)
      return "Kernel " + s.op + " operand " + (i ? "B" : "A") + " is not an element of a " + std::string(name(g.dtype)) + " buffer";
    if (!axes_of(p, e, s, i + 1)) return "Kernel " + s.op + " needs two distinct constant axes of operand " + (i ? "B" : "A");
  }
  for (size_t i = 6; i < 9; ++i)
    if (!is_integer(s.detail[i]->dtype)) return "Kernel " + s.op + " k/m/n is not an integer";
  auto m = const_index(s.detail[7]);
  if (m && (*m < 0 || *m > 4)) return "Kernel " + s.op + " takes at most 4 rows, not " + std::to_string(*m);
  return "";
}

std::string check_qdot_call(const Program& p, const Stmt& s, const QdotUKernel&) {
  const Buffer& out = p.buf(s.buf);
  if (out.dtype != DType::F32 || s.index.size() != out.shape.size())
    return "Kernel " + s.op + " needs an f32 result and one index per axis";
  if (s.detail.size() != 8) return "Kernel " + s.op + " takes 8 detail arguments, not " + std::to_string(s.detail.size());
  static const DType want[7] = {DType::F16, DType::F16, DType::U8, DType::U8, DType::F32, DType::I8, DType::I16};
  static const char* what[7] = {"x.d", "x.dmin", "x.scales", "x.qs", "y.d", "y.qs", "y.bsums"};
  for (size_t i = 0; i < 7; ++i) {
    const Expr& e = *s.detail[i];
    if (e.kind != ExprKind::Load || e.dtype != want[i])
      return "Kernel " + s.op + " field " + what[i] + " is not an element of a " + std::string(name(want[i])) + " buffer";
    const size_t rank = p.buf(e.buf).shape.size(), d_rank = p.buf(s.detail[i < 4 ? 0 : 4]->buf).shape.size();
    const bool per_block = i == 0 || i == 1 || i == 4;
    if (rank == 0 || (per_block ? rank != d_rank : rank != d_rank && rank != d_rank + 1))
      return "Kernel " + s.op + " field " + what[i] + " has rank " + std::to_string(rank) + " against its d's " +
             std::to_string(d_rank);
  }
  if (!is_integer(s.detail[7]->dtype)) return "Kernel " + s.op + " block count is not an integer";
  return "";
}

}  // namespace

std::string check_kernel_call(const Program& p, const Stmt& s) {
  if (s.buf < 0 || static_cast<size_t>(s.buf) >= p.bufs.size()) return "Kernel " + s.op + " writes no buffer";
  if (auto k = parse_pack_ukernel(s.op)) return check_pack_call(p, s, *k);
  if (auto k = parse_gemv_ukernel(s.op)) return check_gemv_call(p, s, *k);
  if (auto k = parse_qdot_ukernel(s.op)) return check_qdot_call(p, s, *k);
  auto g = parse_gemm_ukernel(s.op);
  if (!g) return "unknown micro-kernel `" + s.op + "`";
  const Buffer& c = p.buf(s.buf);
  if (c.dtype != g->dtype) return "Kernel " + s.op + " writes " + std::string(name(c.dtype)) + " buffer " + c.name;
  if (c.shape.size() < 2 || s.index.size() != c.shape.size())
    return "Kernel " + s.op + " needs a C of rank 2 or more and one index per axis";
  const size_t args = g->args();
  if (s.detail.size() != args)
    return "Kernel " + s.op + " takes " + std::to_string(args) + " detail arguments, not " + std::to_string(s.detail.size());
  struct Arg {
    size_t at;
    DType dtype;
    const char* what;
  };
  std::vector<Arg> panels = {{0, g->a_panel(), "A"}, {1, g->b_panel(), "B"}};
  if (g->integer()) panels.insert(panels.end(), {{6, DType::I32, "row terms"}, {7, DType::I32, "column terms"}});
  if (g->bf16) panels.insert(panels.end(), {{6, DType::I32, "A range"}, {7, DType::I32, "B range"}});
  if (g->sparse) panels.push_back({6, DType::I32, "A k panel"});
  for (const Arg& a : panels)
    if (!scratch_element(p, *s.detail[a.at], a.dtype))
      return std::string("Kernel ") + s.op + " argument " + a.what + " is not an element of a " +
             std::string(name(a.dtype)) + " scratch panel";
  for (int k = 2; k < 5; ++k)
    if (!is_integer(s.detail[static_cast<size_t>(k)]->dtype)) return "Kernel " + s.op + " kc/mr/nr is not an integer";
  if (s.detail[5]->dtype != DType::Bool) return "Kernel " + s.op + " `first` is not bool";
  if (!g->integer() && s.detail[g->last_arg()]->dtype != DType::Bool) return "Kernel " + s.op + " `last` is not bool";
  for (int k : {3, 4}) {
    auto v = const_index(s.detail[static_cast<size_t>(k)]);
    const int lim = k == 3 ? g->mr : g->nr();
    if (v && (*v < 0 || *v > lim)) return "Kernel " + s.op + " block of " + std::to_string(*v) + " exceeds its tile";
  }
  return "";
}

}  // namespace kir::cpu
