// .npy reading and writing; see npy.h for the dtype mapping.
#include "interp/npy.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace kir::interp {

std::string npy_descr(DType d) {
  switch (d) {
    case DType::Bool: return "|b1";
    case DType::I8: return "|i1";
    case DType::I16: return "<i2";
    case DType::I32: return "<i4";
    case DType::I64: case DType::Index: return "<i8";
    case DType::U8: case DType::E4M3: case DType::E5M2: case DType::E2M1: case DType::E8M0: return "|u1";
    case DType::U16: case DType::BF16: return "<u2";
    case DType::U32: return "<u4";
    case DType::U64: return "<u8";
    case DType::F16: return "<f2";
    case DType::F32: return "<f4";
    case DType::F64: return "<f8";
  }
  return "|u1";
}

static int item_size(const std::string& descr) {
  if (descr.size() < 3) return 0;
  try {
    return std::stoi(descr.substr(2));
  } catch (...) {
    return 0;
  }
}

NpyArray read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  char magic[8];
  if (!in.read(magic, 8) || std::string(magic, 6) != "\x93NUMPY") throw std::runtime_error(path + ": not a .npy file");
  const int major = static_cast<unsigned char>(magic[6]);
  uint32_t hlen = 0;
  unsigned char b[4] = {0, 0, 0, 0};
  if (major == 1) {
    if (!in.read(reinterpret_cast<char*>(b), 2)) throw std::runtime_error(path + ": truncated header");
    hlen = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    if (!in.read(reinterpret_cast<char*>(b), 4)) throw std::runtime_error(path + ": truncated header");
    hlen = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
  } else {
    throw std::runtime_error(path + ": unsupported .npy version " + std::to_string(major));
  }
  if (hlen > (1u << 20)) throw std::runtime_error(path + ": header too large");
  std::string h(hlen, '\0');
  if (!in.read(h.data(), hlen)) throw std::runtime_error(path + ": truncated header");
  NpyArray a;
  auto field = [&](const std::string& key) -> size_t {
    size_t p = h.find("'" + key + "'");
    if (p == std::string::npos) throw std::runtime_error(path + ": header without '" + key + "'");
    p = h.find(':', p);
    if (p == std::string::npos) throw std::runtime_error(path + ": malformed header");
    return p + 1;
  };
  size_t p = field("descr");
  size_t q1 = h.find('\'', p), q2 = q1 == std::string::npos ? q1 : h.find('\'', q1 + 1);
  if (q2 == std::string::npos) throw std::runtime_error(path + ": malformed descr");
  a.descr = h.substr(q1 + 1, q2 - q1 - 1);
  if (!a.descr.empty() && a.descr[0] == '=') a.descr[0] = '<';
  if (!a.descr.empty() && a.descr[0] == '>' && item_size(a.descr) > 1) throw std::runtime_error(path + ": big-endian data is not supported");
  if (!a.descr.empty() && a.descr[0] == '>') a.descr[0] = '|';
  p = field("fortran_order");
  const size_t fo = h.find_first_not_of(' ', p);
  if (fo != std::string::npos && h.compare(fo, 4, "True") == 0) throw std::runtime_error(path + ": Fortran order is not supported (C order only)");
  p = field("shape");
  size_t o = h.find('(', p), c = h.find(')', p);
  if (o == std::string::npos || c == std::string::npos || c < o) throw std::runtime_error(path + ": malformed shape");
  std::stringstream ss(h.substr(o + 1, c - o - 1));
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    if (tok.find_first_not_of(" \t\n") == std::string::npos) continue;
    try {
      long long v = std::stoll(tok);
      if (v < 0) throw std::runtime_error("negative");
      a.shape.push_back(v);
    } catch (...) {
      throw std::runtime_error(path + ": malformed shape entry '" + tok + "'");
    }
  }
  const int isz = item_size(a.descr);
  if (isz <= 0 || isz > 8) throw std::runtime_error(path + ": unsupported descr '" + a.descr + "'");
  const int64_t n = checked_numel(a.shape);
  a.data.resize(static_cast<size_t>(n) * static_cast<size_t>(isz));
  if (!in.read(reinterpret_cast<char*>(a.data.data()), static_cast<std::streamsize>(a.data.size())))
    throw std::runtime_error(path + ": truncated data (" + std::to_string(n) + " elements of " + a.descr + " expected)");
  return a;
}

static bool compatible(const std::string& descr, DType d) {
  auto norm = [](std::string s) {
    if (!s.empty() && (s[0] == '<' || s[0] == '|')) s[0] = '|';
    return s;
  };
  const std::string want = norm(npy_descr(d)), got = norm(descr);
  if (want == got) return true;
  if (d == DType::BF16 && (got == "|V2")) return true;
  if (d == DType::Bool && got == "|u1") return true;
  return false;
}

Tensor npy_to_tensor(const NpyArray& a, DType d) {
  if (!compatible(a.descr, d))
    throw std::runtime_error("array of descr '" + a.descr + "' cannot hold " + std::string(name(d)) + " (expected '" + npy_descr(d) + "')");
  const int isz = item_size(a.descr);
  Tensor t;
  t.dtype = d;
  t.shape = a.shape;
  const size_t n = a.data.size() / static_cast<size_t>(isz);
  t.bits.resize(n);
  const uint64_t mask = num::width_mask(d);
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = 0;
    for (int k = 0; k < isz; ++k) v |= static_cast<uint64_t>(a.data[i * static_cast<size_t>(isz) + static_cast<size_t>(k)]) << (8 * k);
    if (d == DType::Bool) v = v != 0;
    else if (v & ~mask) throw std::runtime_error("element " + std::to_string(i) + " = " + std::to_string(v) + " does not fit " + std::string(name(d)));
    t.bits[i] = v;
  }
  return t;
}

void write_npy(const std::string& path, DType d, const Shape& shape, const std::vector<uint64_t>& bits) {
  std::string sh = "(";
  for (size_t i = 0; i < shape.size(); ++i) sh += std::to_string(shape[i]) + (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
  sh += ")";
  std::string h = "{'descr': '" + npy_descr(d) + "', 'fortran_order': False, 'shape': " + sh + ", }";
  size_t total = 10 + h.size() + 1;
  h.append((64 - total % 64) % 64, ' ');
  h += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot write");
  out.write("\x93NUMPY\x01\x00", 8);
  const char len[2] = {static_cast<char>(h.size() & 0xff), static_cast<char>(h.size() >> 8)};
  out.write(len, 2);
  out.write(h.data(), static_cast<std::streamsize>(h.size()));
  const int isz = item_size(npy_descr(d));
  std::vector<char> buf(bits.size() * static_cast<size_t>(isz));
  for (size_t i = 0; i < bits.size(); ++i)
    for (int k = 0; k < isz; ++k) buf[i * static_cast<size_t>(isz) + static_cast<size_t>(k)] = static_cast<char>((bits[i] >> (8 * k)) & 0xff);
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  if (!out) throw std::runtime_error(path + ": write failed");
}

}  // namespace kir::interp
