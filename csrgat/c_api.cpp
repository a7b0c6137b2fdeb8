// The C interface (include/csrgat/c_api.h) over the C++ one (include/csrgat/aggregate.h): enum
// values checked and converted, C++ exceptions turned into CSRGAT_HOST_ERROR at this boundary.
#include "csrgat/c_api.h"

#include <memory>
#include <string>

#include "csrgat/aggregate.h"
#include "csrgat/error_state.h"

struct csrgat_shape {
  csrgat::Shape shape;
};
struct csrgat_call {
  csrgat::Call call;
};

namespace {

static_assert(CSRGAT_OK == static_cast<int>(csrgat::Status::ok) &&
                  CSRGAT_INVALID_ARGUMENT == static_cast<int>(csrgat::Status::invalid_argument) &&
                  CSRGAT_UNSUPPORTED == static_cast<int>(csrgat::Status::unsupported) &&
                  CSRGAT_CUDA_ERROR == static_cast<int>(csrgat::Status::cuda_error) &&
                  CSRGAT_HOST_ERROR == static_cast<int>(csrgat::Status::host_error),
              "the C status codes are csrgat::Status's values");

// CSRGAT_INVALID_ARGUMENT, kept as this thread's latest failure: "<fn>: <what>" (what() builds
// the text; without memory for it, the failure reads "out of memory": nothing throws into C).
template <class What>
int invalid(const char* fn, What&& what) noexcept {
  try {
    return static_cast<int>(csrgat::detail::record_failure(csrgat::Status::invalid_argument,
                                                           std::string(fn) + ": " + what()));
  } catch (const std::exception&) {
    return static_cast<int>(
        csrgat::detail::record_failure(csrgat::Status::invalid_argument, "out of memory"));
  }
}
int invalid(const char* fn, const char* what) noexcept {
  return invalid(fn, [what] { return std::string(what); });
}

bool to_storage(int s, csrgat::Storage* out) {
  switch (s) {
    case CSRGAT_STORAGE_F32: *out = csrgat::Storage::f32; return true;
    case CSRGAT_STORAGE_BF16: *out = csrgat::Storage::bf16; return true;
    case CSRGAT_STORAGE_F16: *out = csrgat::Storage::f16; return true;
  }
  return false;
}

bool to_index(int i, csrgat::Index* out) {
  switch (i) {
    case CSRGAT_INDEX_I32: *out = csrgat::Index::i32; return true;
    case CSRGAT_INDEX_I64: *out = csrgat::Index::i64; return true;
  }
  return false;
}

// CSRGAT_INVALID_ARGUMENT naming an enumeration argument that is not one of its values.
int bad_enum(const char* fn, const char* arg, int v, const char* values) noexcept {
  return invalid(fn, [&] {
    return std::string(arg) + " = " + std::to_string(v) + " is not a " + values + " value";
  });
}

// csrgat_aggregate's and csrgat_call_create's arguments that need converting.
struct Problem {
  csrgat::GraphView graph;
  csrgat::Storage storage;
  csrgat::LaunchOptions launch;
  csrgat::Output out{nullptr, csrgat::Storage::f32};  // to_problem_out's
};
// CSRGAT_OK, or the status of the first argument that does not convert (its failure kept).
int to_problem(const char* fn, const void* row_ptr, const void* col, int64_t num_nodes,
               int64_t num_edges, int index, int storage, int overlap_previous, Problem* p) {
  if (!to_storage(storage, &p->storage))
    return bad_enum(fn, "storage", storage, "CSRGAT_STORAGE_*");
  if (!to_index(index, &p->graph.index)) return bad_enum(fn, "index", index, "CSRGAT_INDEX_*");
  p->graph.row_ptr = row_ptr;
  p->graph.col = col;
  p->graph.num_nodes = num_nodes;
  p->graph.num_edges = num_edges;
  p->launch.overlap_previous = overlap_previous != 0;
  return CSRGAT_OK;
}
// As to_problem, with the out array and its storage.
int to_problem_out(const char* fn, const void* row_ptr, const void* col, int64_t num_nodes,
                   int64_t num_edges, int index, int storage, int overlap_previous, void* out,
                   int out_storage, Problem* p) {
  if (const int st =
          to_problem(fn, row_ptr, col, num_nodes, num_edges, index, storage, overlap_previous, p);
      st != CSRGAT_OK)
    return st;
  if (!to_storage(out_storage, &p->out.storage))
    return bad_enum(fn, "out_storage", out_storage, "CSRGAT_STORAGE_*");
  p->out.data = out;
  return CSRGAT_OK;
}

// fn() -> csrgat::Status, its failures naming c_fn (what c_api.h promises: the library's
// entries name the C function for the C++ one, detail::EntryName), with any exception as
// CSRGAT_HOST_ERROR (none may cross into C).
template <class Fn>
int guarded(const char* c_fn, Fn&& fn) noexcept {
  const csrgat::detail::EntryName as(c_fn);
  try {
    return static_cast<int>(fn());
  } catch (const std::exception& e) {
    return static_cast<int>(csrgat::detail::name_failure(
        c_fn,
        csrgat::detail::record_failure(csrgat::Status::host_error, "on the host: ", e.what())));
  } catch (...) {
    return static_cast<int>(csrgat::detail::name_failure(
        c_fn, csrgat::detail::record_failure(csrgat::Status::host_error,
                                             "on the host: ", "an exception")));
  }
}

// A new Handle (csrgat_shape, csrgat_call) that create(handle) fills: *out owns it on ok;
// otherwise, or when create throws, it is freed.
template <class Handle, class Create>
int new_handle(const char* c_fn, Handle** out, Create&& create) {
  return guarded(c_fn, [&] {
    auto h = std::make_unique<Handle>();
    const csrgat::Status r = create(*h);
    if (r == csrgat::Status::ok) *out = h.release();
    return r;
  });
}

// csrgat_aggregate(_out), its failures naming fn, the function called.
int aggregate_as(const char* fn, const void* row_ptr, const void* col, int64_t num_nodes,
                 int64_t num_edges, int index, const float* scores, const void* values, int storage,
                 int heads, int feat, void* out, int out_storage, void* stream,
                 const csrgat_shape* shape, int overlap_previous) {
  Problem p;
  if (const int st = to_problem_out(fn, row_ptr, col, num_nodes, num_edges, index, storage,
                                    overlap_previous, out, out_storage, &p))
    return st;
  return guarded(fn, [&] {
    return csrgat::aggregate(p.graph, scores, values, p.storage, heads, feat, p.out,
                             static_cast<cudaStream_t>(stream), shape ? &shape->shape : nullptr,
                             p.launch);
  });
}

// csrgat_call_create(_out), its failures naming fn, the function called.
int call_create_as(const char* fn, const void* row_ptr, const void* col, int64_t num_nodes,
                   int64_t num_edges, int index, const float* scores, const void* values,
                   int storage, int heads, int feat, void* out, int out_storage,
                   const csrgat_shape* shape, int overlap_previous, csrgat_call** call) {
  if (!call) return invalid(fn, "call is null");
  *call = nullptr;
  Problem p;
  if (const int st = to_problem_out(fn, row_ptr, col, num_nodes, num_edges, index, storage,
                                    overlap_previous, out, out_storage, &p))
    return st;
  return new_handle(fn, call, [&](csrgat_call& h) {
    return csrgat::Call::create(p.graph, scores, values, p.storage, heads, feat, p.out,
                                shape ? &shape->shape : nullptr, p.launch, &h.call);
  });
}

}  // namespace

