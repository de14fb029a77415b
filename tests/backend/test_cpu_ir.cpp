// The CPU IR, its printer and its verifier on hand-built programs. [C3]: the IR holds — and
// the dump shows — view facts, resource facts, task facts and structured ops with their
// accumulator and combine. [C13]: each verifier rule rejects a program breaking exactly that
// rule with a message naming it, accepts the fixed program, and never modifies the program.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "backends/cpu/ir/cpu_ir.h"
#include "backends/cpu/ir/printer.h"
#include "backends/cpu/ir/verifier.h"

using namespace kir;
using namespace kir::cpu;

namespace {

// A small softmax-like program touching every statement kind the verifier reasons about.
// Pre-order statement numbers (as in verifier messages) are given on the right.
struct Fixture {
  Program p;
  VarId M, N, alpha, c0, c1, c2, a, b, a2, t, i, j, r, k;
  BufId x, y, e, s, e2, q;
  Stmt *alloc_e, *compute, *alloc_s, *reduce, *tasks, *loop_i, *let_r, *loop_j, *check, *store, *if_j, *brk,
      *alloc_e2, *copy, *init_k, *loop_while, *assign, *if_k, *cont, *free_e2, *free_e, *free_s;

  ExprP v(VarId id) const { return make_var(id, p.var(id).dtype); }
  BufId buffer(const std::string& name, BufKind kind, DType d, std::vector<ExprP> shape) {
    Buffer buf;
    buf.name = name;
    buf.kind = kind;
    buf.dtype = d;
    buf.shape = std::move(shape);
    return p.add_buffer(std::move(buf));
  }
  static Stmt* add(std::vector<StmtP>& list, StmtP st) {
    list.push_back(std::move(st));
    return list.back().get();
  }
  static StmtP alloc_free(StmtKind kind, BufId buf) {
    auto st = make_stmt(kind);
    st->buf = buf;
    return st;
  }

