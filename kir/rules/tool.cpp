// Rule table, kir's own errors: reading a file, KIR syntax, a kernel's default invocation, and the
// CPU backend's compile errors and config rows.
#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

const Rule kRules[] = {
    {.id = "backend",
     .family = Family::Tool,
     .title = "the CPU backend cannot compile or run a kernel",
     .text = "The CPU backend (`kir compile`, `kir run --backend cpu`, `kir spec run --backend cpu`) reports\n"
             "a valid kernel it cannot turn into native code: a form it does not implement yet (the message\n"
             "says \"not implemented: ...\"; docs/backend.md lists them), or no config row that gives every\n"
             "computation of the kernel exactly one applicable implementation (the message gives each row's\n"
             "reason). The kernel itself is valid and runs in the interpreter; nothing is run natively\n"
             "instead of it, and no other implementation is substituted silently.",
     .example = "$ kir run argmax.kir --backend cpu\n"
                "argmax.kir:4:5: error[backend]: not implemented: `if` inside a combine helper on the CPU backend",
     .fix = "Run the kernel in the interpreter (without --backend cpu), write the computation with ops the\n"
            "backend implements (here a combine with select instead of if), or choose a config row that\n"
            "has an implementation for it (--row NAME, --config FILE)."},
    {.id = "config",
     .family = Family::Tool,
     .title = "a config rows file of the CPU backend is malformed",
     .text = "Config rows (backends/cpu/impl/config_rows.yaml, or the file given with --config or\n"
             "KIR_CPU_CONFIG) each hold the five shared outer bindings (task_m, task_n, mc, nc, kc), the\n"
             "local parameters of their implementations and an implementation set. Unknown keys, missing\n"
             "bindings, unknown implementations or parameters, values outside a parameter's domain and\n"
             "--row names that no row has are errors at the file's line and column.",
     .example = "rows:\n"
                "  - name: mine\n"
                "    shared: {task_m: 0, task_n: 0, mc: 144, nc: 4096, kc: 512}\n"
                "    local: {mr: 12, nv: 2, lanes: 64, block: 65536}\n"
                "    implementations: [contract.packed.fast]\n",
     .fix = "Use the implementation names and parameters `kir backend info` and docs/backend.md list (here\n"
            "contract.packed.avx512, plus one implementation for each other computation kind).",
     .fixed = "rows:\n"
              "  - name: mine\n"
              "    shared: {task_m: 0, task_n: 0, mc: 144, nc: 4096, kc: 512}\n"
              "    local: {mr: 12, nv: 2, lanes: 64, block: 65536}\n"
              "    implementations: [contract.packed.avx512, contract.packed_i8.avx512, contract.sequential,\n"
              "                      reduce.fold, reduce.lanes, scan.fold, quantize.q8k, quantized_dot.q4k_q8k,\n"
              "                      scaled_contract.sequential, sparse_contract.sequential, histogram.serial]\n"},
    {.id = "io",
     .family = Family::Tool,
     .title = "a file cannot be read",
     .text = "kir could not open or read a file named on the command line (or one a manifest or kernel\n"
             "file refers to). The message names the path as kir saw it, relative to the current directory.",
     .fix = "Check the path and its permissions; relative paths are taken from the current directory."},
    {.id = "syntax",
     .family = Family::Tool,
     .title = "KIR text does not parse",
     .text = "The KIR text breaks the grammar (docs/kir-text.md): a token is missing or unexpected. The\n"
             "location is the first token the parser could not accept; the message says what it expected\n"
             "there.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32) -> f32 {\n"
                "  %b = add(%a, %a : f32\n"
                "  return(%b)\n"
                "}\n",
     .fix = "Write what the message says is expected at the caret (here the ')' closing the operands).",
     .fixed = "fn @f(%a: f32) -> f32 {\n"
              "  %b = add(%a, %a) : f32\n"
              "  return(%b)\n"
              "}\n"},
    {.id = "invocation",
     .family = Family::Tool,
     .title = "a kernel's default invocation names no extent or gives no extent",
     .text = "A kernel may carry a default invocation, `invocation {M = 4, N = 16}`, which `kir run` uses\n"
             "for extents not given with --dim. Each key must be an extent symbol of one of the kernel's\n"
             "view parameters, and each value an integer extent in [0, 2^31]. Only kernels have an\n"
             "invocation; helpers (`fn`) are called, not invoked.",
     .lang = Lang::Kir,
     .example = "kernel @copy(%x: In<f32[N]>, %y: Out<f32[N]>) invocation {M = 4} {\n"
                "  %zero = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%zero, %n) : domain<N>\n"
                "  %i = indices(%d) : index[N]\n"
                "  %rel = relation(%i) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %rel) : f32[N]\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .fix = "Name the extent symbols of the parameters' shapes (here N).",
     .fixed = "kernel @copy(%x: In<f32[N]>, %y: Out<f32[N]>) invocation {N = 4} {\n"
              "  %zero = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%zero, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %rel = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %rel) : f32[N]\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},
};

}  // namespace

std::span<const Rule> tool_rules() { return kRules; }

}  // namespace kir::rules
