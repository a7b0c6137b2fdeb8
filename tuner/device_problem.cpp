#include "tuner/device_problem.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cusparse.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "profiler/check.h"
#include "tuner/colblock.h"
#include "variants/launch.h"
#include "variants/plan.h"

namespace csrgat::tuner {

#define CSRGAT_CUSPARSE_CHECK(expr)                                                        \
  do {                                                                                     \
    cusparseStatus_t s_ = (expr);                                                          \
    if (s_ != CUSPARSE_STATUS_SUCCESS)                                                     \
      throw profiler::ApiError(std::string(#expr) + " failed: " + cusparseGetErrorString(s_) + \
                               " at " + __FILE__ + ":" + std::to_string(__LINE__));        \
  } while (0)

bool gpu_available(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    if (why)
      *why = e != cudaSuccess ? std::string("no usable NVIDIA driver or GPU: cudaGetDeviceCount says ") +
                                    cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")"
                              : "the driver reports no CUDA device";
    cudaGetLastError();
    return false;
  }
  return true;
}

std::pair<int, int> device_capability(int device) {
  int major = 0, minor = 0;
  cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error("cannot ask CUDA device " + std::to_string(device) +
                             " its compute capability: " + cudaGetErrorName(e));
  }
  return {major, minor};
}

std::string device_arch(int device) {
  const auto [major, minor] = device_capability(device);
  const std::string arch = "sm_" + std::to_string(major * 10 + minor);
  // A GPU newer than this NVRTC: named here, not in NVRTC's option error at every compile.
  if (const std::string why = NvrtcCompiler::arch_problem(arch); !why.empty())
    throw std::runtime_error("CUDA device " + std::to_string(device) + " is " + arch +
                             ", which this NVRTC does not compile for: " + why);
  return arch;
}

LoadedKernel::LoadedKernel(const CompiledKernel& k) {
  if (k.cubin.empty()) {  // a colblock variant's: the library's nvcc-built kernel
    const VariantParams p = VariantParams::parse(k.variant_id);
    attrs_ = colblock::kernel_attributes(static_cast<int>(p.value), p.cb_l1p, p.cb_mma != 0);
    return;
  }
  CSRGAT_CUDA_CHECK(cudaLibraryLoadData(&library_, k.cubin.data(), nullptr, nullptr, 0, nullptr,
                                        nullptr, 0));
  CSRGAT_CUDA_CHECK(cudaLibraryGetKernel(&kernel_, library_, k.lowered_name.c_str()));
  if (!k.scalar_lowered_name.empty())
    CSRGAT_CUDA_CHECK(cudaLibraryGetKernel(&scalar_kernel_, library_, k.scalar_lowered_name.c_str()));
  CSRGAT_CUDA_CHECK(cudaFuncGetAttributes(&attrs_, reinterpret_cast<const void*>(kernel_)));
}

void* LoadedKernel::global_address(const char* name) const {
  void* p = nullptr;
  size_t bytes = 0;
  CSRGAT_CUDA_CHECK(cudaLibraryGetGlobal(&p, &bytes, library_, name));
  return p;
}

LoadedKernel::~LoadedKernel() {
  if (library_) cudaLibraryUnload(library_);
}

struct DeviceProblem::Cusparse {
  cusparseHandle_t handle = nullptr;
  std::vector<cusparseSpMatDescr_t> a;   // one CSR matrix per head (its weights)
  std::vector<cusparseDnMatDescr_t> b, c;
  void* buffer = nullptr;
  size_t buffer_size = 0;
  bool index64 = false;
  ~Cusparse() {
    for (auto d : a) cusparseDestroySpMat(d);
    for (auto d : b) cusparseDestroyDnMat(d);
    for (auto d : c) cusparseDestroyDnMat(d);
    if (buffer) cudaFree(buffer);
    if (handle) cusparseDestroy(handle);
  }
};

namespace {
template <class T>
T* upload(const void* host, size_t bytes) {
  void* d = nullptr;
  CSRGAT_CUDA_CHECK(cudaMalloc(&d, std::max<size_t>(bytes, 16)));
  if (bytes) CSRGAT_CUDA_CHECK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
  return static_cast<T*>(d);
}
}  // namespace

