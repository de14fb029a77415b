// Task partition with outer blocking (checklist C1, C5): a top-level loop nest that writes
// each element of its outputs once (unique writes: a dense Compute's or an expansion's result
// loop) becomes explicit Tasks over blocks of its outermost loop — block size ceil(n / 64), the
// last block the tail — each task owning the rows of its block. The workset is the block
// range, the captures the buffers it reads, the outputs the buffers it writes; the runtime
// joins every task before the next statement. Small constant nests stay serial. `parallel` is
// already Tasks. Invalidates: loops, lifetimes.
#include "backends/cpu/passes/pass.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {

constexpr int64_t kMinParallelElements = 1 << 14;
constexpr int64_t kTasksPerLoop = 64;

// Product of the constant extents of the perfect nest under `l`; nullopt if one is dynamic.
std::optional<int64_t> const_work(const Stmt& l) {
  int64_t w = 1;
  const Stmt* cur = &l;
  while (cur && cur->kind == StmtKind::Loop) {
    auto lo = const_index(cur->lo), hi = const_index(cur->hi);
    if (!lo || !hi) return std::nullopt;
    w *= std::max<int64_t>(*hi - *lo, 0);
    cur = cur->body.size() == 1 ? cur->body[0].get() : nullptr;
  }
  return w;
}

void collect(const Stmt& s, std::vector<BufId>& reads, std::vector<BufId>& writes) {
  walk_stmts(s.body, [&](const Stmt& c) {
    for_each_expr(c, [&](const Expr& e) { loaded_buffers(e, reads); });
    if ((c.kind == StmtKind::Store || c.kind == StmtKind::Copy || c.kind == StmtKind::Compute ||
         c.kind == StmtKind::Kernel) &&
        std::find(writes.begin(), writes.end(), c.buf) == writes.end())
      writes.push_back(c.buf);
    if (c.kind == StmtKind::Copy && std::find(reads.begin(), reads.end(), c.src) == reads.end()) reads.push_back(c.src);
    // An atomic load only reads (it may address an In view); every other atomic writes.
    if (c.kind == StmtKind::Atomic) {
      auto& into = c.op.rfind("load", 0) == 0 ? reads : writes;
      if (std::find(into.begin(), into.end(), c.buf) == into.end()) into.push_back(c.buf);
    }
  });
}

void partition_list(Program& P, std::vector<StmtP>& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    Stmt& s = *list[i];
    if (s.kind == StmtKind::Block) {
      partition_list(P, s.body);
      continue;
    }
    if (s.kind != StmtKind::Loop || s.block != 0) continue;
    if (!s.unique_writes && !mutant_active(MutantId::TaskPartitionCarried)) continue;
    auto w = const_work(s);
    if (w && *w < kMinParallelElements) continue;
    ExprP n = index_sub(s.hi, s.lo);
    // blk = max(1, ceil(n / 64)); ntasks = ceil(n / blk)
    VarId blk = P.add_var(P.var(s.var).name + "_blk", DType::Index, VarRole::Let);
    auto lb = make_stmt(StmtKind::Let, s.op_id);
    lb->var = blk;
    // The config row's grain (rows per task) when it gives one.
    lb->value = P.task_grain > 0 ? make_index(P.task_grain)
                                 : make_binary("max", make_binary("floordiv", index_add(n, make_index(kTasksPerLoop - 1)),
                                                                  make_index(kTasksPerLoop)),
                                               make_index(1));
    ExprP B = make_var(blk, DType::Index);
    auto t = make_stmt(StmtKind::Tasks, s.op_id);
    t->var = P.add_var(P.var(s.var).name + "_task", DType::Index, VarRole::Task);
    t->lo = make_index(0);
    t->hi = make_binary("floordiv", index_add(n, index_sub(B, make_index(1))), B);
    if (mutant_active(MutantId::TaskTailDropped)) t->hi = make_binary("floordiv", n, B);
    t->step = make_index(1);
    t->unique_writes = true;
    ExprP first = index_add(s.lo, index_mul(make_var(t->var, DType::Index), B));
    StmtP loop = std::move(list[i]);
    loop->lo = first;
    loop->hi = index_min(index_add(first, B), loop->hi);
    loop->block = 0;
    collect(*loop, t->captures, t->outputs);
    for (BufId b : loop->outputs)
      if (std::find(t->outputs.begin(), t->outputs.end(), b) == t->outputs.end()) t->outputs.push_back(b);
    t->body.push_back(std::move(loop));
    list[i] = std::move(t);
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(i), std::move(lb));
    ++i;
    // Coverage (driver/coverage.h): how the rows split into tasks.
    const std::string op = s.op_id >= 0 ? P.ops[static_cast<size_t>(s.op_id)].name : std::string("loop");
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(i), cover_split(P, "partition/" + op, n, B));
    ++i;
  }
}

void fill_task_facts(std::vector<StmtP>& list) {
  walk_stmts(list, [](Stmt& s) {
    if (s.kind == StmtKind::Tasks && s.captures.empty() && s.outputs.empty()) collect(s, s.captures, s.outputs);
  });
}

}  // namespace

Pass task_partition_pass() {
  return {"task-partition", "loops formed; unique-write facts on result loops", {"loops", "lifetimes"},
          [](Program& P) {
            partition_list(P, P.body.body);
            fill_task_facts(P.body.body);
          }};
}

}  // namespace kir::cpu
