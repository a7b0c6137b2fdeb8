// csrgat: fused graph-attention neighbourhood aggregation over a CSR graph.
//
//   out[d, h, :] = sum over e in [row_ptr[d], row_ptr[d+1]) of
//                  softmax_e(scores[row d, h]) * values[col[e], h, :]
//
// Shapes (row-major, device memory): row_ptr (N+1), col (E), scores (E, H), values (N, H, F),
// out (N, H, F) float32 (or 16-bit: Output). Semantics: an empty row gives 0; -inf scores get
// weight 0 and a row whose scores are all -inf gives 0; finite scores of any magnitude do not
// overflow. values may hold +Inf or NaN (a padding node's features, say): an edge masked by a
// -inf score adds nothing, whatever its source holds, and an edge of weight above 0 carries them
// into its row, as float64 arithmetic would. Where an edge's weight underflows float32 (its score
// ~87 or more below its row's largest), whether a non-finite value on it reaches the row depends
// on the kernel.
// values needs only its element type's alignment. The kernels load VEC elements at a time
// (16 bytes: 4 float32 or 8 16-bit values, in the shipped headers); where the values rows are
// not aligned to such a load (F not a multiple of VEC, or a base off it) the call runs the
// kernel's scalar twin, correct and slower.
//
// The kernel for each call comes from the tuned config header the library was built with
// (cmake -DCSRGAT_TUNED_CONFIG=<header>), keyed on value type, F, H and the graph's degree
// shape; a safe default kernel covers whatever no tuned rule matches. No call aborts the
// process: every failure is a Status, and last_error_message() says what failed and where.
//
// What the library checks and what it trusts. It checks every argument it can without reading
// the arrays: sizes, enum values, null pointers, each pointer's alignment to its element type
// (row_ptr and col to their index's, scores to 4 bytes, values and out to their storage's), an
// int32 graph's E against 2^31 - 1, the kernels' 32-bit limits, a Shape against the call. It
// does not read the device arrays' contents (that would be a pass over the graph on every
// call): a device row_ptr that is not the graph's (decreasing, or not ending at E), a column
// outside [0, N) or +inf / NaN scores make the result undefined (NaN rows, or an illegal
// address that the CUDA context does not survive). Nor does it ask the driver what each
// pointer is (a call per array on every launch): the arrays must be device memory the current
// device can address (cudaMalloc'd, managed, or mapped host memory), and `out` must not overlap
// row_ptr, col, scores or values (the kernels read the inputs while they write out); a pageable
// host pointer gives an illegal address. Shape::create checks the host row_ptr it is
// given, and a Shape made from the graph's device arrays the columns its plan reads; `tuner`
// validates a graph's files and inputs before it runs them.
//
// Threads: every function may be called from several host threads at once (the kernels' code
// is loaded once, under a lock; the error state is per thread). A Shape's workspace may not be
// used by two calls at once: see Shape.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

