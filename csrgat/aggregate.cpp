// The production library: the dispatch from a problem's shape to one of the kernels named by
// the tuned config header, and their launch. The kernels are the tuner's own machine code:
// cubins NVRTC compiled at build time with the tuner's options (csrgat_embed_cubins), loaded
// through the runtime API on first use (cudaLibraryLoadData), so production runs the SASS the
// tuner timed. (Until the twenty-fifth session nvcc compiled them here: different SASS, 0-1.4%
// slower on the tuned rules, docs/perf-notes.md.)
#include "csrgat/aggregate.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "csrgat/colblock.h"
#include "csrgat/embedded_cubins.h"
#include "csrgat/error_state.h"
#include "csrgat/fallback.h"
#include "csrgat/type_codes.h"
#include "variants/arch.h"
#include "variants/launch.h"
#include "variants/params.h"
#include "variants/plan.h"

#ifndef CSRGAT_TUNED_HEADER
#define CSRGAT_TUNED_HEADER "csrgat/tuned/default.h"
#endif
#include CSRGAT_TUNED_HEADER

namespace csrgat {
namespace {
// This thread's latest failure (last_error_message(), last_cuda_error()).
thread_local std::string t_last_error;
thread_local cudaError_t t_last_cuda_error = cudaSuccess;
// The name this thread's public entries put on their failures instead of their own (EntryName).
thread_local const char* t_entry_name = nullptr;
}  // namespace

namespace detail {
Status record_failure(Status s, const char* what, const char* more, cudaError_t e) noexcept {
  t_last_cuda_error = e;
  try {
    t_last_error = what;
    t_last_error += more;
  } catch (const std::exception&) {  // no memory for the text: a short one (no allocation)
    t_last_error.clear();
    t_last_error.shrink_to_fit();
    t_last_error = "out of memory";  // within the string's own buffer
  }
  return s;
}
Status record_failure(Status s, const std::string& what, cudaError_t e) noexcept {
  return record_failure(s, what.c_str(), "", e);
}
Status name_failure(const char* where, Status st) noexcept {
  if (st != Status::ok) {
    try {
      t_last_error.insert(0, std::string(where) + ": ");
    } catch (const std::exception&) {  // the text without its prefix
    }
  }
  return st;
}
EntryName::EntryName(const char* name) noexcept : previous_(t_entry_name) {
  t_entry_name = name;
}
EntryName::~EntryName() {
  t_entry_name = previous_;
}
}  // namespace detail

namespace {

Status failed(Status s, const std::string& what, cudaError_t e = cudaSuccess) noexcept {
  return detail::record_failure(s, what, e);
}
Status invalid(const std::string& what) {
  return failed(Status::invalid_argument, what);
}
Status unsupported(const std::string& what) {
  return failed(Status::unsupported, what);
}
// Status::cuda_error for a failed CUDA call e made for `what`, kept for last_cuda_error(); the
// runtime's own last error is taken too, so that it does not surface in the caller's next check.
Status cuda_failed(cudaError_t e, const std::string& what) {
  cudaGetLastError();
  return failed(Status::cuda_error,
                what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")", e);
}
// A public entry point's status: a failure's text gets the entry's name in front (or the name
// a detail::EntryName gave this thread: the C function called).
Status at(const char* where, Status st) noexcept {
  return detail::name_failure(t_entry_name ? t_entry_name : where, st);
}
// A public entry's body: its status, with the entry's name on a failure's text, and any
// exception (a host allocation: a plan, a message) as Status::host_error, so that none leaves
// the library (the header's promise, and the C interface's boundary).
template <class Fn>
Status entry(const char* where, Fn&& body) noexcept {
  try {
    return at(where, body());
  } catch (const std::exception& e) {
    return at(where, detail::record_failure(Status::host_error, "on the host: ", e.what()));
  } catch (...) {
    return at(where, detail::record_failure(Status::host_error, "on the host: ", "an exception"));
  }
}

std::string str(int64_t v) {
  return std::to_string(v);
}
std::string ptr_str(const void* p) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", p);
  return b;
}
// The family's names and sizes of the API's types (variants/params.h), for values checked valid.
const char* storage_name(Storage s) {
  return to_string(value_type_of(s));
}
const char* index_name(Index i) {
  return to_string(index_type_of(i));
}
int storage_bytes(Storage s) {
  return value_bytes(value_type_of(s));
}
bool aligned_to(const void* p, int bytes) {
  return reinterpret_cast<uintptr_t>(p) % bytes == 0;
}
// invalid_argument unless the device pointer `name` is non-null and aligned to `bytes`.
Status check_pointer(const void* p, const char* name, int bytes, const char* type) {
  if (!p) return invalid(std::string(name) + " is null");
  if (!aligned_to(p, bytes))
    return invalid(std::string(name) + " (" + ptr_str(p) +
                   ") is not aligned to its element type (" + type + ", " + str(bytes) + " bytes)");
  return Status::ok;
}

struct KernelEntry {
  int slot;  // its code: embedded::kKernels[slot]
  int vec;
  int tpr, rpb;
  bool lpt;   // row tasks follow a row order (Shape builds it)
  bool sliced;  // compiled for feature slices (SLICED): only `.fs<T>` rules may name it
  int value;  // 0 f32, 1 bf16, 2 f16
  int index;  // 0 int32, 1 int64
};
template <class T>
constexpr int value_code() {
  return std::is_same_v<T, float> ? 0 : std::is_same_v<T, __nv_bfloat16> ? 1 : 2;
}
template <class T>
constexpr int index_code() {
  return std::is_same_v<T, long long> ? 1 : 0;
}

// The header's kernels, in its order (the embedded table's first entries).
#define CSRGAT_ENTRY(name, TPR, FL, RPB, VEC, TILES, EPL, ILP, MINB, SMEM, ONLINE, LPT, SLICED, IDX, VAL) \
  KernelEntry{-1, VEC, TPR, RPB, LPT != 0, SLICED != 0, value_code<VAL>(), index_code<IDX>()},
const KernelEntry kHeaderKernels[] = {CSRGAT_TUNED_KERNELS(CSRGAT_ENTRY)};
#undef CSRGAT_ENTRY
constexpr int kNumHeaderKernels = static_cast<int>(std::size(kHeaderKernels));

struct Tables {
  std::vector<KernelEntry> tuned;  // kHeaderKernels with their slots
  KernelEntry fallback[3][2];      // after them in the embedded table (kFallbackIds' order)
  // The `.o16` twin of each 16-bit-values kernel above (the same kernel storing out in the
  // values' type), after them in the embedded table in the same order (header kernels, then
  // fallbacks: csrgat_embed_cubins): twin[slot], -1 for a float32-values kernel.
  std::vector<int> twin;
  // The twins' variant ids (a rule's or fallback's id and ".o16"), made once: a 16-bit-out call
  // names its kernel without building a string.
  std::vector<std::string> rule_o16;
  std::string fallback_o16[3][2];
  Tables() {
    for (const auto& r : tuned::kRules) rule_o16.push_back(std::string(r.variant_id) + ".o16");
    for (int v = 0; v < 3; ++v)
      for (int i = 0; i < 2; ++i) fallback_o16[v][i] = std::string(kFallbackIds[v][i]) + ".o16";
    for (int k = 0; k < kNumHeaderKernels; ++k) {
      tuned.push_back(kHeaderKernels[k]);
      tuned.back().slot = k;
    }
    for (int v = 0; v < 3; ++v)
      for (int i = 0; i < 2; ++i) {
        const VariantParams p = VariantParams::parse(kFallbackIds[v][i]);
        fallback[v][i] = KernelEntry{kNumHeaderKernels + 2 * v + i, p.vec, p.tpr, p.rpb, p.lpt != 0,
                                     p.slices > 1, v, i};
      }
    twin.assign(kNumHeaderKernels + 6, -1);
    int next = kNumHeaderKernels + 6;
    for (const KernelEntry& e : tuned)
      if (e.value != 0) twin[e.slot] = next++;
    for (int v = 1; v < 3; ++v)
      for (int i = 0; i < 2; ++i) twin[fallback[v][i].slot] = next++;
  }
  // e's `.o16` twin (slot -1, which load_kernel refuses, for a float32-values kernel).
  KernelEntry out16_twin(const KernelEntry& e) const {
    KernelEntry t = e;
    t.slot = e.slot >= 0 && e.slot < static_cast<int>(twin.size()) ? twin[e.slot] : -1;
    return t;
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// A kernel's code on the current device: its embedded cubin for the device's architecture,
// loaded once per (kernel, architecture) and kept for the process's life.
struct KernelFns {
  const void* vector = nullptr;
  const void* scalar = nullptr;  // its scalar twin, for values rows not vec-aligned
};
int device_arch(cudaError_t* err) {
  int dev = 0, major = 0, minor = 0;
  *err = cudaGetDevice(&dev);
  if (*err == cudaSuccess) *err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  if (*err == cudaSuccess) *err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
  return 10 * major + minor;
}
Status load_kernel(const KernelEntry& e, KernelFns* out) {
  static std::mutex m;
  static std::map<std::pair<int, int>, KernelFns> loaded;
  cudaError_t err;
  const int arch = device_arch(&err);
  if (err != cudaSuccess) return cuda_failed(err, "asking the current device's architecture");
  std::lock_guard<std::mutex> lock(m);
  const auto key = std::make_pair(e.slot, arch);
  if (auto it = loaded.find(key); it != loaded.end()) {
    *out = it->second;
    return Status::ok;
  }
  if (e.slot < 0 || e.slot >= embedded::kNumKernels)
    return unsupported("no compiled kernel in the library's table for slot " + str(e.slot));
  const embedded::Kernel& k = embedded::kKernels[e.slot];
  // The cubin of the device's own capability, else the latest one of its major's that runs on
  // it (sm_80 on 8.6, sm_100f on 10.3; sm_90a on 9.0 alone).
  const embedded::Cubin* c = nullptr;
  for (const auto& cb : k.cubins)
    if (arch_runs_on(ArchTarget{cb.arch, cb.suffix}, arch / 10, arch % 10) &&
        (!c || cb.arch > c->arch))
      c = &cb;
  if (!c)  // built without this architecture (compiled_archs)
    return unsupported("the library carries no machine code for this device (sm_" + str(arch) +
                       "); it was built for " + embedded::kArchList);
  cudaLibrary_t lib;
  if (const cudaError_t le = cudaLibraryLoadData(&lib, c->begin, nullptr, nullptr, 0, nullptr, nullptr, 0);
      le != cudaSuccess)
    return cuda_failed(le, std::string("loading the cubin of ") + k.name);
  KernelFns f;
  cudaKernel_t kv, ks;
  cudaError_t ge = cudaLibraryGetKernel(&kv, lib, k.lowered);
  f.vector = reinterpret_cast<const void*>(kv);
  if (ge == cudaSuccess && k.scalar_lowered[0] != '\0') {
    ge = cudaLibraryGetKernel(&ks, lib, k.scalar_lowered);
    f.scalar = reinterpret_cast<const void*>(ks);
  }
  if (ge != cudaSuccess) {  // a build whose names do not match its cubins: nothing kept loaded
    cudaLibraryUnload(lib);
    return cuda_failed(ge, std::string("finding ") + k.name + " in its cubin");
  }
  loaded.emplace(key, f);
  *out = f;
  return Status::ok;
}

struct Choice {
  const KernelEntry* kernel;
  int64_t split;
  const char* id;
  const char* id_o16;  // the `.o16` twin's (Tables::rule_o16, fallback_o16)
  int prefetch;
  int block_merge;  // split rows merge inside their block (the plan packs them: Shape::create)
  int slices;       // launches, each on F / slices features (`.fs<T>`; 1: one launch)
  // The rule's column-blocked sweep (rows 0: none), which a Shape with the graph's device arrays
  // plans and runs instead of `kernel`.
  colblock::Geometry colblock{0, 0, 0};
  const char* colblock_id = "";
};

// First tuned rule that matches. Without a Shape the graph's mean degree is its only degree
// statistic (max-degree bounds are skipped) and the rule's split and block merge are not
// applied: its kernel takes every row whole (and in index order: there is no row order).
Choice choose(int value, int index, int heads, int feat, int64_t nodes, double mean_deg,
              int64_t max_deg, bool have_shape) {
  for (const auto& r : tuned::kRules) {
    if (r.value != value || r.index != index) continue;
    if (feat < r.feat_min || feat > r.feat_max || heads < r.heads_min || heads > r.heads_max) continue;
    if (mean_deg < r.mean_degree_min || mean_deg >= r.mean_degree_max) continue;
    if (nodes < r.nodes_min || nodes >= r.nodes_max) continue;
    if (have_shape && (max_deg < r.max_degree_min || max_deg >= r.max_degree_max)) continue;
    if (r.kernel < 0 || r.kernel >= kNumHeaderKernels) continue;
    const KernelEntry& k = tables().tuned[r.kernel];
    if (k.value != value || k.index != index) continue;
    // A sliced kernel for slices > 1 only (a header edited by hand could pair them wrongly: the
    // kernel would take the slice for the row), and F that the slices suit (launch.h).
    if ((r.slices > 1) != k.sliced || !slices_fit(r.slices, k.vec, feat)) continue;
    Choice c{&k,
             have_shape ? r.split : 0,
             r.variant_id,
             tables().rule_o16[static_cast<size_t>(&r - std::begin(tuned::kRules))].c_str(),
             r.prefetch,
             have_shape ? r.block_merge : 0,
             r.slices};
    if (r.colblock_rows > 0) {
      c.colblock = colblock::rule_geometry(r);
      c.colblock_id = r.colblock_id;
    }
    return c;
  }
  return {&tables().fallback[value][index],
          0,
          kFallbackIds[value][index],
          tables().fallback_o16[value][index].c_str(),
          0,
          0,
          1};
}

int code(Storage s) {
  return static_cast<int>(value_type_of(s));
}
int code(Index i) {
  return static_cast<int>(index_type_of(i));
}

// With 32-bit indices a values row's stride H * F must fit the kernels' 32-bit row offsets.
bool row_stride_fits(Index index, int heads, int feat) {
  return index != Index::i32 || row_stride_fits_32bit(heads, feat);
}

// The checks of a problem's sizes and enum values that need neither its arrays nor the GPU
// (invalid_argument), as aggregate(), Shape::create and dispatch_variant() make them. The
// kernels' 32-bit limits come after every invalid_argument check (check_limits).
Status check_sizes(int64_t nodes, int heads, int feat, Storage storage, Index index) {
  if (nodes < 0) return invalid("num_nodes = " + str(nodes) + " is negative");
  if (heads < 1) return invalid("heads = " + str(heads) + ": at least 1");
  if (feat < 1) return invalid("feat = " + str(feat) + ": at least 1");
  if (!is_valid(storage))
    return invalid("storage = " + str(static_cast<int>(storage)) +
                   " is not a csrgat::Storage (f32 0, bf16 1, f16 2)");
  if (!is_valid(index))
    return invalid("index = " + str(static_cast<int>(index)) +
                   " is not a csrgat::Index (i32 0, i64 1)");
  return Status::ok;
}
Status check_sizes(const GraphView& g, Storage storage, int heads, int feat) {
  if (const Status st = check_sizes(g.num_nodes, heads, feat, storage, g.index); st != Status::ok)
    return st;
  if (g.num_edges < 0) return invalid("num_edges = " + str(g.num_edges) + " is negative");
  if (g.num_nodes == 0 && g.num_edges != 0)
    return invalid("num_nodes = 0 with num_edges = " + str(g.num_edges) +
                   ": an empty graph's row_ptr ends at 0");
  if (g.index == Index::i32 && g.num_edges > std::numeric_limits<int32_t>::max())
    return invalid("num_edges = " + str(g.num_edges) +
                   " with Index::i32: an int32 row_ptr holds at most 2^31 - 1 (use Index::i64)");
  return Status::ok;
}
// The graph's device arrays as pointers (not their contents): present where the graph has rows
// (row_ptr) and edges (col), aligned to their index type.
Status check_graph_arrays(const GraphView& g) {
  if (g.num_nodes == 0) return Status::ok;
  const int ib = index_bytes(index_type_of(g.index));
  if (const Status st = check_pointer(g.row_ptr, "graph.row_ptr", ib, index_name(g.index));
      st != Status::ok)
    return st;
  if (g.num_edges == 0) return Status::ok;
  return check_pointer(g.col, "graph.col", ib, index_name(g.index));
}
// The kernels' 32-bit limits (unsupported): the task count ((num_nodes + the long rows'
// chunks) x heads), checked first where a host row_ptr is read (its N + 1 entries), and a
// values row's stride.
Status check_tasks(int64_t nodes, int heads, int64_t chunks = 0) {
  if (tasks_fit_32bit(nodes, chunks, heads)) return Status::ok;
  if (chunks > 0)
    return unsupported(
        "(num_nodes + the long rows' chunks) x heads reaches 2^31: the kernels number their "
        "tasks in 32 bits");
  return unsupported("num_nodes x heads = " + str(nodes) + " x " + str(heads) +
                     " reaches 2^31: the kernels number their tasks in 32 bits");
}
Status check_limits(int64_t nodes, int heads, int feat, Index index) {
  if (feat > kMaxFeat)
    return unsupported("feat = " + str(feat) +
                       " exceeds 2^30: the kernels count a row's features in 32 bits");
  if (!row_stride_fits(index, heads, feat))
    return unsupported("heads x feat = " + str(int64_t{heads} * feat) +
                       " reaches 2^31: with Index::i32 a values row's stride is a 32-bit operand "
                       "of the kernels (Index::i64 takes it)");
  return check_tasks(nodes, heads);
}

}  // namespace

struct Shape::Impl {
  int device = -1;  // the device it was created on: its buffers' and its kernel's
  int64_t nodes = 0, edges = 0, max_deg = 0;
  double mean_deg = 0;
  int heads = 1, feat = 0;
  int value = 0, index = 0;
  Choice choice{};
  KernelFns fns;  // choice's kernel on the device the Shape was created on
  int64_t num_chunks = 0;
  int chunks_per_block = 0;  // the plan's packing (plan.h); > 0: launched with block merges
  ChunkDesc* chunks = nullptr;
  float* partials = nullptr;
  unsigned* counters = nullptr;
  void* row_order = nullptr;  // `.lpt` variants: (N) Index, build_row_order
  // The rule's column-blocked sweep, planned for the graph's device arrays (Shape::create from a
  // GraphView), or null: choice.kernel runs.
  std::unique_ptr<colblock::Sweep> sweep;
  const char* id() const { return sweep ? choice.colblock_id : choice.id; }
  // Whether the sweep runs for g: it holds one, planned for g's arrays.
  bool sweeps(const GraphView& g) const {
    return sweep && g.row_ptr == sweep->row_ptr() && g.col == sweep->col();
  }
  ~Impl() {
    cudaFree(chunks);
    cudaFree(partials);
    cudaFree(counters);
    cudaFree(row_order);
  }
};

Shape::Shape() = default;
Shape::~Shape() = default;
Shape::Shape(Shape&&) noexcept = default;
Shape& Shape::operator=(Shape&&) noexcept = default;
int64_t Shape::max_degree() const { return impl_ ? impl_->max_deg : 0; }
double Shape::mean_degree() const { return impl_ ? impl_->mean_deg : 0; }
const char* Shape::variant_id() const { return impl_ ? impl_->id() : ""; }

const char* status_string(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::invalid_argument: return "invalid argument";
    case Status::unsupported: return "unsupported";
    case Status::cuda_error: return "CUDA error";
    case Status::host_error: return "host error";
  }
  return "unknown status";
}

namespace {

// Copies host bytes to device memory and zeroes device memory on a stream of the library's own,
// and waits for both: a Shape's buffers are complete when create() returns, whatever stream
// the caller launches on (the legacy default stream's cudaMemcpy from pageable memory and
// cudaMemset may still be in flight then, and a non-blocking stream does not wait for them).
class Uploads {
 public:
  Uploads() = default;
  ~Uploads() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  Uploads(const Uploads&) = delete;
  Uploads& operator=(const Uploads&) = delete;
  void copy(void* dst, const void* src, size_t bytes) {
    if (ready()) err_ = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_);
  }
  void zero(void* dst, size_t bytes) {
    if (ready()) err_ = cudaMemsetAsync(dst, 0, bytes, stream_);
  }
  // The first failure, after waiting for what was enqueued (the host buffers may go then).
  cudaError_t finish() {
    if (stream_) {
      const cudaError_t e = cudaStreamSynchronize(stream_);
      if (err_ == cudaSuccess) err_ = e;
    }
    return err_;
  }