  Fixture() {
    p.kernel = "softmax";
    p.symbols = {"M", "N"};
    M = p.add_var("M", DType::Index, VarRole::Symbol);
    N = p.add_var("N", DType::Index, VarRole::Symbol);
    p.var(M).param = 0;
    p.var(N).param = 1;
    alpha = p.add_var("alpha", DType::F32, VarRole::Scalar);
    p.var(alpha).param = 0;
    c0 = p.add_var("c0", DType::Index, VarRole::Loop);
    c1 = p.add_var("c1", DType::Index, VarRole::Loop);
    c2 = p.add_var("c2", DType::Index, VarRole::Loop);
    a = p.add_var("a", DType::F32, VarRole::Let);
    b = p.add_var("b", DType::F32, VarRole::Let);
    a2 = p.add_var("a2", DType::F32, VarRole::Let);
    t = p.add_var("t", DType::Index, VarRole::Task);
    i = p.add_var("i", DType::Index, VarRole::Loop);
    j = p.add_var("j", DType::Index, VarRole::Loop);
    r = p.add_var("r", DType::F32, VarRole::Let);
    k = p.add_var("k", DType::Index, VarRole::Carry);
    p.symbol_vars = {M, N};
    p.scalar_params = {alpha};

    x = buffer("x", BufKind::View, DType::F32, {v(M), v(N)});
    p.buf(x).param = 0;
    p.buf(x).access = Access::In;
    p.buf(x).extent_names = {"M", "N"};
    y = buffer("y", BufKind::View, DType::F32, {v(M), v(N)});
    p.buf(y).param = 1;
    p.buf(y).access = Access::Out;
    p.buf(y).extent_names = {"M", "N"};
    p.view_params = {x, y};
    e = buffer("e", BufKind::Local, DType::F32, {v(M), v(N)});
    s = buffer("s", BufKind::Local, DType::F32, {v(M)});
    e2 = buffer("e2", BufKind::Local, DType::F32, {v(M), v(N)});
    q = buffer("q", BufKind::Scratch, DType::I32, {v(M)});

    p.ops = {{"exp", "f.kir:3:5"}, {"reduce", "f.kir:4:5"}, {"div", "f.kir:5:5"}, {"store", "f.kir:6:5"}};
    auto& body = p.body.body;
    alloc_e = add(body, alloc_free(StmtKind::Alloc, e));  // 0
    {
      auto st = make_stmt(StmtKind::Compute, 0);  // 1
      st->buf = e;
      st->coords = {c0, c1};
      st->extents = {v(M), v(N)};
      st->value = make_math("exp", make_binary("sub", make_load(x, DType::F32, {v(c0), v(c1)}), v(alpha)));
      compute = add(body, std::move(st));
    }
    alloc_s = add(body, alloc_free(StmtKind::Alloc, s));  // 2
    {
      auto st = make_stmt(StmtKind::Structured, 1);  // 3
      auto op = std::make_shared<StructuredOp>();
      op->kind = "reduce";
      op->operands = {e};
      op->results = {s};
      op->attrs["axes"] = Attribute::int_list({1});
      op->acc = DType::F32;
      op->combine_lhs = {a};
      op->combine_rhs = {b};
      op->combine = {make_binary("add", v(a), v(b))};
      st->structured = op;
      reduce = add(body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::Tasks);  // 4
      st->var = t;
      st->hi = make_index(4);
      st->captures = {e, s};
      st->outputs = {y};
      st->unique_writes = true;
      tasks = add(body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::Loop);  // 5
      st->var = i;
      st->lo = v(t);
      st->hi = v(M);
      st->step = make_index(4);
      loop_i = add(tasks->body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::Let, 2);  // 6
      st->var = r;
      st->value = make_binary("div", make_const(DType::F32, 0x3f800000), make_load(s, DType::F32, {v(i)}), 2);
      let_r = add(loop_i->body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::Loop);  // 7
      st->var = j;
      st->lo = make_index(0);
      st->hi = v(N);
      st->step = make_index(1);
      st->block = 16;
      loop_j = add(loop_i->body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::Check, 3);  // 8
      st->value = make_compare("lt", v(j), v(N));
      st->fault = 3;
      st->index = {v(i), v(j)};
      st->detail = {v(j), v(N)};
      check = add(loop_j->body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::Store, 3);  // 9
      st->buf = y;
      st->index = {v(i), v(j)};
      st->value = make_binary("mul", make_load(e, DType::F32, {v(i), v(j)}), v(r));
      store = add(loop_j->body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::If);  // 10
      st->value = make_compare("ge", v(j), v(M));
      if_j = add(loop_j->body, std::move(st));
      brk = add(if_j->body, make_stmt(StmtKind::Break));  // 11
    }
    alloc_e2 = add(body, alloc_free(StmtKind::Alloc, e2));  // 12
    {
      auto st = make_stmt(StmtKind::Copy);  // 13
      st->buf = e2;
      st->src = e;
      copy = add(body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::Assign);  // 14
      st->var = k;
      st->value = make_index(0);
      init_k = add(body, std::move(st));
    }
    {
      auto st = make_stmt(StmtKind::While);  // 15
      st->value = make_compare("lt", v(k), make_index(3));
      loop_while = add(body, std::move(st));
      auto as = make_stmt(StmtKind::Assign);  // 16
      as->var = k;
      as->value = make_binary("add", v(k), make_index(1));
      assign = add(loop_while->body, std::move(as));
      auto cond = make_stmt(StmtKind::If);  // 17
      cond->value = make_compare("eq", v(k), make_index(2));
      if_k = add(loop_while->body, std::move(cond));
      cont = add(if_k->body, make_stmt(StmtKind::Continue));  // 18
    }
    free_e2 = add(body, alloc_free(StmtKind::Free, e2));  // 19
    free_e = add(body, alloc_free(StmtKind::Free, e));    // 20
    free_s = add(body, alloc_free(StmtKind::Free, s));    // 21
  }
};

std::string joined(const std::vector<std::string>& msgs) {
  std::string s;
  for (const auto& m : msgs) s += m + "\n";
  return s;
}

// The program is rejected, and every message names `rule` (so exactly that rule broke).
void rejected_for(const Program& p, const std::string& rule, const VerifyOptions& o = {}) {
  const auto msgs = verify(p, o);
  INFO(joined(msgs));
  REQUIRE(!msgs.empty());
  for (const auto& m : msgs) CHECK(m.find("[" + rule + "]") != std::string::npos);
}

void accepted(const Program& p, const VerifyOptions& o = {}) {
  const auto msgs = verify(p, o);
  INFO(joined(msgs));
  CHECK(msgs.empty());
}

const VerifyOptions kResources{true, true, true};

// Replace the Compute by the loop nest it stands for (what loop formation does).
void lower_compute(Fixture& f) {
  auto outer = make_stmt(StmtKind::Loop);
  outer->var = f.c0;
  outer->lo = make_index(0);
  outer->hi = f.v(f.M);
  outer->step = make_index(1);
  auto inner = make_stmt(StmtKind::Loop);
  inner->var = f.c1;
  inner->lo = make_index(0);
  inner->hi = f.v(f.N);
  inner->step = make_index(1);
  auto st = make_stmt(StmtKind::Store, 0);
  st->buf = f.e;
  st->index = {f.v(f.c0), f.v(f.c1)};
  st->value = f.compute->value;
  inner->body.push_back(std::move(st));
  outer->body.push_back(std::move(inner));
  f.p.body.body[1] = std::move(outer);
}

// Replace the Structured reduce by loops (what expansion does).
void expand_reduce(Fixture& f) {
  auto outer = make_stmt(StmtKind::Loop, 1);
  outer->var = f.c0;
  outer->lo = make_index(0);
  outer->hi = f.v(f.M);
  outer->step = make_index(1);
  auto init = make_stmt(StmtKind::Store, 1);
  init->buf = f.s;
  init->index = {f.v(f.c0)};
  init->value = make_const(DType::F32, 0);
  outer->body.push_back(std::move(init));
  auto inner = make_stmt(StmtKind::Loop, 1);
  inner->var = f.c1;
  inner->lo = make_index(0);
  inner->hi = f.v(f.N);
  inner->step = make_index(1);
  auto acc = make_stmt(StmtKind::Store, 1);
  acc->buf = f.s;
  acc->index = {f.v(f.c0)};
  acc->value = make_binary("add", make_load(f.s, DType::F32, {f.v(f.c0)}),
                           make_load(f.e, DType::F32, {f.v(f.c0), f.v(f.c1)}));
  inner->body.push_back(std::move(acc));
  outer->body.push_back(std::move(inner));
  f.p.body.body[3] = std::move(outer);
}

}  // namespace

