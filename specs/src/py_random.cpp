// CPython-exact random.Random (see py_random.h).
#include "specs/src/py_random.h"

#include <cmath>
#include <unordered_set>

#include "specs/src/value.h"

namespace kir::specs {
namespace {

constexpr size_t kN = 624;
constexpr size_t kM = 397;

void init_genrand(std::array<uint32_t, kN>& mt, uint32_t s) {
  mt[0] = s;
  for (size_t i = 1; i < kN; ++i) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
}

void init_by_array(std::array<uint32_t, kN>& mt, const std::vector<uint32_t>& key) {
  init_genrand(mt, 19650218u);
  size_t i = 1, j = 0;
  for (size_t k = std::max(kN, key.size()); k > 0; --k) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + static_cast<uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) { mt[0] = mt[kN - 1]; i = 1; }
    if (j >= key.size()) j = 0;
  }
  for (size_t k = kN - 1; k > 0; --k) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
    ++i;
    if (i >= kN) { mt[0] = mt[kN - 1]; i = 1; }
  }
  mt[0] = 0x80000000u;  // non-zero initial state
}

std::string range_text(const mpz_class& a, const mpz_class& b, const mpz_class& c) {
  return "(" + a.get_str() + ", " + b.get_str() + ", " + c.get_str() + ")";
}

}  // namespace

PyRandom::PyRandom(const mpz_class& seed) {
  // CPython random_seed: the key is |seed| as little-endian 32-bit words, at least one word.
  mpz_class n = abs(seed);
  size_t words = (mpz_sizeinbase(n.get_mpz_t(), 2) + 31) / 32;
  std::vector<uint32_t> key(std::max<size_t>(words, 1), 0);
  size_t count = 0;
  mpz_export(key.data(), &count, -1, sizeof(uint32_t), 0, 0, n.get_mpz_t());
  init_by_array(mt_, key);
  index_ = kN;
}

uint32_t PyRandom::genrand_uint32() {
  constexpr uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
  if (index_ >= kN) {
    for (size_t k = 0; k < kN; ++k) {
      uint32_t y = (mt_[k] & kUpper) | (mt_[(k + 1) % kN] & kLower);
      mt_[k] = mt_[(k + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    }
    index_ = 0;
  }
  uint32_t y = mt_[index_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

mpz_class PyRandom::getrandbits(unsigned long k) {
  if (k <= 64) return mpz_class(static_cast<unsigned long>(getrandbits64(static_cast<unsigned>(k))));
  // Words are drawn least significant first; the last one keeps its top bits.
  std::vector<uint32_t> words;
  for (unsigned long left = k; left > 0; left -= std::min(left, 32ul)) {
    uint32_t r = genrand_uint32();
    if (left < 32) r >>= (32 - left);
    words.push_back(r);
  }
  mpz_class out;
  mpz_import(out.get_mpz_t(), words.size(), -1, sizeof(uint32_t), 0, 0, words.data());
  return out;
}

uint64_t PyRandom::getrandbits64(unsigned k) {
  if (k == 0) return 0;
  if (k <= 32) return genrand_uint32() >> (32 - k);
  uint64_t lo = genrand_uint32();
  uint64_t hi = genrand_uint32() >> (64 - k);
  return lo | (hi << 32);
}

mpz_class PyRandom::randbelow(const mpz_class& n) {
  if (n <= 0) throw EvalError("randbelow needs n > 0, got " + n.get_str());
  if (n.fits_ulong_p()) return mpz_class(static_cast<unsigned long>(randbelow(static_cast<uint64_t>(n.get_ui()))));
  unsigned long k = mpz_sizeinbase(n.get_mpz_t(), 2);
  mpz_class r = getrandbits(k);
  while (r >= n) r = getrandbits(k);
  return r;
}

uint64_t PyRandom::randbelow(uint64_t n) {
  if (n == 0) throw EvalError("randbelow needs n > 0, got 0");
  unsigned k = 64 - static_cast<unsigned>(__builtin_clzll(n));
  uint64_t r = getrandbits64(k);
  while (r >= n) r = getrandbits64(k);
  return r;
}

mpz_class PyRandom::randrange(const mpz_class& stop) {
  if (stop > 0) return randbelow(stop);
  throw EvalError("empty range for randrange()");
}

mpz_class PyRandom::randrange(const mpz_class& start, const mpz_class& stop, const mpz_class& step) {
  mpz_class width = stop - start;
  if (step == 1) {
    if (width > 0) return start + randbelow(width);
    throw EvalError("empty range for randrange() " + range_text(start, stop, width));
  }
  mpz_class n;
  if (step > 0) {
    n = width + step - 1;
    mpz_fdiv_q(n.get_mpz_t(), n.get_mpz_t(), step.get_mpz_t());
  } else if (step < 0) {
    n = width + step + 1;
    mpz_fdiv_q(n.get_mpz_t(), n.get_mpz_t(), step.get_mpz_t());
  } else {
    throw EvalError("zero step for randrange()");
  }
  if (n <= 0) throw EvalError("empty range for randrange()");
  return start + step * randbelow(n);
}

mpz_class PyRandom::randint(const mpz_class& a, const mpz_class& b) { return randrange(a, b + 1); }

double PyRandom::random() {
  uint32_t a = genrand_uint32() >> 5, b = genrand_uint32() >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

double PyRandom::gauss(double mu, double sigma) {
  double z;
  if (gauss_next_) {
    z = *gauss_next_;
    gauss_next_.reset();
  } else {
    double x2pi = random() * 6.283185307179586;  // TWOPI = 2 * pi
    double g2rad = std::sqrt(-2.0 * std::log(1.0 - random()));
    z = std::cos(x2pi) * g2rad;
    gauss_next_ = std::sin(x2pi) * g2rad;
  }
  return mu + z * sigma;
}

std::vector<uint64_t> PyRandom::sample_range(uint64_t n, uint64_t k) {
  if (k > n) throw EvalError("Sample larger than population or is negative");
  // setsize = 21 + (k > 5 ? 4 ** ceil(log(3k, 4)) : 0), saturated; math.log(x, 4) is
  // log(x) / log(4) in doubles.
  uint64_t setsize = 21;
  if (k > 5) {
    double e = std::ceil(std::log(static_cast<double>(k) * 3.0) / std::log(4.0));
    setsize = e >= 31 ? UINT64_MAX : setsize + (uint64_t{1} << (2 * static_cast<unsigned>(e)));
  }
  std::vector<uint64_t> result;
  result.reserve(k);
  if (n <= setsize) {  // pool: the unselected values stay in pool[0, n - i)
    std::vector<uint64_t> pool(n);
    for (uint64_t i = 0; i < n; ++i) pool[i] = i;
    for (uint64_t i = 0; i < k; ++i) {
      uint64_t j = randbelow(n - i);
      result.push_back(pool[j]);
      pool[j] = pool[n - i - 1];
    }
    return result;
  }
  std::unordered_set<uint64_t> selected;  // set: redraw until unseen
  for (uint64_t i = 0; i < k; ++i) {
    uint64_t j = randbelow(n);
    while (selected.count(j)) j = randbelow(n);
    selected.insert(j);
    result.push_back(j);
  }
  return result;
}

}  // namespace kir::specs
