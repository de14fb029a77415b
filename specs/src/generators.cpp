// Implementations of the generator set (see generators.h and docs/manifests.md).
#include "specs/src/generators.h"

#include <algorithm>

namespace kir::specs {

uint32_t crc32(const std::string& s) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char ch : s) {
    c ^= ch;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}

PyRandom seeded_random(const std::string& key, uint32_t seed) {
  return PyRandom(mpz_class(static_cast<unsigned long>(seed ^ crc32(key))));
}

namespace {

using Args = std::vector<Value>;

std::vector<mpz_class> seq_arg(const Value& v, const std::string& what, bool nonneg = true) {
  auto xs = to_ints(v, what);
  if (nonneg)
    for (const auto& x : xs)
      if (x < 0) throw EvalError(what + " must hold only values >= 0, got " + v.repr());
  return xs;
}

long int_arg(const Value& v, const std::string& what) {
  if (!v.is_int()) throw EvalError(what + " must be an integer, got " + v.repr());
  return to_i64(v.i, what);
}

void check_total(mpz_class n, const std::string& gen) {
  if (n > static_cast<unsigned long>(kMaxSeqLen)) throw EvalError(gen + ": result of " + n.get_str() + " elements is too large");
}

Value row(std::initializer_list<long> xs) {
  std::vector<Value> r;
  for (long x : xs) r.push_back(Value::integer(static_cast<long>(x)));
  return Value::sequence(std::move(r));
}

Value gen_as_tensor(const Args& a, PyRandom&) { return Value::ints(seq_arg(a[0], "as_tensor argument")); }

Value gen_prefix_sum(const Args& a, PyRandom&) {
  auto L = seq_arg(a[0], "prefix_sum argument");
  std::vector<mpz_class> out{0};
  for (const auto& x : L) out.push_back(out.back() + x);
  return Value::ints(out);
}

Value gen_exclusive_prefix_sum(const Args& a, PyRandom&) {
  auto L = seq_arg(a[0], "exclusive_prefix_sum argument");
  if (L.empty()) throw EvalError("exclusive_prefix_sum: the list must be non-empty");
  std::vector<mpz_class> out;
  mpz_class s = 0;
  for (const auto& x : L) { out.push_back(s); s += x; }
  return Value::ints(out);
}

Value gen_chunk_indices(const Args& a, PyRandom&) {
  auto L = seq_arg(a[0], "chunk_indices lengths");
  long c = int_arg(a[1], "chunk_indices chunk size");
  if (c <= 0) throw EvalError("chunk_indices: chunk size must be > 0, got " + std::to_string(c));
  mpz_class total = 0;
  for (const auto& n : L) total += (n + c - 1) / c;
  check_total(total * 2, "chunk_indices");
  std::vector<Value> rows;
  for (size_t i = 0; i < L.size(); ++i) {
    long chunks = mpz_class((L[i] + c - 1) / c).get_si();
    for (long j = 0; j < chunks; ++j) rows.push_back(row({static_cast<long>(i), j}));
  }
  return Value::sequence(std::move(rows));
}

std::vector<mpz_class> positive_lengths(const Value& v, const std::string& gen) {
  auto L = seq_arg(v, gen + " lengths");
  if (L.empty()) throw EvalError(gen + ": the lengths must be non-empty");
  mpz_class total = 0;
  for (const auto& n : L) {
    if (n <= 0) throw EvalError(gen + ": every length must be > 0, got " + v.repr());
    total += n;
  }
  check_total(total * 2, gen);
  return L;
}

Value gen_token_indices(const Args& a, PyRandom&) {
  auto L = positive_lengths(a[0], "token_indices");
  std::vector<Value> rows;
  for (size_t i = 0; i < L.size(); ++i)
    for (long j = 0; j < L[i].get_si(); ++j) rows.push_back(row({static_cast<long>(i), j}));
  return Value::sequence(std::move(rows));
}

Value gen_packed_positions(const Args& a, PyRandom&) {
  auto L = positive_lengths(a[0], "packed_positions");
  std::vector<mpz_class> out;
  for (const auto& n : L)
    for (long j = 0; j < n.get_si(); ++j) out.push_back(j);
  return Value::ints(out);
}

Value gen_chunk_offsets(const Args& a, PyRandom&) {
  auto L = seq_arg(a[0], "chunk_offsets lengths");
  long c = int_arg(a[1], "chunk_offsets chunk size");
  if (c <= 0) throw EvalError("chunk_offsets: chunk size must be > 0, got " + std::to_string(c));
  std::vector<mpz_class> out{0};
  for (const auto& n : L) out.push_back(out.back() + (n + c - 1) / c);
  return Value::ints(out);
}

Value gen_paged_block_table(const Args& a, PyRandom& rng) {
  long B = int_arg(a[0], "paged_block_table B"), W = int_arg(a[1], "paged_block_table W"),
            pool = int_arg(a[2], "paged_block_table pool");
  if (B < 0) throw EvalError("paged_block_table: B must be >= 0");
  if (!(W > 0 && W <= pool)) throw EvalError("paged_block_table: needs 0 < W <= pool, got W=" + std::to_string(W) + ", pool=" + std::to_string(pool));
  check_total(mpz_class(static_cast<long>(B)) * W, "paged_block_table");
  std::vector<Value> rows;
  if (pool >= B * W) {
    auto pages = rng.sample_range(static_cast<uint64_t>(pool), static_cast<uint64_t>(B * W));
    for (long b = 0; b < B; ++b) {
      std::vector<Value> r;
      for (long w = 0; w < W; ++w) r.push_back(Value::integer(static_cast<long>(pages[static_cast<size_t>(b * W + w)])));
      rows.push_back(Value::sequence(std::move(r)));
    }
  } else {
    for (long b = 0; b < B; ++b) {
      std::vector<Value> r;
      for (auto p : rng.sample_range(static_cast<uint64_t>(pool), static_cast<uint64_t>(W))) r.push_back(Value::integer(static_cast<long>(p)));
      rows.push_back(Value::sequence(std::move(r)));
    }
  }
  return Value::sequence(std::move(rows));
}

Value gen_nsa_block_indices(const Args& a, PyRandom& rng) {
  auto L = seq_arg(a[0], "nsa_block_indices lengths");
  long bs = int_arg(a[1], "block size"), sel = int_arg(a[2], "selected blocks"), H = int_arg(a[3], "Hkv");
  if (bs <= 0 || sel <= 0 || H <= 0) throw EvalError("nsa_block_indices: block size, selected blocks and Hkv must be > 0");
  mpz_class total = 0;
  for (const auto& n : L) total += n;
  check_total(total * H * sel, "nsa_block_indices");
  long sentinel = total.get_si();
  std::vector<Value> toks;
  for (const auto& n : L) {
    for (long j = 0; j < n.get_si(); ++j) {
      long visible = std::max(j == 0 ? 0L : (j - 1) / bs + 1, 1L);  // ceil_div(j, bs) without overflow
      std::vector<Value> heads;
      for (long h = 0; h < H; ++h) {
        long take = std::min(sel, visible);
        auto picks = rng.sample_range(static_cast<uint64_t>(visible), static_cast<uint64_t>(take));
        std::sort(picks.begin(), picks.end());
        std::vector<Value> r;
        for (auto p : picks) r.push_back(Value::integer(static_cast<long>(p)));
        while (static_cast<long>(r.size()) < sel) r.push_back(Value::integer(static_cast<long>(sentinel)));
        heads.push_back(Value::sequence(std::move(r)));
      }
      toks.push_back(Value::sequence(std::move(heads)));
    }
  }
  return Value::sequence(std::move(toks));
}

Value gen_nsa_block_counts(const Args& a, PyRandom& rng) {
  long T = int_arg(a[0], "T"), H = int_arg(a[1], "Hkv"), sel = int_arg(a[2], "selected blocks");
  if (T <= 0 || H <= 0 || sel <= 0) throw EvalError("nsa_block_counts: all arguments must be > 0");
  check_total(mpz_class(static_cast<long>(T)) * H, "nsa_block_counts");
  std::vector<Value> rows;
  for (long t = 0; t < T; ++t) {
    std::vector<Value> r;
    for (long h = 0; h < H; ++h) r.push_back(Value::integer(rng.randint(1, sel)));  // rng.randint(1, selected)
    rows.push_back(Value::sequence(std::move(r)));
  }
  return Value::sequence(std::move(rows));
}

Value gen_topk_ids(const Args& a, PyRandom& rng) {
  long rows = int_arg(a[0], "rows"), k = int_arg(a[1], "k"), E = int_arg(a[2], "E");
  if (rows < 0) throw EvalError("topk_ids: rows must be >= 0");
  if (!(k > 0 && k <= E)) throw EvalError("topk_ids: needs 0 < k <= E, got k=" + std::to_string(k) + ", E=" + std::to_string(E));
  check_total(mpz_class(static_cast<long>(rows)) * k, "topk_ids");
  std::vector<Value> out;
  for (long r = 0; r < rows; ++r) {
    std::vector<Value> v;
    for (auto x : rng.sample_range(static_cast<uint64_t>(E), static_cast<uint64_t>(k))) v.push_back(Value::integer(static_cast<long>(x)));
    out.push_back(Value::sequence(std::move(v)));
  }
  return Value::sequence(std::move(out));
}

Value gen_random_ids(const Args& a, PyRandom& rng) {
  long rows = int_arg(a[0], "rows"), w = int_arg(a[1], "w"), upper = int_arg(a[2], "upper");
  if (rows <= 0 || w <= 0 || upper <= 0) throw EvalError("random_ids: all arguments must be > 0");
  check_total(mpz_class(static_cast<long>(rows)) * w, "random_ids");
  std::vector<Value> out;
  for (long r = 0; r < rows; ++r) {
    std::vector<Value> v;
    for (long j = 0; j < w; ++j) v.push_back(Value::integer(rng.randrange(upper)));  // rng.randrange(upper)
    out.push_back(Value::sequence(std::move(v)));
  }
  return Value::sequence(std::move(out));
}

Value gen_sample_indices(const Args& a, PyRandom& rng) {
  long n = int_arg(a[0], "n"), hi = int_arg(a[1], "hi");
  if (!(n >= 0 && n <= hi)) throw EvalError("sample_indices: needs 0 <= n <= hi, got n=" + std::to_string(n) + ", hi=" + std::to_string(hi));
  check_total(n, "sample_indices");
  std::vector<mpz_class> out;
  for (auto x : rng.sample_range(static_cast<uint64_t>(hi), static_cast<uint64_t>(n))) out.push_back(static_cast<unsigned long>(x));
  return Value::ints(out);
}

// Layout field accessors shared with the moe.layout_valid predicate.
struct Layout {
  std::string ctor, packing, metadata_kind;
  long alignment = 1, max_m = 0;
};

Layout layout_of(const Value& v, const std::string& who) {
  if (v.t != Value::T::Adt) throw EvalError(who + ": expected an MGroupedLayout, got " + v.repr());
  Layout l;
  l.ctor = v.adt->ctor;
  auto str = [&](const char* f) { const Value* x = v.adt->field(f); return x && x->t == Value::T::Str ? x->s : std::string(); };
  auto num = [&](const char* f) { const Value* x = v.adt->field(f); return x && x->is_int() ? to_i64(x->i, f) : 0L; };
  if (l.ctor == "masked") {
    l.max_m = num("max_m");
  } else if (l.ctor == "contiguous") {
    l.packing = str("packing");
    l.metadata_kind = str("metadata_kind");
    l.alignment = num("alignment");
    if (l.alignment < 1) throw EvalError(who + ": alignment must be >= 1");
  } else {
    throw EvalError(who + ": unknown layout constructor '" + l.ctor + "'");
  }
  return l;
}

Value gen_layout_metadata(const Args& a, PyRandom&) {
  Layout l = layout_of(a[0], "moe.layout_metadata");
  long R = int_arg(a[1], "R"), E = int_arg(a[2], "E");
  if (R < 0 || E <= 0) throw EvalError("moe.layout_metadata: needs R >= 0 and E > 0");
  check_total(std::max(R, E), "moe.layout_metadata");
  std::vector<mpz_class> out;
  if (l.ctor == "masked") {
    if (mpz_class(R) != mpz_class(E) * l.max_m) throw EvalError("moe.layout_metadata: masked layout needs R = E * max_m");
    for (long e = 0; e < E; ++e) out.push_back(e % 2 == 0 ? l.max_m : l.max_m / 2);
    return Value::ints(out);
  }
  bool aligned = l.packing == "aligned";
  long a_ = aligned ? l.alignment : 1;
  if (aligned && R % a_ != 0) throw EvalError("moe.layout_metadata: aligned layout needs R % alignment == 0");
  long units = R / a_;
  std::vector<long> per(static_cast<size_t>(E));
  for (long e = 0; e < E; ++e) per[static_cast<size_t>(e)] = units / E + (e < units % E ? 1 : 0);
  if (l.metadata_kind == "per_row") {
    for (long e = 0; e < E; ++e)
      for (long k = 0; k < per[static_cast<size_t>(e)] * a_; ++k) out.push_back(e);
    return Value::ints(out);
  }
  long boundary = 0, end = 0;
  for (long e = 0; e < E; ++e) {
    long tiles = per[static_cast<size_t>(e)];
    boundary += tiles * a_;
    if (aligned && tiles > 0) end = boundary - a_ / 2;
    else if (aligned) end = ((end + a_ - 1) / a_) * a_;
    else end = boundary;
    out.push_back(end);
  }
  return Value::ints(out);
}

Value gen_causal_topk(const Args& a, PyRandom& rng) {
  long B = int_arg(a[0], "B"), S = int_arg(a[1], "S"), H = int_arg(a[2], "Hkv"), K = int_arg(a[3], "K"),
            extent = int_arg(a[4], "extent"), start = int_arg(a[5], "start"), stride = int_arg(a[6], "stride");
  if (B <= 0 || S <= 0 || H <= 0 || K <= 0 || extent <= 0 || stride <= 0 || start < 0)
    throw EvalError("causal_topk_indices: B, S, Hkv, K, extent, stride must be > 0 and start >= 0");
  check_total(mpz_class(static_cast<long>(B)) * S * H * K, "causal_topk_indices");
  std::vector<Value> bs;
  for (long b = 0; b < B; ++b) {
    std::vector<Value> ss;
    for (long t = 0; t < S; ++t) {
      mpz_class seen = (mpz_class(t) + start) / stride;  // no overflow for huge start
      long visible = seen > extent ? extent : std::max(1L, seen.get_si());
      std::vector<Value> hs;
      for (long h = 0; h < H; ++h) {
        std::vector<Value> ks;
        for (auto x : rng.sample_range(static_cast<uint64_t>(visible), static_cast<uint64_t>(std::min(K, visible))))
          ks.push_back(Value::integer(static_cast<long>(x)));
        while (static_cast<long>(ks.size()) < K) ks.push_back(Value::integer(static_cast<long>(extent)));
        hs.push_back(Value::sequence(std::move(ks)));
      }
      ss.push_back(Value::sequence(std::move(hs)));
    }
    bs.push_back(Value::sequence(std::move(ss)));
  }
  return Value::sequence(std::move(bs));
}

Value gen_sparse_topk_positions(const Args& a, PyRandom& rng) {
  auto L = seq_arg(a[0], "attn.sparse_topk_positions lengths");
  long Sq = int_arg(a[1], "Sq"), K = int_arg(a[2], "K");
  if (Sq <= 0 || K <= 0) throw EvalError("attn.sparse_topk_positions: Sq and K must be > 0");
  for (const auto& n : L)
    if (n < Sq) throw EvalError("attn.sparse_topk_positions: every length must be >= Sq");
  check_total(mpz_class(static_cast<unsigned long>(L.size())) * Sq * K, "attn.sparse_topk_positions");
  std::vector<Value> reqs;
  for (const auto& nn : L) {
    long n = to_i64(nn, "length");
    std::vector<Value> qs;
    for (long s = 0; s < Sq; ++s) {
      long visible = n - Sq + s + 1;
      std::vector<Value> ks;
      for (auto x : rng.sample_range(static_cast<uint64_t>(visible), static_cast<uint64_t>(std::min(K, visible))))
        ks.push_back(Value::integer(static_cast<long>(x)));
      while (static_cast<long>(ks.size()) < K) ks.push_back(Value::integer(-1L));
      qs.push_back(Value::sequence(std::move(ks)));
    }
    reqs.push_back(Value::sequence(std::move(qs)));
  }
  return Value::sequence(std::move(reqs));
}

Value gen_key_windows(const Args& a, PyRandom&) {
  auto L = positive_lengths(a[0], "key_windows");
  long first = int_arg(a[1], "first"), count = int_arg(a[2], "count");
  if (a[3].t != Value::T::Str || (a[3].s != "start" && a[3].s != "end"))
    throw EvalError("key_windows: side " + a[3].repr() + " is not one of 'start', 'end'");
  mpz_class total = 0;
  for (const auto& n : L) total += n;
  if (first < 0 || count < 0 || mpz_class(static_cast<long>(first)) + count > total)
    throw EvalError("key_windows: positions [first, first + count) must lie inside the packed total " + total.get_str());
  check_total(count, "key_windows");
  if (first > (1L << 62)) throw EvalError("key_windows: first " + std::to_string(first) + " is too large");
  std::vector<mpz_class> out;
  for (long p = first; p < first + count; ++p) {
    if (a[3].s == "end") { out.push_back(p + 1); continue; }
    mpz_class start = 0;
    for (const auto& n : L) {
      if (p < start + n) break;
      start += n;
    }
    out.push_back(start);
  }
  return Value::ints(out);
}

Value fill(const std::vector<mpz_class>& shape, size_t k, const Value& v) {
  if (k == shape.size()) return v;
  std::vector<Value> items;
  for (unsigned long j = 0; j < shape[k].get_ui(); ++j) items.push_back(fill(shape, k + 1, v));
  return Value::sequence(std::move(items));
}

Value gen_full(const Args& a, PyRandom&) {
  auto shape = seq_arg(a[0], "full shape");
  if (!a[1].is_int()) throw EvalError("full: value must be an integer");
  mpz_class total = 1;
  for (const auto& d : shape) {
    total *= d;
    check_total(d, "full");  // a huge axis after an empty one would still be walked
  }
  check_total(total, "full");
  if (shape.size() > 32) throw EvalError("full: rank is too large");
  return fill(shape, 0, a[1]);
}

std::vector<GeneratorDef> make_table() {
  return {
      {"as_tensor", "S", false, 1, gen_as_tensor, "the list itself"},
      {"prefix_sum", "S", false, 1, gen_prefix_sum, "[0, L0, L0+L1, ...]"},
      {"exclusive_prefix_sum", "S", false, 1, gen_exclusive_prefix_sum, "sum of the elements before each"},
      {"chunk_indices", "SI", false, 2, gen_chunk_indices, "(sequence, chunk) rows"},
      {"token_indices", "S", false, 2, gen_token_indices, "(sequence, position) rows"},
      {"packed_positions", "S", false, 1, gen_packed_positions, "positions restarting per sequence"},
      {"chunk_offsets", "SI", false, 1, gen_chunk_offsets, "prefix sum of chunk counts"},
      {"paged_block_table", "III", true, 2, gen_paged_block_table, "distinct pages per row"},
      {"nsa_block_indices", "SIII", true, 3, gen_nsa_block_indices, "visible blocks per token and head"},
      {"nsa_block_counts", "III", true, 2, gen_nsa_block_counts, "counts in [1, sel]"},
      {"topk_ids", "III", true, 2, gen_topk_ids, "k distinct ids per row"},
      {"random_ids", "III", true, 2, gen_random_ids, "uniform ids with repeats"},
      {"sample_indices", "II", true, 1, gen_sample_indices, "n distinct indices"},
      {"moe.layout_metadata", "AII", false, 1, gen_layout_metadata, "metadata of a MGroupedLayout"},
      {"causal_topk_indices", "IIIIIII", true, 4, gen_causal_topk, "causal top-k key indices"},
      {"attn.sparse_topk_positions", "SII", true, 3, gen_sparse_topk_positions, "sparse top-k positions"},
      {"key_windows", "SIIE", false, 1, gen_key_windows, "key window starts or ends"},
      {"full", "SI", false, -1, gen_full, "a filled tensor"},
  };
}

}  // namespace