namespace csrgat {

enum class Status {
  ok = 0,
  invalid_argument,  // a null pointer, negative size, or shapes that do not agree
  unsupported,       // no compiled kernel can run this combination (or this device)
  cuda_error,        // a CUDA call failed; last_cuda_error() says which error
  host_error,        // a host allocation failed (or another C++ exception inside the library)
};
const char* status_string(Status s);
// This thread's latest failure: for the latest call into the library that returned a Status
// other than ok, what failed and where, naming the argument and its value ("aggregate: values
// (0x7f3a00000002) is not aligned to its element type (f32, 4 bytes)"); "" before any failure. A
// call that succeeds leaves it as it was (as errno). The text stays valid until this thread's
// next failing call.
const char* last_error_message();
// The CUDA error of this thread's latest failure: cudaSuccess when that failure was not a
// Status::cuda_error (or before any failure). The library takes it from the runtime's last
// error as well, so a caller sharing the runtime does not see it again in its next
// cudaGetLastError().
cudaError_t last_cuda_error();

enum class Index { i32, i64 };
enum class Storage { f32, bf16, f16 };

// The graph in device memory. row_ptr and col are int32 or int64 as `index` says.
struct GraphView {
  const void* row_ptr = nullptr;
  const void* col = nullptr;
  int64_t num_nodes = 0;
  int64_t num_edges = 0;
  Index index = Index::i32;
};

// A graph's shape, computed once from its host row_ptr and reused across calls: degree
// statistics for dispatch and, for graphs with long rows, the device-side split plan and its
// workspace, and the row order of a longest-rows-first (`.lpt`) variant. Without a Shape,
// aggregate() still computes the right answer but cannot split long rows or reorder them
// (the chosen kernel then takes rows in index order), and its dispatch sees only N and the mean
// degree: a skewed graph (a power-law graph of a million nodes) takes the first rule of its
// size and mean degree, which may be a uniform graph's. Use a Shape for graphs with long rows.
//
// A Shape belongs to
// - one graph: its plan names that row_ptr's rows (aggregate() checks N, E, H, F and the
//   types, not the rows: another graph of the same sizes gets wrong sums);
// - the device current at create(): aggregate() and Call::launch on another device return
//   Status::invalid_argument;
// - one stream at a time: a call that splits rows uses the Shape's workspace (the chunks'
//   partials and merge counters; a column-blocked sweep's barrier counters) while it runs, so calls
//   with one Shape (and Calls made with it) must not run concurrently: enqueue them on one stream,
//   or order their streams. Use one Shape per stream for concurrent calls on one graph.
// create() returns once the Shape's device buffers are written, so its first call may go on
// any stream. On any status but ok, create() leaves *out empty (as Call::create does); an empty
// Shape (never created, moved from, or left by a failed create) passed to aggregate(), Call or
// dispatch_variant() is refused (Status::invalid_argument), not taken for "no Shape". A Call
// made with a Shape shares its plan and workspace: destroying the Shape, or creating it again
// for another graph, leaves the Call running the plan it was made with.
namespace detail {
struct ShapeAccess;
}
class Shape {
 public:
  Shape();
  ~Shape();
  Shape(Shape&&) noexcept;
  Shape& operator=(Shape&&) noexcept;
  // host_row_ptr: (N+1) int64 values on the host. Status::unsupported when (N + chunks) * H
  // would reach 2^31 (see aggregate()).
  static Status create(const int64_t* host_row_ptr, int64_t num_nodes, int heads, int feat,
                       Storage storage, Index index, Shape* out);
  // As above, and with the graph's device arrays, so that a rule that plans from the graph's
  // columns can run: the column-blocked sweep (`colblock.*` ids, csrgat/colblock.h), which the
  // tuned header attaches to rules for graphs whose values are far larger than L2 (F = 128,
  // one head, float32 or bfloat16 values, int32 indices) where the tuner measured it faster
  // than the rule's kernel. Its plan is built here, on the device, in ~16 ms for 64 M edges on
  // an H200: 8 bytes an edge kept for the Shape's life, and while it is built 16 more and CUB's
  // temporary. Where that memory cannot be had, the sweep cannot take the problem or device,
  // or the rule attaches none, the Shape holds the rule's kernel of the family instead
  // (variant_id() names the sweep only when it holds one).
  // - graph.row_ptr and graph.col must be complete when it is called: it reads them on the
  //   legacy default stream, which does not wait for non-blocking streams.
  // - The plan belongs to those arrays: aggregate() and Call on a graph at other pointers run
  //   the rule's family kernel (dispatch_variant() says so), as they do when values or out are
  //   not 16-byte aligned. A graph rebuilt at the same addresses (a caching allocator may hand
  //   them out again) needs a new Shape: the old plan would index another graph's scores.
  // - The sweep's soft grid barrier shares the Shape's workspace (one stream at a time, as
  //   above) and assumes its grid is resident alone: kernels running beside it on the GPU
  //   leave its results right but cost up to ~20 ms a call before its warps stop waiting.
  // - LaunchOptions::overlap_previous is ignored when the sweep runs (it starts after the
  //   previous kernel, as a plain launch does).
  // Status::invalid_argument when the plan finds a column outside [0, N) or a row_ptr that is
  // not one (decreasing, or outside [0, E]).
  static Status create(const GraphView& graph, const int64_t* host_row_ptr, int heads, int feat,
                       Storage storage, Shape* out);
  int64_t max_degree() const;
  double mean_degree() const;
  // The variant id of the kernel this shape dispatches to with float32 out (for logs and tests;
  // a 16-bit Output runs the rule's family kernel's `<id>.o16`, never a sweep: Call::variant_id
  // names what a call runs).
  const char* variant_id() const;

  struct Impl;