extern "C" {

int csrgat_shape_create(const int64_t* host_row_ptr, int64_t num_nodes, int heads, int feat,
                        int storage, int index, csrgat_shape** out) {
  constexpr const char* kFn = "csrgat_shape_create";
  csrgat::Storage st;
  csrgat::Index ix;
  if (!out) return invalid(kFn, "out is null");
  *out = nullptr;
  if (!to_storage(storage, &st)) return bad_enum(kFn, "storage", storage, "CSRGAT_STORAGE_*");
  if (!to_index(index, &ix)) return bad_enum(kFn, "index", index, "CSRGAT_INDEX_*");
  return new_handle(kFn, out, [&](csrgat_shape& h) {
    return csrgat::Shape::create(host_row_ptr, num_nodes, heads, feat, st, ix, &h.shape);
  });
}

int csrgat_shape_create_from_graph(const void* row_ptr, const void* col, int64_t num_nodes,
                                   int64_t num_edges, int index, const int64_t* host_row_ptr,
                                   int heads, int feat, int storage, csrgat_shape** out) {
  constexpr const char* kFn = "csrgat_shape_create_from_graph";
  if (!out) return invalid(kFn, "out is null");
  *out = nullptr;
  Problem p;
  if (const int st = to_problem(kFn, row_ptr, col, num_nodes, num_edges, index, storage, 0, &p);
      st != CSRGAT_OK)
    return st;
  return new_handle(kFn, out, [&](csrgat_shape& h) {
    return csrgat::Shape::create(p.graph, host_row_ptr, heads, feat, p.storage, &h.shape);
  });
}

void csrgat_shape_destroy(csrgat_shape* shape) { delete shape; }

const char* csrgat_shape_variant(const csrgat_shape* shape) {
  return shape ? shape->shape.variant_id() : "";
}

int csrgat_aggregate(const void* row_ptr, const void* col, int64_t num_nodes, int64_t num_edges,
                     int index, const float* scores, const void* values, int storage, int heads,
                     int feat, float* out, void* stream, const csrgat_shape* shape,
                     int overlap_previous) {
  return aggregate_as("csrgat_aggregate", row_ptr, col, num_nodes, num_edges, index, scores, values,
                      storage, heads, feat, out, CSRGAT_STORAGE_F32, stream, shape,
                      overlap_previous);
}

int csrgat_aggregate_out(const void* row_ptr, const void* col, int64_t num_nodes, int64_t num_edges,
                         int index, const float* scores, const void* values, int storage, int heads,
                         int feat, void* out, int out_storage, void* stream,
                         const csrgat_shape* shape, int overlap_previous) {
  return aggregate_as("csrgat_aggregate_out", row_ptr, col, num_nodes, num_edges, index, scores,
                      values, storage, heads, feat, out, out_storage, stream, shape,
                      overlap_previous);
}

int csrgat_call_create(const void* row_ptr, const void* col, int64_t num_nodes, int64_t num_edges,
                       int index, const float* scores, const void* values, int storage, int heads,
                       int feat, float* out, const csrgat_shape* shape, int overlap_previous,
                       csrgat_call** call) {
  return call_create_as("csrgat_call_create", row_ptr, col, num_nodes, num_edges, index, scores,
                        values, storage, heads, feat, out, CSRGAT_STORAGE_F32, shape,
                        overlap_previous, call);
}

int csrgat_call_create_out(const void* row_ptr, const void* col, int64_t num_nodes,
                           int64_t num_edges, int index, const float* scores, const void* values,
                           int storage, int heads, int feat, void* out, int out_storage,
                           const csrgat_shape* shape, int overlap_previous, csrgat_call** call) {
  return call_create_as("csrgat_call_create_out", row_ptr, col, num_nodes, num_edges, index, scores,
                        values, storage, heads, feat, out, out_storage, shape, overlap_previous,
                        call);
}

int csrgat_call_launch(const csrgat_call* call, void* stream) {
  if (!call) return invalid("csrgat_call_launch", "call is null");
  return guarded("csrgat_call_launch",
                 [&] { return call->call.launch(static_cast<cudaStream_t>(stream)); });
}

void csrgat_call_destroy(csrgat_call* call) { delete call; }

const char* csrgat_call_variant(const csrgat_call* call) { return call ? call->call.variant_id() : ""; }

const char* csrgat_status_string(int status) {
  if (status < CSRGAT_OK || status > CSRGAT_HOST_ERROR) return "unknown status";
  return csrgat::status_string(static_cast<csrgat::Status>(status));
}

const char* csrgat_last_error_message(void) {
  return csrgat::last_error_message();
}

int csrgat_last_cuda_error(void) { return static_cast<int>(csrgat::last_cuda_error()); }

const char* csrgat_last_cuda_error_string(void) {
  const cudaError_t e = csrgat::last_cuda_error();
  return e == cudaSuccess ? "no error" : cudaGetErrorString(e);
}

const char* csrgat_compiled_archs(void) { return csrgat::compiled_archs(); }

const char* csrgat_tuned_source(void) {
  return csrgat::tuned_source();
}

}  // extern "C"