 private:
  // The stream, made on first use (a Shape with nothing to upload makes none); false after a
  // failure.
  bool ready() {
    if (err_ == cudaSuccess && !stream_) err_ = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    return err_ == cudaSuccess;
  }
  cudaStream_t stream_ = nullptr;
  cudaError_t err_ = cudaSuccess;
};

Status create_shape(const int64_t* host_row_ptr, int64_t num_nodes, int heads, int feat,
                    Storage storage, Index index, Shape::Impl* impl) {
  // The task count before reading N + 1 entries of row_ptr (a graph too large for the kernels'
  // 32-bit tasks is refused without touching it); the other limit after row_ptr's checks.
  if (const Status st = check_tasks(num_nodes, heads); st != Status::ok) return st;
  impl->nodes = num_nodes;
  impl->edges = host_row_ptr[num_nodes];
  impl->heads = heads;
  impl->feat = feat;
  impl->value = code(storage);
  impl->index = code(index);
  // A CSR row_ptr: from 0, never decreasing (so every entry lies in [0, E]).
  if (host_row_ptr[0] != 0)
    return invalid("host_row_ptr[0] = " + str(host_row_ptr[0]) + ": a CSR row_ptr starts at 0");
  for (int64_t r = 0; r < num_nodes; ++r) {
    // Compared before the difference is taken: {0, 5, INT64_MIN} would overflow it.
    if (host_row_ptr[r + 1] < host_row_ptr[r])
      return invalid("host_row_ptr[" + str(r + 1) + "] = " + str(host_row_ptr[r + 1]) +
                     " is below host_row_ptr[" + str(r) + "] = " + str(host_row_ptr[r]) +
                     ": a CSR row_ptr never decreases");
    impl->max_deg = std::max(impl->max_deg, host_row_ptr[r + 1] - host_row_ptr[r]);
  }
  if (index == Index::i32 && impl->edges > std::numeric_limits<int32_t>::max())
    return invalid("host_row_ptr[num_nodes] = " + str(impl->edges) +
                   " edges with Index::i32: an int32 row_ptr holds at most 2^31 - 1");
  if (const Status st = check_limits(num_nodes, heads, feat, index); st != Status::ok) return st;
  // The host's checks first: the device is asked for only once they pass.
  if (const cudaError_t e = cudaGetDevice(&impl->device); e != cudaSuccess)
    return cuda_failed(e, "asking the current device");
  impl->mean_deg = num_nodes ? static_cast<double>(impl->edges) / num_nodes : 0;
  impl->choice = choose(impl->value, impl->index, heads, feat, num_nodes, impl->mean_deg,
                        impl->max_deg, true);
  if (const Status st = load_kernel(*impl->choice.kernel, &impl->fns); st != Status::ok) return st;
  const int64_t split_at = impl->choice.split;
  const bool split = split_at > 0 && impl->max_deg > split_at;
  const bool lpt = impl->choice.kernel->lpt && num_nodes > 0;
  Uploads up;
  // The host planners take row_ptr as a vector: one copy serves both.
  std::vector<int64_t> rp;
  if (split || lpt) rp.assign(host_row_ptr, host_row_ptr + num_nodes + 1);
  std::vector<ChunkDesc> plan;
  if (split) {
    impl->chunks_per_block = chunks_per_block(impl->choice.block_merge, impl->choice.kernel->tpr,
                                              impl->choice.kernel->rpb, heads);
    // Refused before it is built: neither its 32-bit chunk numbers nor the tasks may overflow.
    if (const Status st = check_tasks(num_nodes, heads,
                                      split_plan_size_bound(rp, split_at, impl->chunks_per_block));
        st != Status::ok)
      return st;
    plan = build_split_plan(rp, split_at, impl->chunks_per_block);
    impl->num_chunks = static_cast<int64_t>(plan.size());
    const size_t parts = plan.size() * heads * (static_cast<size_t>(feat) + 2);
    const size_t counters = plan.size() * heads * sizeof(unsigned);
    if (const cudaError_t e = cudaMalloc(&impl->chunks, plan.size() * sizeof(ChunkDesc)); e != cudaSuccess)
      return cuda_failed(e, "allocating the long rows' split plan (" +
                                str(static_cast<int64_t>(plan.size() * sizeof(ChunkDesc))) +
                                " bytes)");
    if (const cudaError_t e = cudaMalloc(&impl->partials, parts * sizeof(float)); e != cudaSuccess)
      return cuda_failed(e, "allocating the split rows' partial sums (" +
                                str(static_cast<int64_t>(parts * sizeof(float))) + " bytes)");
    if (const cudaError_t e = cudaMalloc(&impl->counters, counters); e != cudaSuccess)
      return cuda_failed(e, "allocating the split rows' merge counters (" +
                                str(static_cast<int64_t>(counters)) + " bytes)");
    up.copy(impl->chunks, plan.data(), plan.size() * sizeof(ChunkDesc));
    up.zero(impl->counters, counters);
  }
  std::vector<unsigned char> order;
  if (lpt) {
    // Rows the kernel skips (done as chunks) go last, as in the tuner's DeviceProblem.
    order = row_order_bytes(rp, impl->num_chunks > 0 ? split_at : 0, impl->index == 1);
    if (const cudaError_t e = cudaMalloc(&impl->row_order, order.size()); e != cudaSuccess)
      return cuda_failed(
          e, "allocating the row order (" + str(static_cast<int64_t>(order.size())) + " bytes)");
    up.copy(impl->row_order, order.data(), order.size());
  }
  if (const cudaError_t e = up.finish(); e != cudaSuccess)
    return cuda_failed(e, "uploading the Shape's plan");
  return Status::ok;
}

// Shape::create's checks and build, into a new Impl (*out on ok).
Status make_shape(const int64_t* host_row_ptr, int64_t num_nodes, int heads, int feat,
                  Storage storage, Index index, std::shared_ptr<Shape::Impl>* out) {
  if (!host_row_ptr) return invalid("host_row_ptr is null");
  if (const Status st = check_sizes(num_nodes, heads, feat, storage, index); st != Status::ok)
    return st;
  try {
    auto impl = std::make_shared<Shape::Impl>();
    if (const Status st = create_shape(host_row_ptr, num_nodes, heads, feat, storage, index, impl.get());
        st != Status::ok)
      return st;  // ~Impl frees what was allocated
    *out = std::move(impl);
    return Status::ok;
  } catch (const std::exception& e) {  // a host allocation (row_ptr's copy, the plan)
    return detail::record_failure(Status::host_error,
                                  "building the Shape's plan on the host: ", e.what());
  }
}

}  // namespace