// ---------------------------------------------------------------- C3: the IR and its dump

TEST_CASE("the CPU IR holds view, resource, task and structured facts and the dump shows them", "[C3]") {
  Fixture f;
  auto& x = f.p.buf(f.x);
  x.static_strides = std::vector<int64_t>{8, 1};
  x.static_offset = 0;
  f.p.buf(f.y).may_alias_outputs = true;
  auto& e = f.p.buf(f.e);
  e.align = 128;
  e.init = BufInit::Zero;
  e.first_use = 1;
  e.last_use = 13;
  f.p.buf(f.e2).reuses = f.q;
  f.p.buf(f.q).owner = "task";
  f.p.buf(f.q).dead = true;
  f.reduce->structured->implementation = "reduce.rows";
  f.reduce->structured->scalars = {make_const(DType::F32, 0)};
  f.reduce->structured->attrs["keep_dims"] = Attribute::boolean(false);
  f.reduce->structured->coords = {f.c2};
  f.reduce->structured->init = {make_const(DType::F32, 0)};

  // The facts are held by the IR itself ...
  CHECK(f.p.buf(f.x).static_strides == std::vector<int64_t>{8, 1});
  CHECK(f.p.buf(f.y).access == Access::Out);
  CHECK(f.p.buf(f.e).init == BufInit::Zero);
  CHECK(f.tasks->outputs == std::vector<BufId>{f.y});
  CHECK(f.reduce->structured->acc == DType::F32);
  CHECK(f.reduce->structured->combine.size() == 1);

  // ... and the dump shows all of them.
  const std::string golden =
      "cpu.program @softmax symbols(M, N) symbol-vars(%M, %N) views(%x#0, %y#1) scalars(%alpha)\n"
      "  view %x#0 : In f32[%M, %N] param 0 extents(M, N) strides(8, 1) offset(0)\n"
      "  view %y#1 : Out f32[%M, %N] param 1 extents(M, N) strides(dynamic) offset(dynamic) may-alias-outputs\n"
      "  local %e#2 : f32[%M, %N] align 128 init zero owner call lifetime [1, 13]\n"
      "  local %s#3 : f32[%M] align 64 init none owner call lifetime [-1, -1]\n"
      "  local %e2#4 : f32[%M, %N] align 64 init none owner call lifetime [-1, -1] reuses %q#5\n"
      "  scratch %q#5 : i32[%M] align 64 init none owner task lifetime [-1, -1] dead\n"
      "  var %M : index symbol param 0\n"
      "  var %N : index symbol param 1\n"
      "  var %alpha : f32 scalar param 0\n"
      "  var %c0 : index loop\n"
      "  var %c1 : index loop\n"
      "  var %c2 : index loop\n"
      "  var %a : f32 let\n"
      "  var %b : f32 let\n"
      "  var %a2 : f32 let\n"
      "  var %t : index task\n"
      "  var %i : index loop\n"
      "  var %j : index loop\n"
      "  var %r : f32 let\n"
      "  var %k : index carry\n"
      "  origin 0 exp at f.kir:3:5\n"
      "  origin 1 reduce at f.kir:4:5\n"
      "  origin 2 div at f.kir:5:5\n"
      "  origin 3 store at f.kir:6:5\n"
      "body:\n"
      "  alloc %e#2\n"
      "  compute %e#2[%c0, %c1] extents [%M, %N] = exp.f32(sub.f32(load %x#0[%c0, %c1], %alpha))   // op 0 (exp at f.kir:3:5)\n"
      "  alloc %s#3\n"
      "  structured reduce(%e#2; 0:f32) -> (%s#3) acc f32 impl \"reduce.rows\" attrs {axes = [1], keep_dims = false}"
      " combine(%a, %b) = add.f32(%a, %b) init(%c2) = [0:f32]   // op 1 (reduce at f.kir:4:5)\n"
      "  tasks %t < 4 captures(%e#2, %s#3) outputs(%y#1) unique-writes {\n"
      "    loop %i = %t to %M step 4 {\n"
      "      let %r = div.f32{op 2}(1:f32, load %s#3[%i])   // op 2 (div at f.kir:5:5)\n"
      "      loop %j = 0 to %N step 1 block 16 {\n"
      "        check lt.index(%j, %N) fault 3 at [%i, %j] detail(%j, %N)   // op 3 (store at f.kir:6:5)\n"
      "        store %y#1[%i, %j] = mul.f32(load %e#2[%i, %j], %r)   // op 3 (store at f.kir:6:5)\n"
      "        if ge.index(%j, %M) {\n"
      "          break\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  alloc %e2#4\n"
      "  copy %e2#4 = %e#2\n"
      "  assign %k = 0\n"
      "  while lt.index(%k, 3) {\n"
      "    assign %k = add.index(%k, 1)\n"
      "    if eq.index(%k, 2) {\n"
      "      continue\n"
      "    }\n"
      "  }\n"
      "  free %e2#4\n"
      "  free %e#2\n"
      "  free %s#3\n";
  CHECK(print(f.p) == golden);
}

