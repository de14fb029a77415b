// `kir run` end to end: every bundled example runs out of the box (surface files are normalized
// first), outputs are summarized and written as .npy that read back; errors exit 1 with the
// op/location message. Also the .npy reader/writer round trip for every dtype carrier.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "interp/npy.h"
#include "tests/run_tool.h"
#include "interp_test.h"

using namespace kir;

namespace {

using Run = kir::test::ToolRun;

Run kir_cmd(const std::string& args) { return kir::test::run_kir(args); }

std::filesystem::path tmp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("kir_run_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("every bundled example runs with kir run", "[interp][cli]") {
  std::filesystem::path dir = std::filesystem::path(KIR_SOURCE_DIR) / "examples";
  int count = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".kir") continue;
    ++count;
    // small extents for the symbols the example has (an extent the kernel lacks is a usage error)
    std::ifstream in(e.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string header = text.substr(text.find("kernel @"), text.find('{', text.find("kernel @")) - text.find("kernel @"));
    std::string dims;
    for (const auto& [sym, n] : std::vector<std::pair<std::string, int>>{{"M", 3}, {"N", 5}, {"K", 4}, {"P", 2}})
      if (header.find("[" + sym + ",") != std::string::npos || header.find(", " + sym + "]") != std::string::npos ||
          header.find("[" + sym + "]") != std::string::npos || header.find(", " + sym + ",") != std::string::npos)
        dims += " --dim " + sym + "=" + std::to_string(n);
    auto r = kir_cmd("run " + e.path().string() + dims);
    INFO(e.path().string() << "\n" << r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("%") != std::string::npos);
  }
  CHECK(count >= 5);
}