namespace detail {
// The library's access to a Shape's state (aggregate.h keeps it private).
struct ShapeAccess {
  static const std::shared_ptr<const Shape::Impl>& impl(const Shape& s) { return s.impl_; }
};
}  // namespace detail

Status Shape::create(const int64_t* host_row_ptr, int64_t num_nodes, int heads, int feat,
                     Storage storage, Index index, Shape* out) {
  return entry("Shape::create", [&] {
    if (!out) return invalid("out is null");
    out->impl_.reset();
    std::shared_ptr<Impl> impl;
    if (const Status st = make_shape(host_row_ptr, num_nodes, heads, feat, storage, index, &impl);
        st != Status::ok)
      return st;
    out->impl_ = std::move(impl);
    return Status::ok;
  });
}

namespace {

// The rule's column-blocked sweep for a Shape made from the graph's device arrays: planned when
// the rule names one and the sweep can take the problem; a plan that does not fit in device
// memory leaves the Shape on the rule's family kernel.
Status plan_sweep(const GraphView& g, Shape::Impl* impl) {
  const colblock::Geometry& geo = impl->choice.colblock;
  if (geo.rows_per_warp <= 0 || g.index != Index::i32 || !g.row_ptr || (g.num_edges > 0 && !g.col))
    return Status::ok;
  try {
    if (!colblock::unsupported(g.num_nodes, g.num_edges, impl->heads, impl->feat, impl->value,
                               impl->device, geo)
             .empty())
      return Status::ok;
    impl->sweep = std::make_unique<colblock::Sweep>(static_cast<const int*>(g.row_ptr),
                                                    static_cast<const int*>(g.col), g.num_nodes,
                                                    g.num_edges, geo, impl->value);
  } catch (const colblock::CudaFailure& e) {
    if (e.error != cudaErrorMemoryAllocation)
      return cuda_failed(e.error, std::string("planning the column-blocked sweep: ") + e.what());
    cudaGetLastError();  // out of memory: the family kernel runs
  } catch (const colblock::Unsupported&) {  // a device limit (no block fits): the family kernel
  } catch (const std::invalid_argument& e) {  // the plan found a bad column or row_ptr
    return invalid(e.what());
  }
  return Status::ok;
}

}  // namespace