TEST_CASE("the dump spells constants by dtype and control forms completely", "[C3]") {
  Fixture f;
  const Program& p = f.p;
  CHECK(print_expr(p, *make_index(-3)) == "-3");
  CHECK(print_expr(p, *make_const(DType::F32, 0x3fc00000)) == "1.5:f32");
  CHECK(print_expr(p, *make_const(DType::F64, 0x8000000000000000ull)) == "-0:f64");
  CHECK(print_expr(p, *make_const(DType::F16, 0x7c00)) == "inf:f16");
  CHECK(print_expr(p, *make_const(DType::F32, 0x7fc00001)) == "0x7fc00001:f32");  // NaN payload kept
  CHECK(print_expr(p, *make_const(DType::I32, 0xffffffff)) == "-1:i32");
  CHECK(print_expr(p, *make_const(DType::U8, 200)) == "200:u8");
  CHECK(print_expr(p, *make_const(DType::Bool, 1)) == "true");
  CHECK(print_expr(p, *make_cast(f.v(f.r), DType::I32, 2)) == "cast.f32->i32{op 2}(%r)");
  CHECK(print_expr(p, *make_bitcast(f.v(f.r), DType::U32)) == "bitcast.f32->u32(%r)");
  CHECK(print_expr(p, *make_select(make_compare("lt", f.v(f.i), f.v(f.j)), f.v(f.a), f.v(f.b))) ==
        "select.f32(lt.index(%i, %j), %a, %b)");
  CHECK(print_expr(p, *make_view_dim(f.x, 1)) == "dim(%x#0, 1)");
  CHECK(print_expr(p, *make_unary("neg", f.v(f.alpha))) == "neg.f32(%alpha)");

  // Repeated variable names get their ids.
  Program q = Program();
  const VarId i0 = q.add_var("i", DType::Index, VarRole::Loop);
  const VarId i1 = q.add_var("i", DType::Index, VarRole::Loop);
  CHECK(print_expr(q, *index_add(make_var(i0, DType::Index), make_var(i1, DType::Index))) == "add.index(%i#0, %i#1)");

  // do-while, if/else, multi-component combine, a Tasks with bounds and no facts.
  Program w;
  w.kernel = "w";
  const VarId n = w.add_var("n", DType::I32, VarRole::Carry);
  const VarId u = w.add_var("u", DType::Index, VarRole::Task);
  auto dw = make_stmt(StmtKind::While);
  dw->cond_first = false;
  dw->value = make_compare("lt", make_var(n, DType::I32), make_const(DType::I32, 7));
  auto ife = make_stmt(StmtKind::If);
  ife->value = make_const(DType::Bool, 0);
  ife->body.push_back(make_stmt(StmtKind::Break));
  ife->orelse.push_back(make_stmt(StmtKind::Continue));
  dw->body.push_back(std::move(ife));
  w.body.body.push_back(std::move(dw));
  auto ts = make_stmt(StmtKind::Tasks);
  ts->var = u;
  ts->hi = make_index(2);
  auto so = make_stmt(StmtKind::Structured);
  so->structured = std::make_shared<StructuredOp>();
  so->structured->kind = "argmax";
  so->structured->acc = DType::F64;
  so->structured->combine_lhs = {n, u};
  so->structured->combine_rhs = {u, n};
  so->structured->combine = {make_var(n, DType::I32), make_var(u, DType::Index)};
  ts->body.push_back(std::move(so));
  w.body.body.push_back(std::move(ts));
  CHECK(print(w) ==
        "cpu.program @w symbols()\n"
        "  var %n : i32 carry\n"
        "  var %u : index task\n"
        "body:\n"
        "  do {\n"
        "    if false {\n"
        "      break\n"
        "    } else {\n"
        "      continue\n"
        "    }\n"
        "  } while lt.i32(%n, 7:i32)\n"
        "  tasks %u < 2 captures() outputs() {\n"
        "    structured argmax() -> () acc f64 impl \"\" combine([%n, %u], [%u, %n]) = [%n, %u]\n"
        "  }\n");
}

