#include "variants/params.h"

#include <sstream>
#include <stdexcept>
#include <vector>

namespace csrgat {

const char* to_string(Family f) {
  switch (f) {
    case Family::fused: return "csrgat";
    case Family::seed: return "seed";
    case Family::cusparse: return "cusparse";
    case Family::colblock: return "colblock";
  }
  return "?";
}
const char* to_string(Softmax s) { return s == Softmax::online ? "online" : "twopass"; }
const char* to_string(IndexType t) { return t == IndexType::i64 ? "i64" : "i32"; }
const char* to_string(ValueType t) {
  switch (t) {
    case ValueType::f32: return "f32";
    case ValueType::bf16: return "bf16";
    case ValueType::f16: return "f16";
  }
  return "?";
}
int value_bytes(ValueType t) { return t == ValueType::f32 ? 4 : 2; }
int index_bytes(IndexType t) { return t == IndexType::i64 ? 8 : 4; }

int VariantParams::block_threads() const {
  if (family != Family::fused) return 0;
  return tpr * rpb;
}

std::string VariantParams::id() const {
  std::ostringstream os;
  os << to_string(family);
  if (family == Family::fused) {
    os << ".tpr" << tpr << ".fl" << fl << ".rpb" << rpb << ".vec" << vec << ".t" << tiles
       << (epl != 1 ? ".e" + std::to_string(epl) : std::string())
       << (ilp != 1 ? ".g" + std::to_string(ilp) : std::string())
       << (minb != 0 ? ".mb" + std::to_string(minb) : std::string()) << ".smem" << smem << '.' << to_string(softmax) << ".split" << split
       << (lpt ? ".lpt" : "") << (prefetch ? ".pf" : "") << (bm ? ".bm" : "")
       << (slices != 1 ? ".fs" + std::to_string(slices) : std::string());
  } else if (family == Family::colblock) {
    os << ".r" << cb_rows << ".ps" << cb_shift << ".lag" << cb_lag;
    if (cb_pause != 0) os << ".pp" << cb_pause;
    if (cb_l1p != 0) os << ".l1p" << cb_l1p;
    if (cb_mma) os << ".mma";
  }
  os << '.' << to_string(index) << '.' << to_string(value);
  if (family == Family::fused && out16) os << ".o16";
  if (fault) os << ".fault" << fault;
  if (delay_ns) os << ".delay" << delay_ns;
  return os.str();
}

namespace {
std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == '.') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}
// "<key><digits>" with a value up to max (ids are typed by hand: .e4294967298 must not wrap
// around to .e2). Split thresholds go to 2^40 like the config's; everything else fits an int.
bool take_int(const std::string& part, const std::string& key, int64_t& out,
              int64_t max = 0x7fffffffLL) {
  if (part.rfind(key, 0) != 0 || part.size() == key.size()) return false;
  const std::string num = part.substr(key.size());
  if (num.size() > 18) return false;
  for (char c : num)
    if (c < '0' || c > '9') return false;
  out = std::stoll(num);
  return out <= max;
}
}  // namespace