Status Shape::create(const GraphView& graph, const int64_t* host_row_ptr, int heads, int feat,
                     Storage storage, Shape* out) {
  return entry("Shape::create", [&] {
    if (!out) return invalid("out is null");
    out->impl_.reset();
    if (const Status st = check_sizes(graph, storage, heads, feat); st != Status::ok) return st;
    // The graph's device arrays are what this form is for (a sweep plans from them).
    if (const Status st = check_graph_arrays(graph); st != Status::ok) return st;
    if (!host_row_ptr) return invalid("host_row_ptr is null");
    // The task count before host_row_ptr[N] is read (N = 2^40 is refused, not read).
    if (const Status st = check_tasks(graph.num_nodes, heads); st != Status::ok) return st;
    if (host_row_ptr[graph.num_nodes] != graph.num_edges)
      return invalid("host_row_ptr[num_nodes] = " + str(host_row_ptr[graph.num_nodes]) +
                     " is not graph.num_edges = " + str(graph.num_edges));
    std::shared_ptr<Impl> impl;
    if (const Status st =
            make_shape(host_row_ptr, graph.num_nodes, heads, feat, storage, graph.index, &impl);
        st != Status::ok)
      return st;
    try {
      if (const Status st = plan_sweep(graph, impl.get()); st != Status::ok) return st;
    } catch (const std::exception& e) {  // a host allocation
      return detail::record_failure(Status::host_error,
                                    "planning the column-blocked sweep: ", e.what());
    }
    out->impl_ = std::move(impl);
    return Status::ok;
  });
}