// ---------------------------------------------------------------- C13: the verifier

TEST_CASE("verifier: the fixture is valid under every option set", "[C13]") {
  Fixture f;
  accepted(f.p);
  accepted(f.p, kResources);
}

TEST_CASE("verifier: messages name statement, op, location and rule", "[C13]") {
  Fixture f;
  f.check->fault = 0;
  CHECK(verify(f.p) ==
        std::vector<std::string>{"stmt 8 (op 3 `store` at f.kir:6:5): [check] Check has fault code 0"});
}

TEST_CASE("verifier rule scope: variables are used only where they are defined", "[C13]") {
  Fixture f;
  const ExprP kept = f.init_k->value;
  SECTION("a loop variable after its loop") { f.init_k->value = f.v(f.i); }
  SECTION("a task variable outside its Tasks") { f.init_k->value = f.v(f.t); }
  SECTION("a Compute coordinate outside its value") { f.init_k->value = f.v(f.c0); }
  SECTION("a combine variable outside its combine") { f.init_k->value = make_cast(f.v(f.a), DType::Index); }
  SECTION("a Let variable after its block") { f.init_k->value = make_cast(f.v(f.r), DType::Index); }
  rejected_for(f.p, "scope");
  f.init_k->value = kept;
  accepted(f.p);
}

TEST_CASE("verifier rule scope: Let variables are defined once, before use", "[C13]") {
  Fixture f;
  SECTION("used in its own Let") {
    const ExprP kept = f.let_r->value;
    f.let_r->value = make_binary("add", f.v(f.r), kept);
    rejected_for(f.p, "scope");
    f.let_r->value = kept;
  }
  SECTION("defined twice") {
    auto again = make_stmt(StmtKind::Let);
    again->var = f.r;
    again->value = f.let_r->value;
    f.loop_j->body.push_back(std::move(again));
    rejected_for(f.p, "scope");
    f.loop_j->body.pop_back();
  }
  SECTION("a buffer's extents where it is allocated") {
    f.p.buf(f.e2).shape[0] = make_cast(f.v(f.r), DType::Index);
    rejected_for(f.p, "scope");
    f.p.buf(f.e2).shape[0] = f.v(f.M);
  }
  accepted(f.p);
}

TEST_CASE("verifier rule role: Let binds a Let variable, Assign updates a Carry", "[C13]") {
  Fixture f;
  SECTION("Assign") {
    f.assign->var = f.j;
    rejected_for(f.p, "role");
    f.assign->var = f.k;
  }
  SECTION("Let") {
    f.p.var(f.r).role = VarRole::Carry;
    rejected_for(f.p, "role");
    f.p.var(f.r).role = VarRole::Let;
  }
  accepted(f.p);
}

TEST_CASE("verifier rule var: every variable exists", "[C13]") {
  Fixture f;
  f.init_k->value = make_var(99, DType::Index);
  rejected_for(f.p, "var");
  f.init_k->value = make_index(0);
  accepted(f.p);
}

TEST_CASE("verifier rule buffer: referenced buffers exist and are not dead", "[C13]") {
  Fixture f;
  SECTION("dead") {
    f.p.buf(f.e2).dead = true;
    rejected_for(f.p, "buffer");
    f.p.buf(f.e2).dead = false;
  }
  SECTION("missing") {
    f.copy->src = 42;
    rejected_for(f.p, "buffer");
    f.copy->src = f.e;
  }
  accepted(f.p);
}

TEST_CASE("verifier rule load: one integer index per axis", "[C13]") {
  Fixture f;
  const ExprP kept = f.store->value;
  SECTION("too few indices") {
    f.store->value = make_binary("mul", make_load(f.e, DType::F32, {f.v(f.i)}), f.v(f.r));
  }
  SECTION("a float index") {
    f.store->value = make_binary("mul", make_load(f.e, DType::F32, {f.v(f.i), make_const(DType::F32, 0)}), f.v(f.r));
  }
  rejected_for(f.p, "load");
  f.store->value = kept;
  accepted(f.p);
}

TEST_CASE("verifier rule view-dim: extents of views only, axis below rank", "[C13]") {
  Fixture f;
  SECTION("axis out of range") { f.loop_j->hi = make_view_dim(f.y, 2); }
  SECTION("not a view") { f.loop_j->hi = make_view_dim(f.e, 1); }
  rejected_for(f.p, "view-dim");
  f.loop_j->hi = make_view_dim(f.y, 1);
  accepted(f.p);
}

