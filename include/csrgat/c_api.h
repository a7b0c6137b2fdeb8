/* csrgat's C interface: the production library's Shape and aggregate() for callers that are
 * not C++, such as Python through ctypes (scripts/peers_pyg.py times the library this way,
 * in the same process as PyTorch Geometric). Built as libcsrgat_c.so (target csrgat_c), which
 * exports these functions and nothing else (the CUDA runtime inside it is static).
 *
 * The semantics, shapes and kernels are those of csrgat/aggregate.h (what the library checks
 * and what it trusts, threads); every function returns a status code (CSRGAT_OK or the reason)
 * and none aborts the process; csrgat_last_error_message() says what failed and where. Enumerations
 * travel as ints: storage 0 float32, 1 bfloat16, 2 float16; index 0 int32, 1 int64. `stream` is a
 * cudaStream_t (0: the legacy default stream); a PyTorch caller passes
 * torch.cuda.current_stream().cuda_stream. */
#ifndef CSRGAT_C_API_H
#define CSRGAT_C_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CSRGAT_OK = 0,
  CSRGAT_INVALID_ARGUMENT = 1, /* a null pointer, a negative size, an unknown enumeration value,
                                  or shapes that do not agree */
  CSRGAT_UNSUPPORTED = 2,      /* no compiled kernel can run this combination (or device) */
  CSRGAT_CUDA_ERROR = 3,       /* a CUDA call failed: csrgat_last_cuda_error() says which error
                                  (the CUDA runtime inside this library is its own: the
                                  caller's cudaGetLastError() does not see it) */
  CSRGAT_HOST_ERROR = 4        /* a host allocation failed (or another C++ exception) */
};
enum { CSRGAT_STORAGE_F32 = 0, CSRGAT_STORAGE_BF16 = 1, CSRGAT_STORAGE_F16 = 2 };
enum { CSRGAT_INDEX_I32 = 0, CSRGAT_INDEX_I64 = 1 };

typedef struct csrgat_shape csrgat_shape;

/* csrgat::Shape::create: host_row_ptr holds num_nodes + 1 int64 values on the host. On
 * CSRGAT_OK *out owns a shape (device memory included) until csrgat_shape_destroy. As in C++,
 * a shape belongs to one graph (one row_ptr), to the device current at its creation, and to
 * one stream at a time: the calls that use it (and the calls made with it) hold its workspace
 * while they run, so two of them must not run concurrently. */
int csrgat_shape_create(const int64_t* host_row_ptr, int64_t num_nodes, int heads, int feat,
                        int storage, int index, csrgat_shape** out);
/* csrgat::Shape::create from the graph itself: its device arrays (row_ptr, col as `index` says)
 * and host_row_ptr (num_nodes + 1 int64 values on the host), so that a rule that plans from the
 * graph's columns (the column-blocked sweep, `colblock.*`) can run; the shape then belongs to
 * those device arrays too (see csrgat/aggregate.h). */
int csrgat_shape_create_from_graph(const void* row_ptr, const void* col, int64_t num_nodes,
                                   int64_t num_edges, int index, const int64_t* host_row_ptr,
                                   int heads, int feat, int storage, csrgat_shape** out);
/* Frees a shape (null: nothing). No launch that uses it may still be running. */
void csrgat_shape_destroy(csrgat_shape* shape);
/* The variant id the shape dispatches to with float32 out ("" for null; csrgat_call_variant
 * names what a 16-bit-out call runs). */
const char* csrgat_shape_variant(const csrgat_shape* shape);

/* csrgat::aggregate, with csrgat::LaunchOptions::overlap_previous = overlap_previous != 0.
 * shape may be null. */
int csrgat_aggregate(const void* row_ptr, const void* col, int64_t num_nodes, int64_t num_edges,
                     int index, const float* scores, const void* values, int storage, int heads,
                     int feat, float* out, void* stream, const csrgat_shape* shape,
                     int overlap_previous);

/* As csrgat_aggregate, into out stored as out_storage: CSRGAT_STORAGE_F32, or the values' own
 * 16-bit storage (bf16 values and bf16 out, f16 and f16), each result rounded to nearest even
 * from its float32 sum (csrgat::Output); CSRGAT_UNSUPPORTED for another 16-bit pair. */
int csrgat_aggregate_out(const void* row_ptr, const void* col, int64_t num_nodes, int64_t num_edges,
                         int index, const float* scores, const void* values, int storage, int heads,
                         int feat, void* out, int out_storage, void* stream,
                         const csrgat_shape* shape, int overlap_previous);

/* csrgat::Call: one csrgat_aggregate call prepared once (the checks, the dispatch, the kernel's
 * arguments), then enqueued by csrgat_call_launch with two arguments: a caller through ctypes
 * pays the conversion of fourteen arguments once instead of on every call. The buffers and the
 * shape are bound at creation and must stay allocated until csrgat_call_destroy. On CSRGAT_OK
 * *out owns a call; on any other status *out is null. */
typedef struct csrgat_call csrgat_call;
int csrgat_call_create(const void* row_ptr, const void* col, int64_t num_nodes, int64_t num_edges,
                       int index, const float* scores, const void* values, int storage, int heads,
                       int feat, float* out, const csrgat_shape* shape, int overlap_previous,
                       csrgat_call** call);
/* As csrgat_call_create, into out stored as out_storage (as csrgat_aggregate_out). */
int csrgat_call_create_out(const void* row_ptr, const void* col, int64_t num_nodes,
                           int64_t num_edges, int index, const float* scores, const void* values,
                           int storage, int heads, int feat, void* out, int out_storage,
                           const csrgat_shape* shape, int overlap_previous, csrgat_call** call);
/* Enqueues the call on `stream` (a cudaStream_t; 0: the legacy default stream).
 * CSRGAT_INVALID_ARGUMENT for a null call, or when the current device is not the one the call
 * was created on. */
int csrgat_call_launch(const csrgat_call* call, void* stream);
/* Frees a call (null: nothing); launches already enqueued are not affected. */
void csrgat_call_destroy(csrgat_call* call);
/* The variant id the call launches ("" for null or an empty graph). */
const char* csrgat_call_variant(const csrgat_call* call);

/* A status code's name: csrgat::status_string's ("ok", "invalid argument", ..., "host error"),
 * or "unknown status". */
const char* csrgat_status_string(int status);
/* This thread's latest failure, as csrgat::last_error_message: for the latest call that
 * returned a status other than CSRGAT_OK, what failed and where, naming the argument and its
 * value ("csrgat_aggregate: storage = 9 is not a CSRGAT_STORAGE_* value"); "" before any
 * failure. A call that succeeds leaves it as it was (as errno); the text stays valid until this
 * thread's next failing call. */
const char* csrgat_last_error_message(void);
/* The CUDA error (a cudaError_t value) of this thread's latest failure (0 when that failure was
 * not a CSRGAT_CUDA_ERROR, or before any), and its description: csrgat::last_cuda_error. */
int csrgat_last_cuda_error(void);
const char* csrgat_last_cuda_error_string(void);
/* csrgat::compiled_archs: the architectures the library carries machine code for ("900", "900a").
 */
const char* csrgat_compiled_archs(void);
/* csrgat::tuned_source: the tuned header the library was built with, as its CSRGAT_TUNED_SOURCE
 * says (the store, run, GPU and date of its measurements, or "default (untuned)"). */
const char* csrgat_tuned_source(void);

#ifdef __cplusplus
}
#endif

#endif /* CSRGAT_C_API_H */