DeviceProblem::DeviceProblem(const graphs::Csr64& g, const graphs::Inputs& in)
    : n_(g.num_nodes), e_(g.num_edges()), heads_(in.heads), feat_(in.feat) {
  row_ptr_host_ = g.row_ptr;
  for (int64_t r = 0; r < n_; ++r) max_degree_ = std::max(max_degree_, g.degree(r));
  fits_i32_ = n_ < std::numeric_limits<int32_t>::max() && e_ < std::numeric_limits<int32_t>::max();
  row_ptr64_ = upload<void>(g.row_ptr.data(), g.row_ptr.size() * 8);
  col64_ = upload<void>(g.col.data(), g.col.size() * 8);
  if (fits_i32_) {
    std::vector<int32_t> rp(g.row_ptr.begin(), g.row_ptr.end()), c(g.col.begin(), g.col.end());
    row_ptr32_ = upload<void>(rp.data(), rp.size() * 4);
    col32_ = upload<void>(c.data(), c.size() * 4);
  }
  scores_ = upload<float>(in.scores.data(), in.scores.size() * 4);
  values_host_ = in.values;
  values_[ValueType::f32] = upload<void>(in.values.data(), in.values.size() * 4);
  CSRGAT_CUDA_CHECK(cudaMalloc(&out_, std::max<size_t>(output_bytes(), 16)));
  int dev = 0;
  CSRGAT_CUDA_CHECK(cudaGetDevice(&dev));
  int optin = 0;
  CSRGAT_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  smem_optin_ = static_cast<size_t>(optin);
}

DeviceProblem::~DeviceProblem() {
  cusparse_.reset();
  for (void* p : {row_ptr32_, col32_, row_ptr64_, col64_, static_cast<void*>(scores_),
                  static_cast<void*>(out_), static_cast<void*>(weights_)})
    if (p) cudaFree(p);
  for (auto& [t, p] : values_) cudaFree(p);
  cudaFree(true_scores_);
  for (auto& [t, p] : true_values_) cudaFree(p);
  for (auto& [t, pl] : plans_) {
    cudaFree(pl.chunks);
    cudaFree(pl.partials);
    cudaFree(pl.counters);
  }
  for (auto& [key, p] : orders_) cudaFree(p);
}

const void* DeviceProblem::values_for(ValueType t) {
  auto it = values_.find(t);
  if (it != values_.end()) return it->second;
  // 16-bit storage is converted on the host with round-to-nearest-even.
  std::vector<uint16_t> h(values_host_.size());
  for (size_t i = 0; i < h.size(); ++i) {
    if (t == ValueType::bf16) {
      const __nv_bfloat16 b = __float2bfloat16_rn(values_host_[i]);
      std::memcpy(&h[i], &b, 2);
    } else {
      const __half b = __float2half_rn(values_host_[i]);
      std::memcpy(&h[i], &b, 2);
    }
  }
  void* d = upload<void>(h.data(), h.size() * 2);
  values_[t] = d;
  return d;
}

DeviceProblem::InputBuffers DeviceProblem::input_buffers(ValueType t) {
  InputBuffers b{scores_, static_cast<size_t>(e_) * heads_ * sizeof(float), const_cast<void*>(values_for(t)),
                 static_cast<size_t>(n_) * heads_ * feat_ * static_cast<size_t>(value_bytes(t)), nullptr,
                 nullptr};
  const auto copy_of = [](const void* from, size_t bytes) {
    void* to = nullptr;
    CSRGAT_CUDA_CHECK(cudaMalloc(&to, std::max<size_t>(bytes, 16)));
    if (const cudaError_t e = cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToDevice); e != cudaSuccess) {
      cudaFree(to);
      CSRGAT_CUDA_CHECK(e);
    }
    return to;
  };
  if (!true_scores_) true_scores_ = copy_of(b.scores, b.scores_bytes);
  void*& tv = true_values_[t];
  if (!tv) tv = copy_of(b.values, b.values_bytes);
  b.true_scores = true_scores_;
  b.true_values = tv;
  return b;
}