TEST_CASE("verifier rule dtype: operand dtypes are consistent", "[C13]") {
  Fixture f;
  const ExprP kept = f.let_r->value;
  const ExprP one = make_const(DType::F32, 0x3f800000);
  SECTION("binary operands differ") {
    f.let_r->value = make_binary("add", one, make_const(DType::F64, 0));
  }
  SECTION("compare operand is not of the compared dtype") {
    auto c = std::make_shared<Expr>(*make_compare("lt", one, one));
    c->from = DType::F64;
    f.let_r->value = make_select(c, one, one);
  }
  SECTION("select condition is not bool") {
    f.let_r->value = make_select(one, one, one);
  }
  SECTION("select arms differ") {
    f.let_r->value = make_select(make_const(DType::Bool, 1), one, make_const(DType::F64, 0));
  }
  SECTION("cast operand is not its source dtype") {
    auto c = std::make_shared<Expr>(*make_cast(make_index(1), DType::F32));
    c->from = DType::I32;
    f.let_r->value = c;
  }
  SECTION("math on an integer") {
    f.let_r->value = make_cast(make_math("exp", make_index(1)), DType::F32);
  }
  SECTION("unary operand differs from its result") {
    auto u = std::make_shared<Expr>(*make_unary("neg", make_const(DType::F64, 0)));
    u->dtype = DType::F32;
    f.let_r->value = u;
  }
  rejected_for(f.p, "dtype");
  f.let_r->value = kept;
  accepted(f.p);
}

TEST_CASE("verifier rules arity, op, const: well-formed expression nodes", "[C13]") {
  Fixture f;
  const ExprP kept = f.let_r->value;
  const ExprP one = make_const(DType::F32, 0x3f800000);
  auto broken = std::make_shared<Expr>(*make_binary("add", one, one));
  std::string rule;
  SECTION("arity") {
    broken->args.pop_back();
    rule = "arity";
  }
  SECTION("op") {
    broken->op = "fma";
    rule = "op";
  }
  SECTION("math function") {
    auto m = std::make_shared<Expr>(*make_math("exp", one));
    m->op = "expo";
    broken->args[1] = m;
    rule = "op";
  }
  SECTION("const") {
    broken->args[1] = make_const(DType::F32, 0x100000000ull);
    rule = "const";
  }
  f.let_r->value = broken;
  rejected_for(f.p, rule);
  f.let_r->value = kept;
  accepted(f.p);
}

TEST_CASE("verifier rule value-dtype: stored and bound values have the target's dtype", "[C13]") {
  Fixture f;
  SECTION("Store") {
    const ExprP kept = f.store->value;
    f.store->value = make_cast(kept, DType::F64);
    rejected_for(f.p, "value-dtype");
    f.store->value = kept;
  }
  SECTION("Compute") {
    const ExprP kept = f.compute->value;
    f.compute->value = make_cast(kept, DType::F16);
    rejected_for(f.p, "value-dtype");
    f.compute->value = kept;
  }
  SECTION("Let") {
    const ExprP kept = f.let_r->value;
    f.let_r->value = make_cast(kept, DType::F64);
    rejected_for(f.p, "value-dtype");
    f.let_r->value = kept;
  }
  SECTION("Assign") {
    const ExprP kept = f.init_k->value;
    f.init_k->value = make_const(DType::I64, 0);
    rejected_for(f.p, "value-dtype");
    f.init_k->value = kept;
  }
  accepted(f.p);
}

TEST_CASE("verifier rule store: one integer index per axis", "[C13]") {
  Fixture f;
  SECTION("count") { f.store->index.pop_back(); }
  SECTION("dtype") { f.store->index[1] = make_const(DType::F32, 0); }
  rejected_for(f.p, "store");
  f.store->index = {f.v(f.i), f.v(f.j)};
  accepted(f.p);
}

TEST_CASE("verifier rule access: nothing writes into an In view", "[C13]") {
  Fixture f;
  SECTION("Copy") {
    f.copy->buf = f.x;
    rejected_for(f.p, "access");
    f.copy->buf = f.e2;
  }
  SECTION("Compute") {
    f.compute->buf = f.x;
    f.compute->value = make_load(f.y, DType::F32, {f.v(f.c0), f.v(f.c1)});
    rejected_for(f.p, "access");
    f.compute->buf = f.e;
  }
  accepted(f.p);
}

TEST_CASE("verifier rule compute: one coordinate per axis", "[C13]") {
  Fixture f;
  f.compute->coords.push_back(f.c2);
  rejected_for(f.p, "compute");
  f.compute->coords.pop_back();
  accepted(f.p);
}

