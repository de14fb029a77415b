// The kir side of kir_bench_backend (kir_cases.h): the benchmark kernels as canonical KIR text
// (contract in f32/bf16/i8, MX e4m3 and 2:4 sparse f32, a q4_K x q8_K matvec, fused contract+bias+erf-GELU, row softmax and layer norm, a pointwise
// chain, a sum, exp/tanh/erf and a copy for dispatch overhead), compiled through the backend's
// public API, and called the way NativeKernel::call does, but with a kir_env whose pool is a
// WorkerPool of the requested size, so one process measures 1 and 2 threads.
#include "bench/backend/kir_cases.h"

#include <chrono>
#include <cstdlib>
#include <limits>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

#include "backends/cpu/driver/compiler.h"
#include "backends/cpu/provider/artifact_cache.h"
#include "backends/cpu/provider/loader.h"
#include "backends/cpu/runtime/env.h"
#include "backends/cpu/runtime/fp_env.h"
#include "backends/cpu/runtime/worker_pool.h"
#include "kir/normalize/normalize.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"

namespace kbench::kir_side {
namespace {

namespace fs = std::filesystem;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Dense operands, dynamic extents; the contracts have one reduction pair (A's axis 1 with B's
// axis 0); GELU is 0.5*x*(1+erf(x*(1/sqrt 2))) with 1/sqrt 2 rounded to f32; layer norm uses
// epsilon = 1e-5 rounded to f32.
const char* kKernels = R"(
fn @max_acc(%a: f32[R], %b: f32[R]) -> f32[R] {
  %r = max(%a, %b) : f32[R]
  return(%r)
}

fn @add_acc(%a: f32[R], %b: f32[R]) -> f32[R] {
  %r = add(%a, %b) : f32[R]
  return(%r)
}

// Single-head attention softmax(Q K^T / 8) V as a region_fold over the keys (the FlashAttention
// form of examples/flash_attention.kir with the scale fixed): the default row folds it in
// blocks of region_block keys (region_fold.blocks), the variant flash_attn_whole summarizes
// all keys at once (row avx512-12x2-whole).
fn @fa_shift(%m: f32[R]) -> f32[R] {
  %ninf = const() {value = -inf} : f32
  %nb = broadcast(%ninf) {dims = []} : f32[R]
  %fin = cmp(%m, %nb) {pred = ne} : bool[R]
  %zf = const() {value = 0.0} : f32
  %zb = broadcast(%zf) {dims = []} : f32[R]
  %s = select(%fin, %m, %zb) : f32[R]
  return(%s)
}

fn @fa_summarize(%k: f32[S, D], %v: f32[S, E], %q: f32[M, D]) -> tuple<f32[M], f32[M], f32[M, E]> {
  %qk = contract(%q, %k) {batch = [], reduce = [[1, 1]]} : f32[M, S]
  %scale = const() {value = 0.125} : f32
  %sb = broadcast(%scale) {dims = []} : f32[M, S]
  %x = mul(%qk, %sb) : f32[M, S]
  %ninf = const() {value = -inf} : f32
  %mid = full(%ninf) : f32[M]
  %m = reduce(%x, %mid) {axes = [1], combine = @max_acc} : f32[M]
  %sh = call(%m) {callee = @fa_shift} : f32[M]
  %shb = broadcast(%sh) {dims = [0]} : f32[M, S]
  %d = sub(%x, %shb) : f32[M, S]
  %p = exp(%d) : f32[M, S]
  %zf = const() {value = 0.0} : f32
  %lid = full(%zf) : f32[M]
  %l = reduce(%p, %lid) {axes = [1], combine = @add_acc} : f32[M]
  %acc = contract(%p, %v) {batch = [], reduce = [[1, 0]]} : f32[M, E]
  %r = tuple(%m, %l, %acc) : tuple<f32[M], f32[M], f32[M, E]>
  return(%r)
}

fn @fa_combine(%a: tuple<f32[M], f32[M], f32[M, E]>, %b: tuple<f32[M], f32[M], f32[M, E]>) -> tuple<f32[M], f32[M], f32[M, E]> {
  %ma = tuple.get(%a) {index = 0} : f32[M]
  %la = tuple.get(%a) {index = 1} : f32[M]
  %acca = tuple.get(%a) {index = 2} : f32[M, E]
  %mb = tuple.get(%b) {index = 0} : f32[M]
  %lb = tuple.get(%b) {index = 1} : f32[M]
  %accb = tuple.get(%b) {index = 2} : f32[M, E]
  %m = max(%ma, %mb) : f32[M]
  %sh = call(%m) {callee = @fa_shift} : f32[M]
  %da = sub(%ma, %sh) : f32[M]
  %alpha = exp(%da) : f32[M]
  %db = sub(%mb, %sh) : f32[M]
  %beta = exp(%db) : f32[M]
  %la2 = mul(%la, %alpha) : f32[M]
  %lb2 = mul(%lb, %beta) : f32[M]
  %l = add(%la2, %lb2) : f32[M]
  %ab = broadcast(%alpha) {dims = [0]} : f32[M, E]
  %bb = broadcast(%beta) {dims = [0]} : f32[M, E]
  %acca2 = mul(%acca, %ab) : f32[M, E]
  %accb2 = mul(%accb, %bb) : f32[M, E]
  %acc = add(%acca2, %accb2) : f32[M, E]
  %r = tuple(%m, %l, %acc) : tuple<f32[M], f32[M], f32[M, E]>
  return(%r)
}

kernel @flash_attn(%q: In<f32[M, D]>, %k: In<f32[N, D]>, %v: In<f32[N, E]>, %o: Out<f32[M, E]>) {
  %zero = const() {value = 0} : index
  %m = dim(%q) {axis = 0} : index
  %n = dim(%k) {axis = 0} : index
  %d = dim(%q) {axis = 1} : index
  %e = dim(%v) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dn = domain(%zero, %n) : domain<N>
  %dd = domain(%zero, %d) : domain<D>
  %de = domain(%zero, %e) : domain<E>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %id = indices(%dd) : index[D]
  %ie = indices(%de) : index[E]
  %qr = broadcast(%im) {dims = [0]} : index[M, D]
  %qc = broadcast(%id) {dims = [1]} : index[M, D]
  %qrel = relation(%qr, %qc) : relation<2 -> [M, D]>
  %qv = view.load(%q, %qrel) : f32[M, D]
  %kr = broadcast(%in) {dims = [0]} : index[N, D]
  %kc = broadcast(%id) {dims = [1]} : index[N, D]
  %krel = relation(%kr, %kc) : relation<2 -> [N, D]>
  %kv = view.load(%k, %krel) : f32[N, D]
  %vr = broadcast(%in) {dims = [0]} : index[N, E]
  %vc = broadcast(%ie) {dims = [1]} : index[N, E]
  %vrel = relation(%vr, %vc) : relation<2 -> [N, E]>
  %vv = view.load(%v, %vrel) : f32[N, E]
  %ninf = const() {value = -inf} : f32
  %zf = const() {value = 0.0} : f32
  %mid = full(%ninf) : f32[M]
  %lid = full(%zf) : f32[M]
  %accid = full(%zf) : f32[M, E]
  %idt = tuple(%mid, %lid, %accid) : tuple<f32[M], f32[M], f32[M, E]>
  %sum = region_fold(%kv, %vv, %idt, %qv) {axis = 0, combine = @fa_combine, segments = [2, 1, 1], summarize = @fa_summarize} : tuple<f32[M], f32[M], f32[M, E]>
  %l = tuple.get(%sum) {index = 1} : f32[M]
  %acc = tuple.get(%sum) {index = 2} : f32[M, E]
  %zb = broadcast(%zf) {dims = []} : f32[M]
  %some = cmp(%l, %zb) {pred = gt} : bool[M]
  %onef = const() {value = 1.0} : f32
  %ob = broadcast(%onef) {dims = []} : f32[M]
  %den = select(%some, %l, %ob) : f32[M]
  %denb = broadcast(%den) {dims = [0]} : f32[M, E]
  %out = div(%acc, %denb) : f32[M, E]
  %or = broadcast(%im) {dims = [0]} : index[M, E]
  %oc = broadcast(%ie) {dims = [1]} : index[M, E]
  %orel = relation(%or, %oc) : relation<2 -> [M, E]>
  view.store(%o, %orel, %out)
}

kernel @gemm_f32(%a: In<f32[M, K]>, %b: In<f32[K, N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : f32[M, K]
  %bv = view.load(%b, %brel) : f32[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}

kernel @gemm_bf16(%a: In<bf16[M, K]>, %b: In<bf16[K, N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : bf16[M, K]
  %bv = view.load(%b, %brel) : bf16[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}

kernel @gemm_i8(%a: In<i8[M, K]>, %b: In<i8[K, N]>, %c: Out<i32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : i8[M, K]
  %bv = view.load(%b, %brel) : i8[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : i32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}

// MX (e4m3 elements, e8m0 scales per 32 along K) into f32 (scaled_contract.packed), and the
// same op into f64 rounded to f32 after (scaled_contract.sequential, the only implementation of
// an f64 accumulator: the scalar path the f32 op took before the packed one).
kernel @gemm_mx_e4m3(%a: In<u8[M, G, 32]>, %as: In<e8m0[M, G]>, %b: In<u8[G, 32, N]>, %bs: In<e8m0[N, G]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %g = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 2} : index
  %c32 = const() {value = 32} : index
  %dm = domain(%zero, %m) : domain<M>
  %dg = domain(%zero, %g) : domain<G>
  %dn = domain(%zero, %n) : domain<N>
  %dj = domain(%zero, %c32) : domain<32>
  %im = indices(%dm) : index[M]
  %ig = indices(%dg) : index[G]
  %in = indices(%dn) : index[N]
  %ij = indices(%dj) : index[32]
  %am = broadcast(%im) {dims = [0]} : index[M, G, 32]
  %ag = broadcast(%ig) {dims = [1]} : index[M, G, 32]
  %aj = broadcast(%ij) {dims = [2]} : index[M, G, 32]
  %arel = relation(%am, %ag, %aj) : relation<3 -> [M, G, 32]>
  %av = view.load(%a, %arel) : u8[M, G, 32]
  %asm = broadcast(%im) {dims = [0]} : index[M, G]
  %asg = broadcast(%ig) {dims = [1]} : index[M, G]
  %asrel = relation(%asm, %asg) : relation<2 -> [M, G]>
  %asv = view.load(%as, %asrel) : e8m0[M, G]
  %bg = broadcast(%ig) {dims = [0]} : index[G, 32, N]
  %bj = broadcast(%ij) {dims = [1]} : index[G, 32, N]
  %bn = broadcast(%in) {dims = [2]} : index[G, 32, N]
  %brel = relation(%bg, %bj, %bn) : relation<3 -> [G, 32, N]>
  %bv = view.load(%b, %brel) : u8[G, 32, N]
  %bsn = broadcast(%in) {dims = [0]} : index[N, G]
  %bsg = broadcast(%ig) {dims = [1]} : index[N, G]
  %bsrel = relation(%bsn, %bsg) : relation<2 -> [N, G]>
  %bsv = view.load(%bs, %bsrel) : e8m0[N, G]
  %acc = scaled_contract(%av, %asv, %bv, %bsv) {batch = [], lhs_format = e4m3, lhs_group_size = 32, reduce = [[1, 0], [2, 1]], rhs_format = e4m3, rhs_group_size = 32} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}

kernel @gemm_mx_e4m3_seq(%a: In<u8[M, G, 32]>, %as: In<e8m0[M, G]>, %b: In<u8[G, 32, N]>, %bs: In<e8m0[N, G]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %g = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 2} : index
  %c32 = const() {value = 32} : index
  %dm = domain(%zero, %m) : domain<M>
  %dg = domain(%zero, %g) : domain<G>
  %dn = domain(%zero, %n) : domain<N>
  %dj = domain(%zero, %c32) : domain<32>
  %im = indices(%dm) : index[M]
  %ig = indices(%dg) : index[G]
  %in = indices(%dn) : index[N]
  %ij = indices(%dj) : index[32]
  %am = broadcast(%im) {dims = [0]} : index[M, G, 32]
  %ag = broadcast(%ig) {dims = [1]} : index[M, G, 32]
  %aj = broadcast(%ij) {dims = [2]} : index[M, G, 32]
  %arel = relation(%am, %ag, %aj) : relation<3 -> [M, G, 32]>
  %av = view.load(%a, %arel) : u8[M, G, 32]
  %asm = broadcast(%im) {dims = [0]} : index[M, G]
  %asg = broadcast(%ig) {dims = [1]} : index[M, G]
  %asrel = relation(%asm, %asg) : relation<2 -> [M, G]>
  %asv = view.load(%as, %asrel) : e8m0[M, G]
  %bg = broadcast(%ig) {dims = [0]} : index[G, 32, N]
  %bj = broadcast(%ij) {dims = [1]} : index[G, 32, N]
  %bn = broadcast(%in) {dims = [2]} : index[G, 32, N]
  %brel = relation(%bg, %bj, %bn) : relation<3 -> [G, 32, N]>
  %bv = view.load(%b, %brel) : u8[G, 32, N]
  %bsn = broadcast(%in) {dims = [0]} : index[N, G]
  %bsg = broadcast(%ig) {dims = [1]} : index[N, G]
  %bsrel = relation(%bsn, %bsg) : relation<2 -> [N, G]>
  %bsv = view.load(%bs, %bsrel) : e8m0[N, G]
  %acc = scaled_contract(%av, %asv, %bv, %bsv) {batch = [], lhs_format = e4m3, lhs_group_size = 32, reduce = [[1, 0], [2, 1]], rhs_format = e4m3, rhs_group_size = 32} : f64[M, N]
  %out = cast(%acc) : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %out)
}

// 2:4 sparse f32 (sparse_contract.packed), and the same op with a batch of one, which is not the
// packed kind (sparse_contract.sequential, the comparison).
kernel @gemm_sparse24(%v: In<f32[M, C]>, %meta: In<u8[M, C]>, %b: In<f32[2*C, N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %two = const() {value = 2} : index
  %m = dim(%v) {axis = 0} : index
  %kc = dim(%v) {axis = 1} : index
  %kd = mul(%kc, %two) : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dc = domain(%zero, %kc) : domain<C>
  %dd = domain(%zero, %kd) : domain<2*C>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ic = indices(%dc) : index[C]
  %id = indices(%dd) : index[2*C]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, C]
  %ac = broadcast(%ic) {dims = [1]} : index[M, C]
  %arel = relation(%am, %ac) : relation<2 -> [M, C]>
  %vals = view.load(%v, %arel) : f32[M, C]
  %mv = view.load(%meta, %arel) : u8[M, C]
  %bk = broadcast(%id) {dims = [0]} : index[2*C, N]
  %bn = broadcast(%in) {dims = [1]} : index[2*C, N]
  %brel = relation(%bk, %bn) : relation<2 -> [2*C, N]>
  %bv = view.load(%b, %brel) : f32[2*C, N]
  %acc = sparse_contract(%vals, %mv, %bv) {batch = [], format = two_of_four, reduce = [[1, 0]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}

kernel @gemm_sparse24_seq(%v: In<f32[M, C]>, %meta: In<u8[M, C]>, %b: In<f32[2*C, N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %two = const() {value = 2} : index
  %m = dim(%v) {axis = 0} : index
  %kc = dim(%v) {axis = 1} : index
  %kd = mul(%kc, %two) : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dc = domain(%zero, %kc) : domain<C>
  %dd = domain(%zero, %kd) : domain<2*C>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ic = indices(%dc) : index[C]
  %id = indices(%dd) : index[2*C]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [1]} : index[1, M, C]
  %ac = broadcast(%ic) {dims = [2]} : index[1, M, C]
  %arel = relation(%am, %ac) : relation<2 -> [1, M, C]>
  %vals = view.load(%v, %arel) : f32[1, M, C]
  %mv = view.load(%meta, %arel) : u8[1, M, C]
  %bk = broadcast(%id) {dims = [1]} : index[1, 2*C, N]
  %bn = broadcast(%in) {dims = [2]} : index[1, 2*C, N]
  %brel = relation(%bk, %bn) : relation<2 -> [1, 2*C, N]>
  %bv = view.load(%b, %brel) : f32[1, 2*C, N]
  %acc = sparse_contract(%vals, %mv, %bv) {batch = [[0, 0]], format = two_of_four, reduce = [[2, 1]]} : f32[1, M, N]
  %cm = broadcast(%im) {dims = [1]} : index[1, M, N]
  %cn = broadcast(%in) {dims = [2]} : index[1, M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [1, M, N]>
  view.store(%c, %crel, %acc)
}

kernel @gemm_bias_gelu(%a: In<f32[M, K]>, %b: In<f32[K, N]>, %bias: In<f32[N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : f32[M, K]
  %bv = view.load(%b, %brel) : f32[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %biasrel = relation(%in) : relation<1 -> [N]>
  %bias_v = view.load(%bias, %biasrel) : f32[N]
  %bias_b = broadcast(%bias_v) {dims = [1]} : f32[M, N]
  %x = add(%acc, %bias_b) : f32[M, N]
  %half_s = const() {value = 0.5} : f32
  %one_s = const() {value = 1.0} : f32
  %rsqrt2_s = const() {value = 0x1.6a09e6p-1} : f32
  %half = broadcast(%half_s) {dims = []} : f32[M, N]
  %one = broadcast(%one_s) {dims = []} : f32[M, N]
  %rsqrt2 = broadcast(%rsqrt2_s) {dims = []} : f32[M, N]
  %xs = mul(%x, %rsqrt2) : f32[M, N]
  %e = erf(%xs) : f32[M, N]
  %e1 = add(%e, %one) : f32[M, N]
  %hx = mul(%x, %half) : f32[M, N]
  %out = mul(%hx, %e1) : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %out)
}

kernel @softmax(%x: In<f32[M, N]>, %y: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %rows = domain(%zero, %m) : domain<M>
  %cols = domain(%zero, %n) : domain<N>
  %ri = indices(%rows) : index[M]
  %ci = indices(%cols) : index[N]
  %rb = broadcast(%ri) {dims = [0]} : index[M, N]
  %cb = broadcast(%ci) {dims = [1]} : index[M, N]
  %rel = relation(%rb, %cb) : relation<2 -> [M, N]>
  %v = view.load(%x, %rel) : f32[M, N]
  %ninf = const() {value = -inf} : f32
  %max_id = full(%ninf) : f32[M]
  %mx = reduce(%v, %max_id) {axes = [1], combine = @max_acc} : f32[M]
  %mxb = broadcast(%mx) {dims = [0]} : f32[M, N]
  %shifted = sub(%v, %mxb) : f32[M, N]
  %e = exp(%shifted) : f32[M, N]
  %zf = const() {value = 0.0} : f32
  %sum_id = full(%zf) : f32[M]
  %s = reduce(%e, %sum_id) {axes = [1], combine = @add_acc} : f32[M]
  %sb = broadcast(%s) {dims = [0]} : f32[M, N]
  %out = div(%e, %sb) : f32[M, N]
  view.store(%y, %rel, %out)
}

kernel @layernorm(%x: In<f32[M, N]>, %gamma: In<f32[N]>, %beta: In<f32[N]>, %y: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %rows = domain(%zero, %m) : domain<M>
  %cols = domain(%zero, %n) : domain<N>
  %ri = indices(%rows) : index[M]
  %ci = indices(%cols) : index[N]
  %rb = broadcast(%ri) {dims = [0]} : index[M, N]
  %cb = broadcast(%ci) {dims = [1]} : index[M, N]
  %rel = relation(%rb, %cb) : relation<2 -> [M, N]>
  %v = view.load(%x, %rel) : f32[M, N]
  %crel = relation(%ci) : relation<1 -> [N]>
  %g = view.load(%gamma, %crel) : f32[N]
  %bt = view.load(%beta, %crel) : f32[N]
  %gb = broadcast(%g) {dims = [1]} : f32[M, N]
  %btb = broadcast(%bt) {dims = [1]} : f32[M, N]
  %nf_s = cast(%n) : f32
  %eps_s = const() {value = 0x1.4f8b58p-17} : f32
  %nf = broadcast(%nf_s) {dims = []} : f32[M]
  %eps = broadcast(%eps_s) {dims = []} : f32[M]
  %zf = const() {value = 0.0} : f32
  %sum_id = full(%zf) : f32[M]
  %s = reduce(%v, %sum_id) {axes = [1], combine = @add_acc} : f32[M]
  %mean = div(%s, %nf) : f32[M]
  %meanb = broadcast(%mean) {dims = [0]} : f32[M, N]
  %d = sub(%v, %meanb) : f32[M, N]
  %d2 = mul(%d, %d) : f32[M, N]
  %ss = reduce(%d2, %sum_id) {axes = [1], combine = @add_acc} : f32[M]
  %var = div(%ss, %nf) : f32[M]
  %ve = add(%var, %eps) : f32[M]
  %r = rsqrt(%ve) : f32[M]
  %rb2 = broadcast(%r) {dims = [0]} : f32[M, N]
  %nrm = mul(%d, %rb2) : f32[M, N]
  %sc = mul(%nrm, %gb) : f32[M, N]
  %out = add(%sc, %btb) : f32[M, N]
  view.store(%y, %rel, %out)
}

kernel @chain(%x: In<f32[N]>, %y: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %xv = view.load(%x, %rel) : f32[N]
  %yv = view.load(%y, %rel) : f32[N]
  %a_s = const() {value = 1.5} : f32
  %b_s = const() {value = 0.25} : f32
  %c_s = const() {value = -2.0} : f32
  %a = broadcast(%a_s) {dims = []} : f32[N]
  %b = broadcast(%b_s) {dims = []} : f32[N]
  %c = broadcast(%c_s) {dims = []} : f32[N]
  %t0 = mul(%xv, %a) : f32[N]
  %t1 = add(%t0, %b) : f32[N]
  %t2 = mul(%t1, %c) : f32[N]
  %t3 = add(%t2, %yv) : f32[N]
  view.store(%z, %rel, %t3)
}

kernel @sum(%x: In<f32[N]>, %z: Out<f32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %s = reduce.sum(%a) {axis = 0} : f32
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%z, %r0, %s)
}

kernel @isum(%x: In<i32[N]>, %z: Out<i32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : i32[N]
  %s = reduce.sum(%a) {axis = 0} : i32
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%z, %r0, %s)
}

kernel @vexp(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = exp(%a) : f32[N]
  view.store(%z, %rel, %e)
}

kernel @vtanh(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = tanh(%a) : f32[N]
  view.store(%z, %rel, %e)
}

kernel @verf(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = erf(%a) : f32[N]
  view.store(%z, %rel, %e)
}

kernel @vlog(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = log(%a) : f32[N]
  view.store(%z, %rel, %e)
}

kernel @vsin(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = sin(%a) : f32[N]
  view.store(%z, %rel, %e)
}

kernel @vcos(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = cos(%a) : f32[N]
  view.store(%z, %rel, %e)
}

kernel @copy(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  view.store(%z, %rel, %a)
}

// q4_K x q8_K matvec: every q4_K and q8_K field a view (the weights read in place), y[N] =
// quantized_dot. @qdot_q4k compiles from the default row (quantized_dot.q4k_q8k.<isa>); the
// bench's `qdot_q4k_scalar` is the same kernel from the portable row (the scalar expansion
// quantized_dot.q4k_q8k; see kVariants).
kernel @qdot_q4k(%w_d: In<f16[N, NB]>, %w_dmin: In<f16[N, NB]>, %w_scales: In<u8[N, NB, 12]>, %w_qs: In<u8[N, NB, 128]>, %x_d: In<f32[NB]>, %x_qs: In<i8[256*NB]>, %x_bsums: In<i16[16*NB]>, %y: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %ne0 = dim(%w_d) {axis = 0} : index
  %de0 = domain(%zero, %ne0) : domain<N>
  %ie0 = indices(%de0) : index[N]
  %ne1 = dim(%w_d) {axis = 1} : index
  %de1 = domain(%zero, %ne1) : domain<NB>
  %ie1 = indices(%de1) : index[NB]
  %ne2 = dim(%w_scales) {axis = 2} : index
  %de2 = domain(%zero, %ne2) : domain<12>
  %ie2 = indices(%de2) : index[12]
  %ne3 = dim(%w_qs) {axis = 2} : index
  %de3 = domain(%zero, %ne3) : domain<128>
  %ie3 = indices(%de3) : index[128]
  %ne4 = dim(%x_qs) {axis = 0} : index
  %de4 = domain(%zero, %ne4) : domain<256*NB>
  %ie4 = indices(%de4) : index[256*NB]
  %ne5 = dim(%x_bsums) {axis = 0} : index
  %de5 = domain(%zero, %ne5) : domain<16*NB>
  %ie5 = indices(%de5) : index[16*NB]
  %w_d_b0 = broadcast(%ie0) {dims = [0]} : index[N, NB]
  %w_d_b1 = broadcast(%ie1) {dims = [1]} : index[N, NB]
  %w_d_rel = relation(%w_d_b0, %w_d_b1) : relation<2 -> [N, NB]>
  %w_d_v = view.load(%w_d, %w_d_rel) : f16[N, NB]
  %w_dmin_b0 = broadcast(%ie0) {dims = [0]} : index[N, NB]
  %w_dmin_b1 = broadcast(%ie1) {dims = [1]} : index[N, NB]
  %w_dmin_rel = relation(%w_dmin_b0, %w_dmin_b1) : relation<2 -> [N, NB]>
  %w_dmin_v = view.load(%w_dmin, %w_dmin_rel) : f16[N, NB]
  %w_scales_b0 = broadcast(%ie0) {dims = [0]} : index[N, NB, 12]
  %w_scales_b1 = broadcast(%ie1) {dims = [1]} : index[N, NB, 12]
  %w_scales_b2 = broadcast(%ie2) {dims = [2]} : index[N, NB, 12]
  %w_scales_rel = relation(%w_scales_b0, %w_scales_b1, %w_scales_b2) : relation<3 -> [N, NB, 12]>
  %w_scales_v = view.load(%w_scales, %w_scales_rel) : u8[N, NB, 12]
  %w_qs_b0 = broadcast(%ie0) {dims = [0]} : index[N, NB, 128]
  %w_qs_b1 = broadcast(%ie1) {dims = [1]} : index[N, NB, 128]
  %w_qs_b2 = broadcast(%ie3) {dims = [2]} : index[N, NB, 128]
  %w_qs_rel = relation(%w_qs_b0, %w_qs_b1, %w_qs_b2) : relation<3 -> [N, NB, 128]>
  %w_qs_v = view.load(%w_qs, %w_qs_rel) : u8[N, NB, 128]
  %x_d_b0 = broadcast(%ie1) {dims = [0]} : index[NB]
  %x_d_rel = relation(%x_d_b0) : relation<1 -> [NB]>
  %x_d_v = view.load(%x_d, %x_d_rel) : f32[NB]
  %x_qs_b0 = broadcast(%ie4) {dims = [0]} : index[256*NB]
  %x_qs_rel = relation(%x_qs_b0) : relation<1 -> [256*NB]>
  %x_qs_v = view.load(%x_qs, %x_qs_rel) : i8[256*NB]
  %x_bsums_b0 = broadcast(%ie5) {dims = [0]} : index[16*NB]
  %x_bsums_rel = relation(%x_bsums_b0) : relation<1 -> [16*NB]>
  %x_bsums_v = view.load(%x_bsums, %x_bsums_rel) : i16[16*NB]
  %w = record(%w_d_v, %w_dmin_v, %w_scales_v, %w_qs_v) : record<d: f16[N, NB], dmin: f16[N, NB], scales: u8[N, NB, 12], qs: u8[N, NB, 128]>
  %x = record(%x_d_v, %x_qs_v, %x_bsums_v) : record<d: f32[NB], qs: i8[256*NB], bsums: i16[16*NB]>
  %dot = quantized_dot(%w, %x) {lhs_format = q4_k, rhs_format = q8_k} : f32[N]
  %y_b0 = broadcast(%ie0) {dims = [0]} : index[N]
  %y_rel = relation(%y_b0) : relation<1 -> [N]>
  view.store(%y, %y_rel, %dot)
}

)";

// Benchmark kernels that are another kernel of kKernels compiled from a given config row.
struct Variant {
  const char* name;
  const char* kernel;
  const char* row;
};
const Variant kVariants[] = {{"qdot_q4k_scalar", "qdot_q4k", "portable-4x4"},
                             {"flash_attn_whole", "flash_attn", "avx512-12x2-whole"}};

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

fs::path make_temp_dir(const char* stem) {
  std::string t = (fs::temp_directory_path() / (std::string(stem) + "-XXXXXX")).string();
  if (!mkdtemp(t.data())) throw std::runtime_error("cannot create a temporary directory " + t);
  return t;
}

std::string first_line(const std::string& s) {
  auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

class PoolCall : public Call {
 public:
  PoolCall(std::shared_ptr<kir::cpu::NativeKernel> k, std::vector<kir_view> views, std::vector<int64_t> extents, int threads)
      : kernel_(std::move(k)), views_(std::move(views)), extents_(std::move(extents)), pool_(threads) {
    env_ = *kir::cpu::rt::default_env();
    env_.pool = &pool_;
    auto obj = kir::cpu::load_object(kernel_->artifact().object);  // the process-wide handle
    entry_ = reinterpret_cast<int (*)(kir_call*)>(obj->symbol(kernel_->source().entry));
  }
  void run() override {
    kir_fault fault{};
    kir_call c{};
    c.env = &env_;
    c.views = views_.data();
    c.nviews = static_cast<int64_t>(views_.size());
    c.scalars = nullptr;
    c.nscalars = 0;
    c.extents = extents_.data();
    c.nextents = static_cast<int64_t>(extents_.size());
    c.fault = &fault;
    {
      kir::cpu::rt::FpEnvGuard guard;
      entry_(&c);
    }
    if (fault.code != 0) throw std::runtime_error(kir::cpu::fault_message(*kernel_, fault));
  }

 private:
  std::shared_ptr<kir::cpu::NativeKernel> kernel_;
  std::vector<kir_view> views_;
  std::vector<int64_t> extents_;
  kir::cpu::rt::WorkerPool pool_;
  kir_env env_{};
  int (*entry_)(kir_call*) = nullptr;
};

}  // namespace

struct Kernels::Impl {
  std::unique_ptr<kir::Module> module;
  fs::path cold_dir, warm_dir;
  std::map<std::string, std::shared_ptr<kir::cpu::NativeKernel>> kernels;
  std::map<std::string, std::string> errors;
};

Kernels::Kernels() : impl_(std::make_unique<Impl>()) {
  Impl& I = *impl_;
  kir::Diagnostics diags;
  I.module = kir::parse_module(kKernels, "kir_bench_backend.kir", diags);
  if (!I.module || !kir::normalize_module(*I.module, diags) || !kir::verify_module(*I.module, diags))
    throw std::runtime_error("benchmark kernels do not verify:\n" + diags.render(kKernels));
  I.cold_dir = make_temp_dir("kir-bench-cold");
  I.warm_dir = make_temp_dir("kir-bench-warm");
  kir::cpu::ArtifactCache cold(I.cold_dir);
  std::vector<std::string> names;
  for (const auto& f : I.module->functions)
    if (f->is_kernel()) names.push_back(f->name);
  std::map<std::string, const Variant*> variants;
  for (const Variant& v : kVariants) {
    names.push_back(v.name);
    variants[v.name] = &v;
  }
  auto function_of = [&](const std::string& name) { return variants.count(name) ? variants[name]->kernel : name; };
  auto options = [&](const std::string& name, kir::cpu::ArtifactCache* cache) {
    kir::cpu::CompileOptions o;
    o.cache = cache;
    const kir::Function* fn = I.module->find_function(function_of(name));
    for (const kir::Value* p : fn->params())
      if (p->type.is(kir::TypeKind::View)) o.spec.unit_inner_stride[p->name] = true;  // dense views
    if (variants.count(name)) o.config_row = variants[name]->row;
    return o;
  };
  for (const std::string& name : names) {
    CompileStat st;
    st.kernel = name;
    const double t0 = now();
    try {
      auto k = kir::cpu::build_kernel(*I.module, function_of(name), options(name, &cold));
      st.cold_s = now() - t0;
      st.compiled = k->artifact().compiled;
      I.kernels[name] = k;
    } catch (const std::exception& e) {
      I.errors[name] = first_line(e.what());
    }
    stats_.push_back(st);
  }
  // Warm: a second cache directory holding copies of the objects (a different path, so the
  // loader really opens them instead of returning the handle it already has).
  fs::create_directories(I.warm_dir / "obj");
  for (const auto& e : fs::directory_iterator(I.cold_dir / "obj"))
    if (e.path().extension() == ".so") fs::copy_file(e.path(), I.warm_dir / "obj" / e.path().filename());
  kir::cpu::ArtifactCache warm(I.warm_dir);
  for (CompileStat& st : stats_) {
    if (!I.kernels.count(st.kernel)) continue;
    try {
      const double t0 = now();
      auto k = kir::cpu::build_kernel(*I.module, function_of(st.kernel), options(st.kernel, &warm));
      st.warm_s = now() - t0;
      st.reloaded_without_compile = !k->artifact().compiled;
    } catch (const std::exception&) {
      st.warm_s = kNaN;  // shown as a failed warm load (reloaded_without_compile stays false)
    }
  }
}

Kernels::~Kernels() {
  std::error_code ec;
  fs::remove_all(impl_->cold_dir, ec);
  fs::remove_all(impl_->warm_dir, ec);
}

std::string Kernels::error(const std::string& kernel) const {
  auto it = impl_->errors.find(kernel);
  if (it != impl_->errors.end()) return it->second;
  return impl_->kernels.count(kernel) ? "" : "no kernel @" + kernel;
}

std::unique_ptr<Call> Kernels::bind(const std::string& kernel, const std::map<std::string, View>& views,
                                    const std::map<std::string, int64_t>& extents, int threads) const {
  auto it = impl_->kernels.find(kernel);
  if (it == impl_->kernels.end()) throw std::runtime_error("kernel @" + kernel + " is not available: " + error(kernel));
  const kir::cpu::Program& P = it->second->program();
  std::vector<kir_view> vs;
  for (kir::cpu::BufId b : P.view_params) {
    const std::string& name = P.buf(b).name;
    auto v = views.find(name);
    if (v == views.end()) throw std::runtime_error("@" + kernel + ": no view for %" + name);
    kir_view kv{};
    kv.data = v->second.data;
    kv.offset = 0;
    kv.rank = static_cast<int64_t>(v->second.shape.size());
    int64_t stride = 1;
    for (int64_t a = kv.rank - 1; a >= 0; --a) {
      kv.shape[a] = v->second.shape[static_cast<size_t>(a)];
      kv.strides[a] = stride;
      stride *= kv.shape[a];
    }
    vs.push_back(kv);
  }
  if (!P.scalar_params.empty()) throw std::runtime_error("@" + kernel + ": runtime scalars are not bound by this harness");
  std::vector<int64_t> ex;
  for (const std::string& s : P.symbols) {
    auto e = extents.find(s);
    if (e == extents.end()) throw std::runtime_error("@" + kernel + ": no value for extent " + s);
    ex.push_back(e->second);
  }
  return std::make_unique<PoolCall>(it->second, std::move(vs), std::move(ex), threads);
}

}  // namespace kbench::kir_side