void DeviceProblem::poison_output(cudaStream_t s) {
  // 0xFF bytes are a NaN in float32.
  CSRGAT_CUDA_CHECK(cudaMemsetAsync(out_, 0xFF, output_bytes(), s));
}

void DeviceProblem::set_reference(std::vector<double> ref) {
  if (ref.size() != static_cast<size_t>(n_) * heads_ * feat_)
    throw std::invalid_argument("set_reference: " + std::to_string(ref.size()) + " values for " +
                                std::to_string(static_cast<size_t>(n_) * heads_ * feat_) + " outputs");
  device_ref_.reset();
  has_reference_ = false;  // until the new one is in place: never the old one by mistake
  reference_.clear();
  try {
    device_ref_ = std::make_unique<DeviceReference>(ref);
  } catch (const profiler::ApiError& e) {
    // Only a device without room for it falls back to the host check.
    if (std::string(e.what()).find("cudaErrorMemoryAllocation") == std::string::npos) throw;
    cudaGetLastError();
  }
  reference_ = std::move(ref);
  has_reference_ = true;
}

Comparison DeviceProblem::compare_output(double rel_tol) const {
  if (!has_reference_) throw std::logic_error("compare_output: the problem has no reference (set_reference)");
  CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
  if (device_ref_) return device_ref_->compare(out_, static_cast<int>(out_storage_), rel_tol);
  const auto out = download_output();
  return compare_to_reference(out.data(), reference_, rel_tol);
}

std::vector<float> DeviceProblem::download_output() const {
  const size_t n = static_cast<size_t>(n_) * heads_ * feat_;
  std::vector<float> h(n);
  CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
  CSRGAT_CUDA_CHECK(
      cudaMemcpy(h.data(), out_, n * value_bytes(out_storage_), cudaMemcpyDeviceToHost));
  if (out_storage_ != ValueType::f32)
    return widen_output(h.data(), n, static_cast<int>(out_storage_));
  return h;
}

const DeviceProblem::Plan& DeviceProblem::plan_for(int64_t threshold, int per_block) {
  const auto key = std::make_pair(threshold, per_block);
  auto it = plans_.find(key);
  if (it != plans_.end()) return it->second;
  Plan pl;
  const auto chunks = build_split_plan(row_ptr_host_, threshold, per_block);
  pl.num_chunks = static_cast<int64_t>(chunks.size());
  if (!chunks.empty()) {
    pl.chunks = upload<void>(chunks.data(), chunks.size() * sizeof(ChunkDesc));
    const size_t parts = chunks.size() * heads_ * (static_cast<size_t>(feat_) + 2);
    CSRGAT_CUDA_CHECK(cudaMalloc(&pl.partials, parts * sizeof(float)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&pl.counters, chunks.size() * heads_ * sizeof(unsigned)));
    CSRGAT_CUDA_CHECK(cudaMemset(pl.counters, 0, chunks.size() * heads_ * sizeof(unsigned)));
  }
  return plans_.emplace(key, pl).first->second;
}

const void* DeviceProblem::order_for(int64_t split, IndexType t) {
  const auto key = std::make_pair(split, t);
  auto it = orders_.find(key);
  if (it != orders_.end()) return it->second;
  const auto bytes = row_order_bytes(row_ptr_host_, split, t == IndexType::i64);
  return orders_.emplace(key, upload<void>(bytes.data(), bytes.size())).first->second;
}

std::string DeviceProblem::unsupported_reason(const VariantParams& p) const {
  const std::string invalid = p.invalid_reason();
  if (!invalid.empty()) return invalid;
  if (p.index == IndexType::i32 && !fits_i32_) return "graph too large for int32 indices";
  if (p.family == Family::cusparse && p.value != ValueType::f32) return "cusparse: f32 values only";
  if (p.family != Family::fused && out_storage_ != ValueType::f32)
    return std::string(to_string(p.family)) + ": float32 out only (out storage " +
           to_string(out_storage_) + ")";
  if (p.family == Family::fused && p.out_type() != out_storage_)
    return std::string("the problem's out is ") + to_string(out_storage_) +
           ", the variant writes " + to_string(p.out_type()) +
           " (a 16-bit out takes the .o16 kernel of its values' type)";
  if (p.family == Family::colblock) {
    int device = 0;
    CSRGAT_CUDA_CHECK(cudaGetDevice(&device));
    return colblock::unsupported(n_, e_, heads_, feat_, static_cast<int>(p.value), device,
                                 geometry_of(p));
  }
  const int64_t chunks = 0;  // the plan only shortens rows; geometry limits do not depend on it
  const auto g = launch_geometry(p, n_, heads_, feat_, chunks, max_degree_, smem_optin_);
  return g.unsupported;
}