TEST_CASE("verifier rule control: Break/Continue only inside a loop of the same task", "[C13]") {
  Fixture f;
  SECTION("at the top level") {
    f.p.body.body.push_back(make_stmt(StmtKind::Continue));
    rejected_for(f.p, "control");
    f.p.body.body.pop_back();
  }
  SECTION("across a Tasks boundary") {
    auto inner = make_stmt(StmtKind::Tasks);
    inner->var = f.t;
    inner->hi = make_index(2);
    inner->body = std::move(f.if_j->body);
    f.if_j->body.clear();
    f.if_j->body.push_back(std::move(inner));
    rejected_for(f.p, "control");
    auto restored = std::move(f.if_j->body[0]->body);
    f.if_j->body = std::move(restored);
  }
  accepted(f.p);
}

TEST_CASE("verifier rule tasks: count, outputs and captures", "[C13]") {
  Fixture f;
  SECTION("no count") {
    f.tasks->hi = nullptr;
    rejected_for(f.p, "tasks");
    f.tasks->hi = make_index(4);
  }
  SECTION("a written buffer is not an output") {
    f.tasks->outputs.clear();
    rejected_for(f.p, "tasks");
    f.tasks->outputs = {f.y};
  }
  SECTION("a read buffer is not captured") {
    f.tasks->captures = {f.e};
    rejected_for(f.p, "tasks");
    f.tasks->captures = {f.e, f.s};
  }
  SECTION("storage allocated inside the body needs neither") {
    auto& tb = f.loop_j->body;
    tb.insert(tb.begin(), Fixture::alloc_free(StmtKind::Alloc, f.q));
    auto st = make_stmt(StmtKind::Store);
    st->buf = f.q;
    st->index = {make_load(f.q, DType::I32, {f.v(f.i)})};
    st->value = make_const(DType::I32, 0);
    tb.push_back(std::move(st));
    tb.push_back(Fixture::alloc_free(StmtKind::Free, f.q));
    accepted(f.p, kResources);
  }
  accepted(f.p);
}

TEST_CASE("verifier rule check: fault code and bool condition", "[C13]") {
  Fixture f;
  SECTION("fault code 0") {
    f.check->fault = 0;
    rejected_for(f.p, "check");
    f.check->fault = 3;
  }
  SECTION("condition not bool") {
    const ExprP kept = f.check->value;
    f.check->value = f.v(f.j);
    rejected_for(f.p, "check");
    f.check->value = kept;
  }
  accepted(f.p);
}

TEST_CASE("verifier rule cond: If/While conditions are bool", "[C13]") {
  Fixture f;
  const ExprP kept = f.loop_while->value;
  f.loop_while->value = f.v(f.k);
  rejected_for(f.p, "cond");
  f.loop_while->value = kept;
  accepted(f.p);
}

TEST_CASE("verifier rule no-compute: no Compute remains once loops are formed", "[C13]") {
  Fixture f;
  const VerifyOptions loops{false, true, false};
  rejected_for(f.p, "no-compute", loops);
  lower_compute(f);
  accepted(f.p, loops);
}

TEST_CASE("verifier rule no-structured: nothing is left as a side recipe after expansion (C7)", "[C13]") {
  Fixture f;
  const VerifyOptions expanded{true, false, true};
  rejected_for(f.p, "no-structured", expanded);
  expand_reduce(f);
  accepted(f.p, expanded);
}

TEST_CASE("verifier rule structured: combine variables match its components", "[C13]") {
  Fixture f;
  f.reduce->structured->combine_lhs.push_back(f.a2);
  rejected_for(f.p, "structured");
  f.reduce->structured->combine_lhs.pop_back();
  accepted(f.p);
}

TEST_CASE("verifier rule resources: Alloc before the first use, Free after the last", "[C13]") {
  Fixture f;
  auto& body = f.p.body.body;
  SECTION("no Alloc") {
    StmtP kept = std::move(body[5]);  // alloc e2 (top-level index 5)
    body.erase(body.begin() + 5);
    rejected_for(f.p, "resources", kResources);
    accepted(f.p);  // the rule applies only after resource planning
    body.insert(body.begin() + 5, std::move(kept));
  }
  SECTION("no Free") {
    StmtP kept = std::move(body[10]);  // free e
    body.erase(body.begin() + 10);
    rejected_for(f.p, "resources", kResources);
    body.insert(body.begin() + 10, std::move(kept));
  }
  SECTION("used after its Free") {
    std::swap(body[6], body[9]);  // free e2 before copy e2 = e
    rejected_for(f.p, "resources", kResources);
    std::swap(body[6], body[9]);
  }
  SECTION("Alloc of a view") {
    f.alloc_e->buf = f.x;
    rejected_for(f.p, "resources");
    f.alloc_e->buf = f.e;
  }
  accepted(f.p, kResources);
}

TEST_CASE("verifier rule copy: same dtype and rank", "[C13]") {
  Fixture f;
  f.copy->src = f.q;
  rejected_for(f.p, "copy");
  f.copy->src = f.e;
  accepted(f.p);
}