 private:
  friend struct detail::ShapeAccess;
  std::shared_ptr<const Impl> impl_;
};

// How aggregate() launches its kernel.
struct LaunchOptions {
  // Programmatic dependent launch (compute capability 9.0 and later; ignored before): the
  // kernel may start while the previous kernel in `stream` is still running, so that its
  // launch and its first loads overlap that kernel's end. It reads the graph's row_ptr and col
  // (and the Shape's own buffers) before waiting for that kernel, and scores and values, and
  // writes out, only after. Set it only when the previous kernel does not write row_ptr or col.
  // Inside a stream capture it becomes a programmatic edge of the graph.
  bool overlap_previous = false;
};

// Where aggregate() writes the result: out (N, H, F) in device memory, float32 (the default), or
// 16-bit in the values' own storage (bf16 values and bf16 out, f16 and f16), each result rounded
// to nearest even from its float32 sum (the kernels accumulate in float32 whatever the storage).
// A caller whose next layer reads bfloat16 saves half of out's bytes and a conversion kernel. A
// 16-bit out runs the rule's kernel as its `.o16` twin (the same kernel storing 16-bit results,
// compiled into the library beside it; variant ids end in .o16); a rule's column-blocked sweep
// writes float32 only, so there the rule's kernel of the family runs. Other pairs (f32 values
// with 16-bit out, bf16 values with f16 out) return Status::unsupported.
struct Output {
  void* data = nullptr;
  Storage storage = Storage::f32;
};

// Enqueues the aggregation on `stream`. `shape` may be null (see Shape). Status::unsupported
// when (N + chunks) * H reaches 2^31 (the kernels number their tasks in 32 bits) or, with
// 32-bit indices, when H * F does (a values row's stride is a 32-bit operand there);
// Shape::create refuses both.
Status aggregate(const GraphView& graph, const float* scores, const void* values,
                 Storage storage, int heads, int feat, float* out, cudaStream_t stream,
                 const Shape* shape = nullptr);
Status aggregate(const GraphView& graph, const float* scores, const void* values,
                 Storage storage, int heads, int feat, float* out, cudaStream_t stream,
                 const Shape* shape, const LaunchOptions& launch);
// As above, into an Output (Status::invalid_argument for a storage that is not one,
// Status::unsupported for a 16-bit out of another type than the values').
Status aggregate(const GraphView& graph, const float* scores, const void* values, Storage storage,
                 int heads, int feat, const Output& out, cudaStream_t stream,
                 const Shape* shape = nullptr, const LaunchOptions& launch = LaunchOptions{});

// One aggregate() call prepared once and enqueued many times: the dispatch, the argument
// checks and the kernel's arguments are done in create(), so that launch() is the kernel launch
// alone (for callers whose host time per call matters: a Python caller through the C interface
// passes two arguments instead of fourteen). The buffers are bound at create(): launch() reads
// and writes the memory they pointed to then, which must stay allocated for the Call's life
// (the Shape's plan and workspace the Call keeps itself: see Shape). Launch it on the device it
// was created on. A Call of an empty graph launches nothing.
class Call {
 public:
  Call();
  ~Call();
  Call(Call&&) noexcept;
  Call& operator=(Call&&) noexcept;
  // The arguments and their checks are aggregate()'s; on any status but ok *call is left empty.
  static Status create(const GraphView& graph, const float* scores, const void* values,
                       Storage storage, int heads, int feat, float* out, const Shape* shape,
                       const LaunchOptions& launch, Call* call);
  static Status create(const GraphView& graph, const float* scores, const void* values,
                       Storage storage, int heads, int feat, const Output& out, const Shape* shape,
                       const LaunchOptions& launch, Call* call);
  // Enqueues the prepared kernel on `stream`: invalid_argument on an empty Call (never
  // created, or moved from) or on a device other than create()'s, cuda_error when the launch
  // fails.
  Status launch(cudaStream_t stream) const;
  // The variant id it launches ("" for an empty Call or an empty graph's).
  const char* variant_id() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The variant id aggregate() would use for this problem with float32 out (no launch): its rule's
// id (a 16-bit Output runs the family kernel's `<id>.o16`; Call::variant_id names it). Without a
// Shape the rule's split, block merge (`.bm`) and row order (`.lpt`) are not applied: the
// kernel of that id runs every row whole, in index order. "" for a problem aggregate() refuses
// before the GPU by its graph, sizes or Shape (sizes out of range, a Storage or Index it does
// not define, a null or misaligned row_ptr or col, H * F or the task count over the 32-bit
// limits, an empty Shape or one made for another problem); last_error_message() says why.
const char* dispatch_variant(const GraphView& graph, Storage storage, int heads, int feat,
                             const Shape* shape = nullptr);

// The GPU architectures this library carries machine code for, as nvcc's __CUDA_ARCH_LIST__
// ("900" for sm_90; "900,1000" for two), with an architecture-specific or family target's
// suffix ("900a", "1000f"): the CMAKE_CUDA_ARCHITECTURES it was built with. The kernels are the
// tuner's NVRTC cubins, embedded at build time; a device runs the code of its own capability,
// else of an earlier minor of its major (sm_80 on 8.6, sm_100f on 10.3; sm_90a on 9.0 alone);
// on a device none of it runs on, Shape::create and aggregate() return Status::unsupported.
const char* compiled_archs();

// Where the rules this library dispatches by came from: the tuned header it was built with, as
// that header's CSRGAT_TUNED_SOURCE says ("h200 run 23 (NVIDIA H200, 2026-12-05, run 23)": the
// results store, run, GPU and date of the measurements; "default (untuned)" for the
// one-safe-kernel-a-type rules of a build without a tuned header). For a production log line.
const char* tuned_source();

}  // namespace csrgat