namespace {

// The Shape given to a call (null: none) against the call's problem: *s its state. An empty
// Shape is refused, not taken for none.
Status check_shape(const Shape* shape, const GraphView& g, Storage storage, int heads, int feat,
                   const Shape::Impl** s) {
  *s = nullptr;
  if (!shape) return Status::ok;
  *s = detail::ShapeAccess::impl(*shape).get();
  const Shape::Impl* i = *s;
  if (!i) return invalid("shape is empty (never created, moved from, or left by a failed create)");
  if (i->nodes != g.num_nodes || i->edges != g.num_edges || i->heads != heads || i->feat != feat ||
      i->value != code(storage) || i->index != code(g.index)) {
    const auto problem = [](int64_t n, int64_t e, int h, int f, const char* v, const char* x) {
      return "N = " + str(n) + ", E = " + str(e) + ", H = " + str(h) + ", F = " + str(f) + ", " +
             v + ", " + x;
    };
    return invalid(
        "shape was made for " +
        problem(i->nodes, i->edges, i->heads, i->feat, to_string(static_cast<ValueType>(i->value)),
                to_string(static_cast<IndexType>(i->index))) +
        ", the call is " +
        problem(g.num_nodes, g.num_edges, heads, feat, storage_name(storage), index_name(g.index)));
  }
  return Status::ok;
}

}  // namespace