TEST_CASE("verifier rule loop: integer bounds, positive step, block >= 0", "[C13]") {
  Fixture f;
  SECTION("negative block") { f.loop_j->block = -1; }
  SECTION("float bound") { f.loop_j->lo = make_const(DType::F32, 0); }
  SECTION("zero step") { f.loop_j->step = make_index(0); }
  SECTION("missing bound") { f.loop_j->hi = nullptr; }
  rejected_for(f.p, "loop");
  f.loop_j->block = 16;
  f.loop_j->lo = make_index(0);
  f.loop_j->step = make_index(1);
  f.loop_j->hi = f.v(f.N);
  accepted(f.p);
}

TEST_CASE("verifier rule view: view facts agree with the rank and parameter order", "[C13]") {
  Fixture f;
  SECTION("extent names") {
    f.p.buf(f.x).extent_names = {"M"};
    rejected_for(f.p, "view");
    f.p.buf(f.x).extent_names = {"M", "N"};
  }
  SECTION("parameter order") {
    f.p.view_params = {f.y, f.x};
    rejected_for(f.p, "view");
    f.p.view_params = {f.x, f.y};
  }
  accepted(f.p);
}

TEST_CASE("verifier never modifies the program", "[C13]") {
  Fixture f;
  const std::string before = print(f.p);
  (void)verify(f.p, kResources);
  CHECK(print(f.p) == before);
  // Also on a broken program, where every structural walk reports.
  f.tasks->outputs.clear();
  f.p.body.body.push_back(make_stmt(StmtKind::Break));
  f.compute->coords.push_back(f.c2);
  const std::string broken = print(f.p);
  CHECK(!verify(f.p, VerifyOptions{false, false, true}).empty());
  CHECK(print(f.p) == broken);
}

TEST_CASE("verify_or_throw names the pass", "[C13]") {
  Fixture f;
  REQUIRE_NOTHROW(verify_or_throw(f.p, {}, "fuse"));
  f.check->fault = 0;
  try {
    verify_or_throw(f.p, {}, "fuse");
    FAIL("no exception");
  } catch (const std::logic_error& ex) {
    const std::string what = ex.what();
    CHECK(what.find("after pass `fuse`") != std::string::npos);
    CHECK(what.find("[check] Check has fault code 0") != std::string::npos);
  }
}

TEST_CASE("scattering Computes and guarded Stores are held and shown", "[C3]") {
  Fixture f;
  // e[c0, N - 1 - c1] = x[c0, c1] where c1 < N (a view.store through a relation with validity).
  auto sc = make_stmt(StmtKind::Compute, 0);
  sc->buf = f.e;
  sc->coords = {f.c0, f.c1};
  sc->extents = {f.v(f.M), f.v(f.N)};
  sc->index = {f.v(f.c0), index_sub(index_sub(f.v(f.N), make_index(1)), f.v(f.c1))};
  sc->guard = make_compare("lt", f.v(f.c1), f.v(f.N));
  sc->value = make_load(f.x, DType::F32, {f.v(f.c0), f.v(f.c1)});
  Stmt* scatter = sc.get();
  f.p.body.body[1] = std::move(sc);
  f.store->guard = make_compare("le", f.v(f.j), f.v(f.i));
  const std::string text = print(f.p);
  CHECK(text.find("\n  compute %e#2[%c0, sub.index(sub.index(%N, 1), %c1)] for (%c0, %c1) extents [%M, %N]"
                  " where lt.index(%c1, %N) = load %x#0[%c0, %c1]   // op 0 (exp at f.kir:3:5)\n") != std::string::npos);
  CHECK(text.find("\n        store %y#1[%i, %j] where le.index(%j, %i) = mul.f32(load %e#2[%i, %j], %r)") !=
        std::string::npos);
  accepted(f.p, kResources);

  // [C13] the scatter form has its own shape rules, and guards are conditions.
  SECTION("index count") {
    scatter->index.pop_back();
    rejected_for(f.p, "compute");
  }
  SECTION("extents per coordinate") {
    scatter->extents.pop_back();
    rejected_for(f.p, "compute");
  }
  SECTION("guard") {
    scatter->guard = f.v(f.c0);
    rejected_for(f.p, "cond");
  }
  SECTION("guard coordinates in scope only inside the Compute") {
    f.store->guard = make_compare("lt", f.v(f.c1), f.v(f.N));
    rejected_for(f.p, "scope");
  }
}

TEST_CASE("verifier rule tasks: facts are required once resources are planned", "[C13]") {
  Fixture f;
  f.tasks->captures.clear();
  f.tasks->outputs.clear();
  accepted(f.p);  // `parallel` before task partition: facts not derived yet
  rejected_for(f.p, "tasks", kResources);
}