VariantParams VariantParams::parse(const std::string& id) {
  const auto parts = split_dots(id);
  VariantParams p;
  if (parts.empty()) throw std::invalid_argument("empty variant id");
  if (parts[0] == "csrgat") {
    p.family = Family::fused;
  } else if (parts[0] == "seed") {
    p.family = Family::seed;
  } else if (parts[0] == "cusparse") {
    p.family = Family::cusparse;
  } else if (parts[0] == "colblock") {
    p.family = Family::colblock;
  } else {
    throw std::invalid_argument("variant id '" + id + "': unknown family '" + parts[0] + "'");
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& s = parts[i];
    int64_t v = 0;
    if (s == "twopass") p.softmax = Softmax::two_pass;
    else if (s == "online") p.softmax = Softmax::online;
    else if (s == "i32") p.index = IndexType::i32;
    else if (s == "i64") p.index = IndexType::i64;
    else if (s == "f32") p.value = ValueType::f32;
    else if (s == "bf16") p.value = ValueType::bf16;
    else if (s == "f16") p.value = ValueType::f16;
    else if (s == "lpt" && p.family == Family::fused) p.lpt = 1;
    else if (s == "pf" && p.family == Family::fused) p.prefetch = 1;
    else if (s == "bm" && p.family == Family::fused) p.bm = 1;
    else if (s == "o16" && p.family == Family::fused)
      p.out16 = 1;
    else if (p.family == Family::colblock && take_int(s, "r", v)) p.cb_rows = static_cast<int>(v);
    else if (p.family == Family::colblock && take_int(s, "ps", v)) p.cb_shift = static_cast<int>(v);
    else if (p.family == Family::colblock && take_int(s, "lag", v)) p.cb_lag = static_cast<int>(v);
    else if (p.family == Family::colblock && take_int(s, "pp", v)) p.cb_pause = static_cast<int>(v);
    else if (p.family == Family::colblock && take_int(s, "l1p", v))
      p.cb_l1p = static_cast<int>(v);
    else if (p.family == Family::colblock && s == "mma")
      p.cb_mma = 1;
    else if (take_int(s, "tpr", v)) p.tpr = static_cast<int>(v);
    else if (take_int(s, "fl", v)) p.fl = static_cast<int>(v);
    else if (take_int(s, "fs", v) && p.family == Family::fused) p.slices = static_cast<int>(v);
    else if (take_int(s, "rpb", v)) p.rpb = static_cast<int>(v);
    else if (take_int(s, "vec", v)) p.vec = static_cast<int>(v);
    else if (take_int(s, "smem", v)) p.smem = static_cast<int>(v);
    else if (take_int(s, "split", v, int64_t{1} << 40)) p.split = v;
    else if (take_int(s, "e", v)) p.epl = static_cast<int>(v);
    else if (take_int(s, "mb", v)) p.minb = static_cast<int>(v);
    else if (take_int(s, "g", v)) p.ilp = static_cast<int>(v);
    else if (take_int(s, "fault", v)) p.fault = static_cast<int>(v);
    else if (take_int(s, "delay", v)) p.delay_ns = static_cast<unsigned>(v);
    else if (take_int(s, "t", v)) p.tiles = static_cast<int>(v);
    else throw std::invalid_argument("variant id '" + id + "': unknown part '" + s + "'");
  }
  return p;
}

std::string VariantParams::kernel_name() const {
  const char* idx = index == IndexType::i64 ? "long long" : "int";
  const char* val = value == ValueType::f32 ? "float" : value == ValueType::bf16 ? "__nv_bfloat16" : "__half";
  std::ostringstream os;
  switch (family) {
    case Family::fused:
      os << "csrgat_fused<" << tpr << ", " << fl << ", " << rpb << ", " << vec << ", " << tiles
         << ", " << epl << ", " << ilp << ", " << minb << ", " << smem << ", "
         << (softmax == Softmax::online ? 1 : 0) << ", " << lpt << ", " << idx << ", " << val;
      // The defaulted template arguments SLICED and OUT16, each only when it or a later one is
      // not the default.
      if (slices != 1 || out16) os << ", " << (slices != 1 ? 1 : 0);
      if (out16) os << ", 1";
      os << ">";
      break;
    case Family::seed: os << "csrgat_seed<" << idx << ", " << val << ">"; break;
    case Family::cusparse: os << "csrgat_segment_softmax<" << idx << ">"; break;
    case Family::colblock: break;  // nvcc-built (csrgat/colblock.cu): no NVRTC kernel
  }
  return os.str();
}

std::string VariantParams::scalar_kernel_name() const {
  if (family != Family::fused || vec == 1) return "";
  VariantParams t = *this;
  t.vec = 1;
  t.tiles = 1;
  t.ilp = 1;
  if (t.smem == 3) t.smem = 0;
  return t.kernel_name();
}