const char* dispatch_variant(const GraphView& g, Storage storage, int heads, int feat,
                             const Shape* shape) {
  // A problem aggregate() refuses by its graph, sizes or Shape has no variant.
  const char* id = "";
  entry("dispatch_variant", [&] {
    const Shape::Impl* s = nullptr;
    Status st = check_sizes(g, storage, heads, feat);
    if (st == Status::ok) st = check_graph_arrays(g);
    if (st == Status::ok) st = check_shape(shape, g, storage, heads, feat, &s);
    if (st == Status::ok) st = check_limits(g.num_nodes, heads, feat, g.index);
    if (st != Status::ok) return st;
    if (s) {  // the sweep only for the arrays it planned
      id = s->sweeps(g) ? s->choice.colblock_id : s->choice.id;
    } else {
      const double mean = g.num_nodes ? static_cast<double>(g.num_edges) / g.num_nodes : 0;
      id = choose(code(storage), code(g.index), heads, feat, g.num_nodes, mean, 0, false).id;
    }
    return Status::ok;
  });
  return id;
}

namespace {

// A launch, its arguments bound: what aggregate() enqueues and a Call keeps. fn is null for an
// empty graph (nothing to launch).
struct PreparedLaunch {
  const void* fn = nullptr;
  unsigned grid = 0, block = 0;
  KernelArgs args{};  // of slice 0 when slices > 1 (slice_args)
  int slices = 1;
  int value_bytes = 4;
  int out_bytes = 4;  // 2: a `.o16` kernel's 16-bit out
  bool overlap_previous = false;
  const char* variant_id = "";
  int device = -1;  // where its buffers are (the current device at prepare)
  // The Shape's column-blocked sweep, launched instead of fn over these buffers (null: fn).
  const colblock::Sweep* sweep = nullptr;
  // A Call's share of its Shape (its plan, workspace and sweep, which args and sweep point
  // into): kept alive for the Call whatever becomes of the Shape. aggregate() leaves it null
  // (its Shape outlives the call).
  std::shared_ptr<const Shape::Impl> shape;
  const float* scores = nullptr;
  const void* values = nullptr;
  float* out = nullptr;
};

bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

// aggregate()'s argument checks, every invalid_argument before any unsupported: sizes and enum
// values, the arrays as pointers (null, alignment; an empty graph's are not read), the Shape,
// then the kernels' limits and the out type. *s: the Shape's state (null: none).
Status check_call(const GraphView& g, const float* scores, const void* values, Storage storage,
                  int heads, int feat, const Output& output, const Shape* shape,
                  const Shape::Impl** s) {
  if (const Status st = check_sizes(g, storage, heads, feat); st != Status::ok) return st;
  if (!is_valid(output.storage))
    return invalid("out.storage = " + str(static_cast<int>(output.storage)) +
                   " is not a csrgat::Storage (f32 0, bf16 1, f16 2)");
  if (g.num_nodes > 0) {
    if (const Status st = check_graph_arrays(g); st != Status::ok) return st;
    if (g.num_edges > 0)
      if (const Status st = check_pointer(scores, "scores", 4, "float32"); st != Status::ok)
        return st;
    if (const Status st =
            check_pointer(values, "values", storage_bytes(storage), storage_name(storage));
        st != Status::ok)
      return st;
    if (const Status st = check_pointer(output.data, "out", storage_bytes(output.storage),
                                        storage_name(output.storage));
        st != Status::ok)
      return st;
  }
  if (const Status st = check_shape(shape, g, storage, heads, feat, s); st != Status::ok) return st;
  if (const Status st = check_limits(g.num_nodes, heads, feat, g.index); st != Status::ok)
    return st;
  // 16-bit out in the values' own type only (the rule's kernel as its `.o16` twin).
  if (output.storage != Storage::f32 && output.storage != storage)
    return unsupported(std::string("out.storage ") + storage_name(output.storage) + " with " +
                       storage_name(storage) +
                       " values: a 16-bit out is stored in the values' own type only");
  return Status::ok;
}

// aggregate()'s checks and dispatch, up to the launch, into a fresh (value-initialized) *p.
Status prepare_launch(const GraphView& g, const float* scores, const void* values, Storage storage,
                      int heads, int feat, const Output& output, const Shape* shape,
                      const LaunchOptions& launch, PreparedLaunch* p) {
  const Shape::Impl* s = nullptr;
  if (const Status st = check_call(g, scores, values, storage, heads, feat, output, shape, &s);
      st != Status::ok)
    return st;
  if (g.num_nodes == 0) return Status::ok;
  const bool out16 = output.storage != Storage::f32;
  void* const out = output.data;
  if (const cudaError_t e = cudaGetDevice(&p->device); e != cudaSuccess)
    return cuda_failed(e, "asking the current device");
  if (s && s->device != p->device)  // its buffers are elsewhere
    return invalid("the current device is " + str(p->device) + ", the Shape was made on device " +
                   str(s->device));
  // The sweep writes float32 only: 16-bit out takes the rule's kernel of the family.
  if (s && s->sweeps(g) && !out16 && aligned16(values) && aligned16(out)) {
    p->sweep = s->sweep.get();
    p->scores = scores;
    p->values = values;
    p->out = static_cast<float*>(out);
    p->variant_id = s->choice.colblock_id;
    return Status::ok;
  }
  const double mean = static_cast<double>(g.num_edges) / g.num_nodes;
  const Choice c = s ? s->choice
                     : choose(code(storage), code(g.index), heads, feat, g.num_nodes, mean, 0, false);
  KernelArgs& a = p->args;
  a.row_ptr = g.row_ptr;
  a.col = g.col;
  a.scores = scores;
  a.values = values;
  a.out = out;
  a.num_rows = g.num_nodes;
  a.heads = heads;
  a.feat = feat;
  slice_args(a, c.slices);  // a `.fs<T>` rule: F / T features a launch
  a.num_edges = g.num_edges;
  a.prefetch = c.prefetch;
  if (s) a.row_order = s->row_order;
  if (s && s->num_chunks > 0) {
    a.split_threshold = c.split;
    a.num_chunks = s->num_chunks;
    a.chunks = s->chunks;
    a.partials = s->partials;
    a.counters = s->counters;
    // Only over a plan packed for it (plan.h): a `.bm` rule at heads that leave no whole
    // block of chunks (RPB / H < 2 or not whole) launches without block merges.
    a.block_merge = s->chunks_per_block > 0;
  }
  if (const Status st = check_tasks(g.num_nodes, heads, a.num_chunks); st != Status::ok) return st;
  const int64_t tasks = (g.num_nodes + a.num_chunks) * heads;
  const int64_t grid = (tasks + c.kernel->rpb - 1) / c.kernel->rpb;
  const int value_bytes = storage_bytes(storage);
  KernelFns fns;
  if (out16) {
    if (const Status st = load_kernel(tables().out16_twin(*c.kernel), &fns); st != Status::ok)
      return st;
  } else if (s) {
    fns = s->fns;
  } else if (const Status st = load_kernel(*c.kernel, &fns); st != Status::ok) {
    return st;
  }
  p->fn = family_kernel_for(a, fns.vector, fns.scalar, c.kernel->vec, value_bytes);
  if (!p->fn)  // kernels with vec > 1 carry their twin: not reached
    return unsupported(std::string("no kernel of ") + c.id + " takes these values rows");
  p->grid = static_cast<unsigned>(grid);
  p->block = static_cast<unsigned>(c.kernel->tpr * c.kernel->rpb);
  p->slices = c.slices;
  p->value_bytes = value_bytes;
  p->out_bytes = out16 ? 2 : 4;
  p->overlap_previous = launch.overlap_previous;
  p->variant_id = out16 ? c.id_o16 : c.id;
  return Status::ok;
}

// prepare_launch, with a host failure (an allocation, the kernel table's lock) as a Status.
Status prepare(const GraphView& g, const float* scores, const void* values, Storage storage,
               int heads, int feat, const Output& out, const Shape* shape,
               const LaunchOptions& launch, PreparedLaunch* p) {
  try {
    return prepare_launch(g, scores, values, storage, heads, feat, out, shape, launch, p);
  } catch (const std::exception& e) {
    return detail::record_failure(Status::host_error,
                                  "preparing the launch on the host: ", e.what());
  }
}

// Enqueues a prepared launch, one per slice (args is copied: the launch sets its `overlapped`
// field, and moves values and out to each slice).
Status enqueue(const PreparedLaunch& p, cudaStream_t stream) {
  if (p.sweep) {
    if (const cudaError_t e = p.sweep->launch(p.scores, p.values, p.out, stream); e != cudaSuccess)
      return cuda_failed(e, std::string("launching ") + p.variant_id);
    return Status::ok;
  }
  if (!p.fn) return Status::ok;
  KernelArgs a = p.args;
  if (const cudaError_t e = launch_family_slices(p.fn, p.grid, p.block, 0, stream, a, p.value_bytes,
                                                 p.out_bytes, p.slices, p.overlap_previous);
      e != cudaSuccess)
    return cuda_failed(e, std::string("launching ") + p.variant_id);
  return Status::ok;
}

}  // namespace