TEST_CASE("kir run reads .npy inputs and writes .npy outputs", "[interp][cli]") {
  auto d = tmp_dir("npy");
  interp::write_npy((d / "x.npy").string(), DType::F32, {2, 2},
                    {num::from_double(1, DType::F32), num::from_double(2, DType::F32), num::from_double(3, DType::F32),
                     num::from_double(4, DType::F32)});
  interp::write_npy((d / "s.npy").string(), DType::F32, {2}, {num::from_double(10, DType::F32), num::from_double(-1, DType::F32)});
  auto r = kir_cmd("run " + (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "scale_rows_parallel.kir").string() +
                   " --input x=" + (d / "x.npy").string() + " --input s=" + (d / "s.npy").string() + " --output " + (d / "out").string());
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("%y: f32[2, 2] {10, 20, -3, -4}") != std::string::npos);
  auto y = interp::npy_to_tensor(interp::read_npy((d / "out" / "y.npy").string()), DType::F32);
  CHECK(y.shape == interp::Shape{2, 2});
  CHECK(y.bits[3] == num::from_double(-4, DType::F32));
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run reports a run-time error with location and exits 1", "[interp][cli][L13.1]") {
  auto d = tmp_dir("err");
  interp::write_npy((d / "ids.npy").string(), DType::I32, {3}, {1, 2, 50});
  auto r = kir_cmd("run " + (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "histogram.kir").string() + " --input ids=" +
                   (d / "ids.npy").string() + " --input mask=random:1 --dim V=4");
  // mask is random: either lane 2 is active (range error) or not (ok); with all-true mask it must fail.
  interp::write_npy((d / "m.npy").string(), DType::Bool, {3}, {1, 1, 1});
  r = kir_cmd("run " + (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "histogram.kir").string() + " --input ids=" +
              (d / "ids.npy").string() + " --input mask=" + (d / "m.npy").string() + " --dim V=4");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("histogram.kir:") != std::string::npos);
  CHECK(r.out.find("runtime error[histogram-range]") != std::string::npos);
  CHECK(r.out.find("(2)") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run --trace prints one line per op; --break-on nan stops at the producer", "[interp][cli]") {
  auto d = tmp_dir("trace");
  auto path = d / "nan.kir";
  {
    std::ofstream(path) << "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                           "  %c0 = const() {value = 0} : index\n"
                           "  %n = dim(%x) {axis = 0} : index\n"
                           "  %d = domain(%c0, %n) : domain<N>\n"
                           "  %i = indices(%d) : index[N]\n"
                           "  %r = relation(%i) : relation<1 -> [N]>\n"
                           "  %v = view.load(%x, %r) : f32[N]\n"
                           "  %l = log(%v) : f32[N]\n"
                           "  view.store(%y, %r, %l)\n"
                           "}\n";
  }
  interp::write_npy((d / "x.npy").string(), DType::F32, {3}, {num::from_double(1, DType::F32), num::from_double(-1, DType::F32), 0});
  auto r = kir_cmd("run " + path.string() + " --trace --input x=" + (d / "x.npy").string());
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("nan.kir:8:3: log %l = f32[3] {0, nan, -inf}") != std::string::npos);
  r = kir_cmd("run " + path.string() + " --break-on nan --input x=" + (d / "x.npy").string());
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("nan.kir:8:3: runtime error[break-on]: op 'log'") != std::string::npos);
  CHECK(r.out.find("%v = -1") != std::string::npos);
  CHECK(r.out.find("at (1)") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE(".npy round trip for every dtype (small formats as carriers)", "[interp][npy]") {
  auto d = tmp_dir("rt");
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    std::vector<uint64_t> bits = {0, 1, num::width_mask(t) & 0x5a5a5a5a5a5a5a5aull};
    if (t == DType::Bool) bits = {0, 1, 1};
    auto p = (d / (std::string(name(t)) + ".npy")).string();
    interp::write_npy(p, t, {3}, bits);
    auto back = interp::npy_to_tensor(interp::read_npy(p), t);
    INFO(name(t));
    CHECK(back.bits == bits);
    CHECK(back.shape == interp::Shape{3});
  }
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run --policy parallel=canonical|reverse|shuffle:SEED orders the points", "[interp][cli][L5.1]") {
  auto d = tmp_dir("policy");
  auto path = d / "order.kir";
  {
    // seen[i] = the position of point i in the execution order (an atomic counter).
    std::ofstream(path) << "kernel @k(%seen: Out<i32[N]>) {\n"
                           "  %c0 = const() {value = 0} : index\n"
                           "  %n = dim(%seen) {axis = 0} : index\n"
                           "  %d = domain(%c0, %n) : domain<N>\n"
                           "  %z = const() {value = 0} : i32\n"
                           "  %one = const() {value = 1} : i32\n"
                           "  %cnt = buffer.alloc(%z) : buffer<i32[1]>\n"
                           "  %r0 = relation(%c0) : relation<1 -> []>\n"
                           "  parallel(%d) region(%i: index) {\n"
                           "    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32\n"
                           "    %ri = relation(%i) : relation<1 -> []>\n"
                           "    view.store(%seen, %ri, %old)\n"
                           "    yield()\n"
                           "  }\n"
                           "}\n";
  }
  auto run = [&](const std::string& policy) { return kir_cmd("run " + path.string() + " --dim N=4 " + policy); };
  auto r = run("");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("{0, 1, 2, 3}") != std::string::npos);
  r = run("--policy parallel=canonical");
  CHECK(r.code == 0);
  CHECK(r.out.find("{0, 1, 2, 3}") != std::string::npos);
  r = run("--policy parallel=reverse");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("{3, 2, 1, 0}") != std::string::npos);
  auto s1 = run("--policy parallel=shuffle:7");
  auto s2 = run("--policy parallel=shuffle:7");
  INFO(s1.out);
  CHECK(s1.code == 0);
  CHECK(s1.out == s2.out);  // a seed names one order
  CHECK(run("--policy parallel=sideways").code == 2);
  CHECK(run("--policy parallel=shuffle:x").code == 2);
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run --envelope prints one line per reduce/scan/contract execution", "[interp][cli][L7.3][L10.4]") {
  const std::string ex = (std::filesystem::path(KIR_SOURCE_DIR) / "examples").string();
  // softmax: a max reduce (unique) and a sum reduce (envelope), one execution each
  auto r = kir_cmd("run " + ex + "/softmax.kir --dim M=3 --dim N=5 --envelope");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("envelope: " + ex + "/softmax.kir:27:3: reduce %mx: 3 elements, unique, max bound 0 ulp (f32), canonical inside envelope: yes") !=
        std::string::npos);
  CHECK(r.out.find("reduce %s: 3 elements, envelope, max bound ") != std::string::npos);
  // cumsum (f16 input, f32 accumulator) and matmul: M = 4, N = 16, P = 8 from the invocation
  auto c = kir_cmd("run " + ex + "/cumsum_surface.kir --envelope");
  INFO(c.out);
  CHECK(c.out.find("scan %prefix: 64 elements, envelope") != std::string::npos);
  CHECK(c.out.find("contract %proj: 32 elements, envelope") != std::string::npos);
  CHECK(c.out.find("canonical inside envelope: no") == std::string::npos);
  // without the flag: no envelope lines
  CHECK(kir_cmd("run " + ex + "/softmax.kir --dim M=3 --dim N=5").out.find("envelope:") == std::string::npos);
}

