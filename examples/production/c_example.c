/* A C user of csrgat (libcsrgat_c, <csrgat/c_api.h>): a five-node graph aggregated on the GPU
 * through csrgat_aggregate and checked on the host. The device memory comes from the caller's own
 * CUDA runtime (libcudart); the library's runtime is static inside libcsrgat_c, and both use the
 * device's primary context, so the pointers pass between them as PyTorch's do
 * (scripts/peers_pyg.py). Exit status 0 when the result is right, or when there is no GPU to
 * run it on (after the checks that need none). */
#include <csrgat/c_api.h>
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { kNodes = 5, kEdges = 9, kFeat = 8 };

static int cuda_ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return 1;
  fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(e));
  return 0;
}

int main(void) {
  /* Row 3 is empty (its output is 0); row 4's scores are all -inf (its output is 0 too). */
  const int64_t row_ptr64[kNodes + 1] = {0, 3, 5, 7, 7, 9};
  const int32_t row_ptr[kNodes + 1] = {0, 3, 5, 7, 7, 9};
  const int32_t col[kEdges] = {1, 2, 4, 0, 0, 3, 2, 1, 2};
  const float scores[kEdges] = {0.5f, -1.f, 2.f, 1e30f, 1e30f, 0.f, 3.f, -INFINITY, -INFINITY};
  float values[kNodes * kFeat], out[kNodes * kFeat];
  for (int i = 0; i < kNodes * kFeat; ++i) values[i] = (float)((i * 7) % 11) - 5.f;

  /* Needs no GPU: the library names its machine code and refuses a call without buffers. */
  printf("libcsrgat_c carries code for %s; its rules: %s\n", csrgat_compiled_archs(),
         csrgat_tuned_source());
  const int refused = csrgat_aggregate(NULL, NULL, kNodes, kEdges, CSRGAT_INDEX_I32, NULL, NULL,
                                       CSRGAT_STORAGE_F32, 1, kFeat, NULL, NULL, NULL, 0);
  if (refused != CSRGAT_INVALID_ARGUMENT) {
    fprintf(stderr, "a call without buffers returned %s, not invalid argument\n",
            csrgat_status_string(refused));
    return 1;
  }
  printf("a call without buffers: %s (%s)\n", csrgat_status_string(refused),
         csrgat_last_error_message());

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("no CUDA device: the C example needs a GPU to run the aggregation\n");
    return 0;
  }
  void *d_rp = NULL, *d_col = NULL, *d_scores = NULL, *d_values = NULL, *d_out = NULL;
  if (!cuda_ok(cudaMalloc(&d_rp, sizeof row_ptr), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&d_col, sizeof col), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&d_scores, sizeof scores), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&d_values, sizeof values), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&d_out, sizeof out), "cudaMalloc") ||
      !cuda_ok(cudaMemcpy(d_rp, row_ptr, sizeof row_ptr, cudaMemcpyHostToDevice), "cudaMemcpy") ||
      !cuda_ok(cudaMemcpy(d_col, col, sizeof col, cudaMemcpyHostToDevice), "cudaMemcpy") ||
      !cuda_ok(cudaMemcpy(d_scores, scores, sizeof scores, cudaMemcpyHostToDevice), "cudaMemcpy") ||
      !cuda_ok(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice), "cudaMemcpy"))
    return 1;

  csrgat_shape* shape = NULL;
  int st = csrgat_shape_create(row_ptr64, kNodes, 1, kFeat, CSRGAT_STORAGE_F32, CSRGAT_INDEX_I32,
                               &shape);
  if (st == CSRGAT_OK)
    st = csrgat_aggregate(d_rp, d_col, kNodes, kEdges, CSRGAT_INDEX_I32, (const float*)d_scores,
                          d_values, CSRGAT_STORAGE_F32, 1, kFeat, (float*)d_out, NULL, shape, 0);
  if (st != CSRGAT_OK) {
    fprintf(stderr, "csrgat: %s: %s\n", csrgat_status_string(st), csrgat_last_error_message());
    return 1;
  }
  if (!cuda_ok(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost), "cudaMemcpy")) return 1;

  double err = 0, norm = 0;
  for (int d = 0; d < kNodes; ++d) {
    double m = -INFINITY, sum = 0;
    for (int k = row_ptr[d]; k < row_ptr[d + 1]; ++k) m = scores[k] > m ? scores[k] : m;
    for (int k = row_ptr[d]; k < row_ptr[d + 1]; ++k)
      if (m != -INFINITY) sum += exp((double)scores[k] - m);
    for (int f = 0; f < kFeat; ++f) {
      double ref = 0;
      for (int k = row_ptr[d]; k < row_ptr[d + 1]; ++k)
        if (sum > 0) ref += exp((double)scores[k] - m) / sum * values[col[k] * kFeat + f];
      const double diff = out[d * kFeat + f] - ref;
      err += diff * diff;
      norm += ref * ref;
    }
  }
  const double rel = sqrt(err / norm);
  printf("C example: %d nodes, %d edges, F=%d via %s: relative error %.2e -> %s\n", kNodes, kEdges,
         kFeat, csrgat_shape_variant(shape), rel, rel < 1e-5 ? "ok" : "WRONG");
  csrgat_shape_destroy(shape);
  cudaFree(d_rp);
  cudaFree(d_col);
  cudaFree(d_scores);
  cudaFree(d_values);
  cudaFree(d_out);
  return rel < 1e-5 ? 0 : 1;
}