KernelArgs DeviceProblem::base_args(const VariantParams& p) {
  KernelArgs a{};
  const bool i64 = p.index == IndexType::i64;
  a.row_ptr = i64 ? row_ptr64_ : row_ptr32_;
  a.col = i64 ? col64_ : col32_;
  a.scores = scores_;
  a.values = values_for(p.value);
  a.out = out_;
  a.num_rows = n_;
  a.heads = heads_;
  a.feat = feat_;
  slice_args(a, p.launch_slices());  // F / T features a launch (`.fs<T>`)
  a.fault = p.fault;
  a.delay_ns = p.delay_ns;
  a.slow_percent = p.family == Family::fused ? slow_percent_ : 0;
  a.num_edges = e_;
  a.prefetch = p.family == Family::fused ? p.prefetch : 0;
  if (p.family == Family::fused && p.lpt) a.row_order = order_for(p.split, p.index);
  if (p.family == Family::fused && p.split > 0) {
    const int per_block = chunks_per_block(p, heads_);
    const Plan& pl = plan_for(p.split, per_block);
    a.split_threshold = p.split;
    a.num_chunks = pl.num_chunks;
    a.chunks = static_cast<const ChunkDesc*>(pl.chunks);
    a.partials = pl.partials;
    a.counters = pl.counters;
    a.block_merge = per_block > 0;  // only over a packed plan (plan.h)
  }
  return a;
}