const std::vector<GeneratorDef>& all_generators() {
  static const std::vector<GeneratorDef> table = make_table();
  return table;
}

const GeneratorDef* find_generator(const std::string& name) {
  for (const auto& g : all_generators())
    if (g.name == name) return &g;
  return nullptr;
}

Value run_generator(const std::string& name, const std::vector<Value>& args, const std::string& seed_key) {
  const GeneratorDef* g = find_generator(name);
  if (!g) throw EvalError("'" + name + "' is not a built-in generator");
  if (args.size() != g->args.size())
    throw EvalError(name + "() takes " + std::to_string(g->args.size()) + " arguments, got " + std::to_string(args.size()));
  PyRandom rng = seeded_random(seed_key);
  return g->impl(args, rng);
}

std::vector<mpz_class> flatten(const Value& v, std::vector<long>& shape) {
  std::vector<mpz_class> out;
  shape.clear();
  const Value* cur = &v;
  while (cur->is_seq()) {
    shape.push_back(static_cast<long>(cur->seq.size()));
    if (cur->seq.empty()) break;
    cur = &cur->seq[0];
  }
  std::function<void(const Value&, size_t)> walk = [&](const Value& x, size_t depth) {
    if (depth == shape.size()) {
      if (!x.is_int()) throw EvalError("generated value " + x.repr() + " is not an integer");
      out.push_back(x.i);
      return;
    }
    if (!x.is_seq() || static_cast<long>(x.seq.size()) != shape[depth]) throw EvalError("generated value is not rectangular");
    for (const auto& y : x.seq) walk(y, depth + 1);
  };
  walk(v, 0);
  return out;
}

}  // namespace kir::specs