Status aggregate(const GraphView& g, const float* scores, const void* values, Storage storage,
                 int heads, int feat, float* out, cudaStream_t stream, const Shape* shape) {
  return aggregate(g, scores, values, storage, heads, feat, Output{out, Storage::f32}, stream,
                   shape, LaunchOptions{});
}

Status aggregate(const GraphView& g, const float* scores, const void* values, Storage storage,
                 int heads, int feat, float* out, cudaStream_t stream, const Shape* shape,
                 const LaunchOptions& launch) {
  return aggregate(g, scores, values, storage, heads, feat, Output{out, Storage::f32}, stream,
                   shape, launch);
}

Status aggregate(const GraphView& g, const float* scores, const void* values, Storage storage,
                 int heads, int feat, const Output& out, cudaStream_t stream, const Shape* shape,
                 const LaunchOptions& launch) {
  return entry("aggregate", [&] {
    PreparedLaunch p;
    if (const Status st = prepare(g, scores, values, storage, heads, feat, out, shape, launch, &p);
        st != Status::ok)
      return st;
    return enqueue(p, stream);
  });
}

struct Call::Impl {
  PreparedLaunch launch;
};

Call::Call() = default;
Call::~Call() = default;
Call::Call(Call&&) noexcept = default;
Call& Call::operator=(Call&&) noexcept = default;