// ---- --check-laws and --policy atomics (issue 4 item 3; checklist L9.5, L16.1) ----

namespace {

// A kernel whose region_scan has prefix-sum helpers; `apply_op` is add (lawful) or mul.
std::string law_kernel(const std::string& apply_op) {
  return R"(fn @add(%a: i32, %b: i32) -> i32 {
  %r = add(%a, %b) : i32
  return(%r)
}

fn @summ(%x: i32[S]) -> i32 {
  %z = const() {value = 0} : i32
  %r = reduce(%x, %z) {axes = [0], combine = @add} : i32
  return(%r)
}

fn @apply(%t: i32, %s: i32) -> i32 {
  %r = )" + apply_op + R"((%s, %t) : i32
  return(%r)
}

fn @emit(%x: i32[S], %s: i32) -> i32[S] {
  %z = const() {value = 0} : i32
  %p = scan(%x, %z) {axis = 0, combine = @add} : i32[S]
  %sb = broadcast(%s) {dims = []} : i32[S]
  %r = add(%p, %sb) : i32[S]
  return(%r)
}

kernel @k(%x: In<i32[N]>, %o: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %r) : i32[N]
  %z = const() {value = 0} : i32
  %init = const() {value = 5} : i32
  %out, %final = region_scan(%v, %z, %init) {apply = @apply, axis = 0, combine = @add, emit = @emit, segments = [1, 1, 1, 0], summarize = @summ} : (i32[N], i32)
  view.store(%o, %r, %out)
}
)";
}

}  // namespace

TEST_CASE("[L9.5] kir run --check-laws passes a lawful region_scan and fails a wrong apply with exit 1", "[interp][cli][L9.5]") {
  auto d = tmp_dir("laws");
  {
    std::ofstream(d / "good.kir") << law_kernel("add");
    std::ofstream(d / "bad.kir") << law_kernel("mul");
  }
  auto good = kir_cmd("run " + (d / "good.kir").string() + " --dim N=6 --check-laws");
  INFO(good.out);
  CHECK(good.code == 0);
  CHECK(good.out.find("laws: ok (0 region_fold and 1 region_scan executions checked)") != std::string::npos);
  auto bad = kir_cmd("run " + (d / "bad.kir").string() + " --dim N=6 --check-laws");
  INFO(bad.out);
  CHECK(bad.code == 1);
  CHECK(bad.out.find("region_scan breaks the apply identity law") != std::string::npos);
  CHECK(bad.out.find("region_scan breaks the action composition law on segments [0, 1) [1, 2)") != std::string::npos);
  // Without the flag the same file runs (the whole segmentation) and exits 0.
  CHECK(kir_cmd("run " + (d / "bad.kir").string() + " --dim N=6").code == 0);
  std::filesystem::remove_all(d);
}