std::string VariantParams::invalid_reason() const {
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (out16 != 0 && family != Family::fused)
    return "o16 (16-bit out) is a fused-family kernel's only";
  if (family == Family::colblock) {
    if (value == ValueType::f16) return "colblock takes f32 or bf16 values only";
    if (index != IndexType::i32) return "colblock takes int32 structure only";
    const std::string why = colblock::knobs_out_of_range(
        {cb_rows, cb_shift, cb_lag, cb_pause, cb_l1p, value == ValueType::f32, cb_mma != 0});
    return why.empty() ? why : "colblock: " + why;
  }
  if (family != Family::fused) {
    if (family == Family::cusparse && value != ValueType::f32)
      return "cusparse baseline takes f32 values only";
    return "";
  }
  if (!pow2(tpr) || tpr > 1024) return "tpr must be a power of two in [1, 1024]";
  const int warp_tpr = tpr < 32 ? tpr : 32;
  if (!pow2(fl) || fl > warp_tpr) return "fl must be a power of two <= min(tpr, 32)";
  if (rpb < 1) return "rpb must be >= 1";
  if (tpr > 32 && rpb != 1) return "tpr > 32 (several warps per row) needs rpb = 1";
  if (tpr * rpb > 1024) return "tpr * rpb exceeds 1024 threads per block";
  if ((tpr * rpb) % 32 != 0) return "tpr * rpb must be a whole number of warps";
  if (vec != 1 && vec != 2 && vec != 4 && vec != 8) return "vec must be 1, 2, 4 or 8";
  if (vec * value_bytes(value) > 16) return "vec * element size exceeds a 16-byte load";
  if (tiles < 1 || tiles > 8) return "tiles must be in [1, 8]";
  if (epl != 1 && epl != 2 && epl != 4) return "epl must be 1, 2 or 4";
  if (epl != 1 && smem != 0 && smem != 3) return "epl > 1 needs smem 0 or 3 (warp shuffles)";
  if (!pow2(ilp) || ilp > fl * epl)
    return "ilp must be a power of two <= fl * epl (a slot's entries per batch)";
  if (ilp != 1 && smem == 2) return "ilp > 1 needs a batch mode (smem 0, 1 or 3)";
  if (smem == 3 && vec * value_bytes(value) != 16)
    return "smem 3 stages 16-byte pieces: vec * element size must be 16";
  // The staging plus the block's other static shared memory: the cross-warp row of a
  // multi-warp group (features per pass, as floats) and 1 KiB for the small members (and,
  // until the scalar twin became a kernel of its own, the scalar path's copy). (Without the
  // rest, staging of exactly 48 KiB passed here and failed in ptxas: 0xc030 bytes.)
  if (smem == 3 && 2 * ilp * tiles * 16 * tpr * rpb + (tpr > 32 ? 4 * fl * vec * tiles : 0) + 1024 >
                       48 * 1024)
    return "smem 3 stages 2 * ilp * tiles * 16 bytes per thread: " +
           std::to_string(2 * ilp * tiles * 16 * tpr * rpb) +
           " bytes per block, which with the block's other shared memory exceed the 48 KiB of "
           "static shared memory";
  if (minb < 0 || minb > 32) return "minb must be in [0, 32]";
  if (minb > 0 && tpr * rpb * minb > 2048)
    return "minb blocks of tpr * rpb threads exceed 2048 threads per SM";
  if (smem < 0 || smem > 3)
    return "smem must be 0 (shuffles), 1 (shared memory), 2 (direct loads) or 3 (shuffles, "
           "gathers staged by cp.async)";
  if (split < 0) return "split must be >= 0";
  if (lpt != 0 && lpt != 1) return "lpt must be 0 or 1";
  if (prefetch != 0 && prefetch != 1) return "prefetch must be 0 or 1";
  if (bm != 0 && bm != 1) return "bm must be 0 or 1";
  if (bm == 1 && split == 0) return "bm (split rows merged inside their block) needs split > 0";
  if (slices != 1 && slices != 2 && slices != 4 && slices != 8)
    return "slices (.fs) must be 1, 2, 4 or 8";
  if (out16 != 0 && out16 != 1) return "out16 must be 0 or 1";
  if (out16 && value == ValueType::f32)
    return "o16 (out stored in the values' 16-bit type) needs bf16 or f16 values";
  if (fault < 0 || fault > 2) return "fault must be 0, 1 or 2";
  return "";
}

bool VariantParams::operator==(const VariantParams& o) const {
  return family == o.family && tpr == o.tpr && fl == o.fl && rpb == o.rpb && vec == o.vec &&
         tiles == o.tiles && epl == o.epl && ilp == o.ilp && minb == o.minb && smem == o.smem &&
         softmax == o.softmax && split == o.split && lpt == o.lpt && prefetch == o.prefetch &&
         bm == o.bm && slices == o.slices && cb_rows == o.cb_rows && cb_shift == o.cb_shift &&
         cb_lag == o.cb_lag && cb_pause == o.cb_pause && cb_l1p == o.cb_l1p && cb_mma == o.cb_mma &&
         index == o.index && value == o.value && out16 == o.out16 && fault == o.fault &&
         delay_ns == o.delay_ns;
}

std::ostream& operator<<(std::ostream& os, const VariantParams& p) { return os << p.id(); }

}  // namespace csrgat