void DeviceProblem::launch(const VariantParams& p, const LoadedKernel& k, cudaStream_t s,
                           bool overlap_previous) {
  const std::string why = unsupported_reason(p);
  if (!why.empty()) throw std::invalid_argument(p.id() + ": " + why);
  if (overlap_previous && p.family != Family::fused)
    throw std::invalid_argument(p.id() + ": only the fused family can overlap the previous kernel "
                                "(its kernels wait for it themselves)");
  if (p.family == Family::cusparse) return launch_cusparse(p, k, s);
  if (p.family == Family::colblock) return launch_colblock(p, s);
  KernelArgs a = base_args(p);
  const auto g = launch_geometry(p, n_, heads_, feat_, a.num_chunks, max_degree_, smem_optin_);
  if (g.grid == 0) return;
  if (g.dynamic_smem > 48 * 1024)
    CSRGAT_CUDA_CHECK(cudaFuncSetAttribute(k.function(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(g.dynamic_smem)));
  // Only the fused kernels load values in vectors and have twins; the seed kernel takes any row.
  const void* fn = p.family == Family::fused
                       ? family_kernel_for(a, k.function(), k.scalar_function(), p.vec, value_bytes(p.value))
                       : k.function();
  if (!fn)
    throw std::invalid_argument(p.id() + ": values rows of F = " + std::to_string(feat_) +
                                " are not aligned for its vec " + std::to_string(p.vec) +
                                " loads, and its module has no scalar twin");
  CSRGAT_CUDA_CHECK(launch_family_slices(fn, static_cast<unsigned>(g.grid), g.block, g.dynamic_smem,
                                         s, a, value_bytes(p.value), value_bytes(p.out_type()),
                                         p.launch_slices(), overlap_previous));
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

// The sweep of p's geometry, planned on the device at its first launch (untimed: the timer's
// warm-up launches come first) and kept for the problem's life, like the family's split plans.
void DeviceProblem::launch_colblock(const VariantParams& p, cudaStream_t s) {
  auto it = sweeps_.find(p.id());
  if (it == sweeps_.end()) {
    auto sweep = std::make_unique<colblock::Sweep>(static_cast<const int*>(row_ptr32_),
                                                   static_cast<const int*>(col32_), n_, e_,
                                                   geometry_of(p), static_cast<int>(p.value));
    it = sweeps_.emplace(p.id(), std::move(sweep)).first;
  }
  CSRGAT_CUDA_CHECK(it->second->launch(scores_, values_for(p.value), out_, s));
}

// Segment softmax writes the (H, E) weights; then one cusparseSpMM per head multiplies the
// CSR matrix of that head's weights with the head's (N, F) slice of the values (row-major,
// leading dimension H * F). Algorithm: CUSPARSE_SPMM_CSR_ALG2, cuSPARSE's choice for
// row-major dense operands.
void DeviceProblem::launch_cusparse(const VariantParams& p, const LoadedKernel& k, cudaStream_t s) {
  const bool i64 = p.index == IndexType::i64;
  if (!weights_) CSRGAT_CUDA_CHECK(cudaMalloc(&weights_, std::max<size_t>(e_ * heads_ * 4, 16)));
  if (cusparse_ && cusparse_->index64 != i64) cusparse_.reset();
  if (!cusparse_) {
    auto cs = std::make_unique<Cusparse>();
    cs->index64 = i64;
    CSRGAT_CUSPARSE_CHECK(cusparseCreate(&cs->handle));
    const auto itype = i64 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
    const int64_t ld = static_cast<int64_t>(heads_) * feat_;
    for (int h = 0; h < heads_; ++h) {
      cusparseSpMatDescr_t a;
      CSRGAT_CUSPARSE_CHECK(cusparseCreateCsr(&a, n_, n_, e_, i64 ? row_ptr64_ : row_ptr32_,
                                              i64 ? col64_ : col32_, weights_ + h * e_, itype,
                                              itype, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
      cs->a.push_back(a);
      cusparseDnMatDescr_t b, c;
      CSRGAT_CUSPARSE_CHECK(cusparseCreateDnMat(
          &b, n_, feat_, ld, static_cast<float*>(const_cast<void*>(values_for(ValueType::f32))) + h * feat_,
          CUDA_R_32F, CUSPARSE_ORDER_ROW));
      CSRGAT_CUSPARSE_CHECK(cusparseCreateDnMat(&c, n_, feat_, ld, out_ + h * feat_, CUDA_R_32F,
                                                CUSPARSE_ORDER_ROW));
      cs->b.push_back(b);
      cs->c.push_back(c);
    }
    const float alpha = 1.f, beta = 0.f;
    CSRGAT_CUSPARSE_CHECK(cusparseSpMM_bufferSize(
        cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
        cs->a[0], cs->b[0], &beta, cs->c[0], CUDA_R_32F, CUSPARSE_SPMM_CSR_ALG2, &cs->buffer_size));
    if (cs->buffer_size) CSRGAT_CUDA_CHECK(cudaMalloc(&cs->buffer, cs->buffer_size));
    cusparse_ = std::move(cs);
  }
  KernelArgs a = base_args(p);
  a.out = weights_;
  const auto g = launch_geometry(p, n_, heads_, feat_, 0, max_degree_, smem_optin_);
  void* args[] = {&a};
  if (g.grid > 0)
    CSRGAT_CUDA_CHECK(cudaLaunchKernel(k.function(), dim3(static_cast<unsigned>(g.grid)),
                                       dim3(g.block), args, 0, s));
  CSRGAT_CUDA_CHECK(cudaGetLastError());
  CSRGAT_CUSPARSE_CHECK(cusparseSetStream(cusparse_->handle, s));
  const float alpha = 1.f, beta = 0.f;
  for (int h = 0; h < heads_; ++h)
    CSRGAT_CUSPARSE_CHECK(cusparseSpMM(cusparse_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, cusparse_->a[h],
                                       cusparse_->b[h], &beta, cusparse_->c[h], CUDA_R_32F,
                                       CUSPARSE_SPMM_CSR_ALG2, cusparse_->buffer));
}

profiler::CounterResult collect_counters(profiler::CounterSession& s, Family family,
                                         const profiler::CounterLaunchFn& launch) {
  return family == Family::cusparse ? s.collect_enabled_once(launch) : s.collect(launch);
}

}  // namespace csrgat::tuner