TEST_CASE("[L16.1] kir run --policy atomics=interleaved:SEED interleaves the atomics of a parallel", "[interp][cli][L16.1]") {
  auto d = tmp_dir("atomics");
  // seen[i] = the ticket point i drew from one atomic counter.
  std::ofstream(d / "tickets.kir") << R"(kernel @k(%seen: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%seen) {axis = 0} : index
  %dom = domain(%c0, %n) : domain<N>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  %zero = const() {value = 0} : i32
  %cnt = buffer.alloc(%zero) : buffer<i32[1]>
  parallel(%dom) region(%i: index) {
    %a = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %ri = relation(%i) : relation<1 -> []>
    view.store(%seen, %ri, %a)
    yield()
  }
}
)";
  const std::string base = "run " + (d / "tickets.kir").string() + " --dim N=8";
  auto seq = kir_cmd(base);
  INFO(seq.out);
  REQUIRE(seq.code == 0);
  CHECK(seq.out.find("%seen: i32[8] {0, 1, 2, 3, 4, 5, 6, 7}") != std::string::npos);
  auto a = kir_cmd(base + " --policy atomics=interleaved:3");
  auto b = kir_cmd(base + " --policy atomics=interleaved:3");
  INFO(a.out);
  CHECK(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.out.find("%seen: i32[8] {0, 1, 2, 3, 4, 5, 6, 7}") == std::string::npos);
  auto bad = kir_cmd(base + " --policy atomics=interleaved:x");
  CHECK(bad.code == 2);
  CHECK(bad.out.find("atomics=sequential|interleaved:SEED") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run exits 3 when an Out element was never written and names the view", "[interp][cli][L2.2]") {
  auto d = tmp_dir("partial");
  auto path = d / "partial.kir";
  std::ofstream(path) << "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                         "  %c0 = const() {value = 0} : index\n"
                         "  %r = relation(%c0) : relation<1 -> []>\n"
                         "  %v = view.load(%x, %r) : f32\n"
                         "  view.store(%y, %r, %v)\n"
                         "}\n";
  auto r = kir_cmd("run " + path.string() + " --dim N=3 --output " + (d / "out").string());
  INFO(r.out);
  CHECK(r.code == 3);
  CHECK(r.out.find("partial.kir:1:27: error: the kernel never wrote 2 of 3 elements of Out view %y (the first at (1)); "
                   "the result is incomplete and " + (d / "out" / "y.npy").string() + " holds 0 there") !=
        std::string::npos);
  // natively too: the interpreter's cross-check knows what the kernel wrote
  r = kir_cmd("run " + path.string() + " --dim N=3 --backend cpu");
  INFO(r.out);
  CHECK(r.code == 3);
  CHECK(r.out.find("the kernel never wrote 2 of 3 elements of Out view %y") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run rejects --dim and --input names the kernel does not have, with its names", "[interp][cli]") {
  auto d = tmp_dir("names");
  auto path = d / "k.kir";
  std::ofstream(path) << "kernel @k(%input: In<f32[Rows]>, %y: Out<f32[Rows]>) {\n"
                         "  %c0 = const() {value = 0} : index\n"
                         "  %r = relation(%c0) : relation<1 -> []>\n"
                         "  %v = view.load(%input, %r) : f32\n"
                         "  view.store(%y, %r, %v)\n"
                         "}\n";
  auto r = kir_cmd("run " + path.string() + " --dim rows=3");
  CHECK(r.code == 2);
  CHECK(r.out.find("kernel @k has no extent rows (did you mean Rows?) to set; its extents are Rows") != std::string::npos);
  r = kir_cmd("run " + path.string() + " --input inpt=random:1");
  CHECK(r.code == 2);
  CHECK(r.out.find("kernel @k has no parameter %inpt (did you mean input?); its inputs are %input") != std::string::npos);
  r = kir_cmd("run " + path.string() + " --input y=random:1");
  CHECK(r.code == 2);
  CHECK(r.out.find("%y is an Out view, which the kernel defines") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run hints at --break-on when an output holds NaN", "[interp][cli]") {
  auto d = tmp_dir("nanhint");
  auto path = d / "k.kir";
  std::ofstream(path) << "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                         "  %c0 = const() {value = 0} : index\n"
                         "  %n = dim(%x) {axis = 0} : index\n"
                         "  %dn = domain(%c0, %n) : domain<N>\n"
                         "  %i = indices(%dn) : index[N]\n"
                         "  %r = relation(%i) : relation<1 -> [N]>\n"
                         "  %v = view.load(%x, %r) : f32[N]\n"
                         "  %l = log(%v) : f32[N]\n"
                         "  view.store(%y, %r, %l)\n"
                         "}\n";
  auto r = kir_cmd("run " + path.string() + " --dim N=8 --seed 1");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("kir run: %y holds nan (first at (") != std::string::npos);
  CHECK(r.out.find("try --break-on nan to stop where it is produced") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run --expect compares an output with an expected .npy and prints the worst elements", "[interp][cli]") {
  auto d = tmp_dir("expect");
  const std::string sm = (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "softmax.kir").string();
  auto r = kir_cmd("run " + sm + " --output " + (d / "out").string());
  REQUIRE(r.code == 0);
  const std::string y = (d / "out" / "y.npy").string();
  r = kir_cmd("run " + sm + " --expect y=" + y);
  CHECK(r.code == 0);
  CHECK(r.out.find("expect: %y matches " + y + " (64 elements)") != std::string::npos);
  // one element off by one ulp: --ulps 1 accepts it, the default (bit for bit) does not
  auto t = interp::npy_to_tensor(interp::read_npy(y), DType::F32);
  t.bits[17] += 1;
  const std::string off = (d / "off.npy").string();
  interp::write_npy(off, DType::F32, t.shape, t.bits);
  r = kir_cmd("run " + sm + " --expect y=" + off);
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("kir run: %y differs from " + off + " at 1 of 64 elements (beyond 0 ulps); the worst:") != std::string::npos);
  CHECK(r.out.find("  %y(1, 1): got ") != std::string::npos);
  CHECK(r.out.find("(1 ulps)") != std::string::npos);
  r = kir_cmd("run " + sm + " --expect y=" + off + " --ulps 1");
  CHECK(r.code == 0);
  r = kir_cmd("run " + sm + " --expect z=" + y);
  CHECK(r.code == 2);
  CHECK(r.out.find("kernel @softmax has no output %z; its outputs are %y") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE("kir --version names the version; kir alone prints the usage and exits 2", "[interp][cli]") {
  auto r = kir_cmd("--version");
  CHECK(r.code == 0);
  CHECK(r.out.rfind("kir 0.1", 0) == 0);
  r = kir_cmd("");
  CHECK(r.code == 2);
  CHECK(r.out.find("Subcommands:") != std::string::npos);
}

TEST_CASE("kir run --json and kir verify --json print one machine-readable object", "[interp][cli]") {
  auto d = tmp_dir("json");
  auto path = d / "oob.kir";
  std::ofstream(path) << "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                         "  %c0 = const() {value = 0} : index\n"
                         "  %n = dim(%x) {axis = 0} : index\n"
                         "  %d = domain(%c0, %n) : domain<N>\n"
                         "  parallel(%d) region(%p: index) {\n"
                         "    %c1 = const() {value = 1} : index\n"
                         "    %q = add(%p, %c1) : index\n"
                         "    %r = relation(%q) : relation<1 -> []>\n"
                         "    %v = view.load(%x, %r) : f32\n"
                         "    %w = relation(%p) : relation<1 -> []>\n"
                         "    view.store(%y, %w, %v)\n"
                         "    yield()\n"
                         "  }\n"
                         "}\n";
  // stdout holds the JSON object; the human message (stderr, merged here) comes before it
  auto json_of = [](const std::string& out) {
    const size_t start = out.rfind('{', 0) == 0 ? 0 : out.find("\n{") + 1;
    return nlohmann::json::parse(out.substr(start));
  };
  auto r = kir_cmd("run " + path.string() + " --dim N=3 --json");
  CHECK(r.code == 1);
  auto j = json_of(r.out);
  CHECK(j["kernel"] == "k");
  CHECK(j["error"]["kind"] == "out-of-bounds");
  CHECK(j["error"]["op"] == "view.load");
  CHECK(j["error"]["loops"] == "parallel %p = 2");
  CHECK(j["status"] == 1);
  const std::string sm = (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "softmax.kir").string();
  r = kir_cmd("run " + sm + " --json");
  CHECK(r.code == 0);
  j = json_of(r.out);
  CHECK(j["outputs"]["y"]["dtype"] == "f32");
  CHECK(j["outputs"]["y"]["shape"] == nlohmann::json::array({4, 16}));
  CHECK(j["outputs"]["y"]["undefined"] == 0);
  CHECK(j["status"] == 0);
  auto bad = d / "bad.kir";
  std::ofstream(bad) << "kernel @k(%x: In<f32[N]>) {\n  %a = add(%x, %x) : f32[N]\n}\n";
  r = kir_cmd("verify " + bad.string() + " --json");
  CHECK(r.code == 1);
  j = json_of(r.out);
  CHECK(j["ok"] == false);
  REQUIRE(j["diagnostics"].size() >= 1);
  CHECK(j["diagnostics"][0]["line"] == 2);
  CHECK(!j["diagnostics"][0]["rule"].get<std::string>().empty());
  std::filesystem::remove_all(d);
}

TEST_CASE("--kernel takes a name with or without @ and lists the kernels when it is unknown", "[interp][cli]") {
  const std::string sm = (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "softmax.kir").string();
  CHECK(kir_cmd("run " + sm + " --kernel @softmax").code == 0);
  CHECK(kir_cmd("run " + sm + " --kernel softmax").code == 0);
  auto r = kir_cmd("run " + sm + " --kernel softmx");
  CHECK(r.code == 2);
  CHECK(r.out.find("no kernel @softmx in " + sm + " (did you mean softmax?); its kernels are @softmax") != std::string::npos);
}