Status Call::create(const GraphView& g, const float* scores, const void* values, Storage storage,
                    int heads, int feat, float* out, const Shape* shape, const LaunchOptions& launch,
                    Call* call) {
  return create(g, scores, values, storage, heads, feat, Output{out, Storage::f32}, shape, launch,
                call);
}

Status Call::create(const GraphView& g, const float* scores, const void* values, Storage storage,
                    int heads, int feat, const Output& out, const Shape* shape,
                    const LaunchOptions& launch, Call* call) {
  return entry("Call::create", [&] {
    if (!call) return invalid("call is null");
    call->impl_.reset();
    auto impl = std::make_unique<Impl>();
    if (const Status st =
            prepare(g, scores, values, storage, heads, feat, out, shape, launch, &impl->launch);
        st != Status::ok)
      return st;
    if (shape) impl->launch.shape = detail::ShapeAccess::impl(*shape);  // checked non-empty
    call->impl_ = std::move(impl);
    return Status::ok;
  });
}

Status Call::launch(cudaStream_t stream) const {
  return entry("Call::launch", [&] {
    if (!impl_) return invalid("the Call is empty (never created, or moved from)");
    const PreparedLaunch& p = impl_->launch;
    if (p.fn || p.sweep) {  // its buffers are on the device it was created on
      int dev = -1;
      if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess)
        return cuda_failed(e, "asking the current device");
      if (dev != p.device)
        return invalid("the current device is " + str(dev) + ", the Call was created on device " +
                       str(p.device));
    }
    return enqueue(p, stream);
  });
}

cudaError_t last_cuda_error() { return t_last_cuda_error; }

const char* last_error_message() {
  return t_last_error.c_str();
}

const char* Call::variant_id() const { return impl_ ? impl_->launch.variant_id : ""; }

const char* compiled_archs() { return embedded::kArchList; }

const char* tuned_source() {
  return CSRGAT_TUNED_SOURCE;
}

}  // namespace csrgat
