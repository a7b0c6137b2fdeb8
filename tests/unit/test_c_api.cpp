// libcsrgat_c.so without a GPU: what it exports, and the statuses of calls that need no device.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "csrgat/aggregate.h"
#include "tests/c_api_lib.h"

using csrgat::test::CApiLib;

TEST(CApi, ExportsTheCInterfaceOnly) {
  CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.path << ": " << lib.error;
  EXPECT_TRUE(lib.exports("csrgat_aggregate"));
  EXPECT_TRUE(lib.exports("csrgat_aggregate_out"));
  EXPECT_TRUE(lib.exports("csrgat_call_create_out"));
  // Neither the static CUDA runtime inside nor the C++ library: a process with its own CUDA
  // runtime (PyTorch) must not bind to them.
  for (const char* hidden : {"cudaMalloc", "cudaLaunchKernel", "cudaGetLastError",
                             "_ZN6csrgat13status_stringENS_6StatusE"})
    EXPECT_FALSE(lib.exports(hidden)) << hidden;
  EXPECT_STREQ(lib.compiled_archs(), csrgat::compiled_archs());
  EXPECT_STREQ(lib.tuned_source(), csrgat::tuned_source());
}

TEST(CApi, StatusStrings) {
  CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.error;
  EXPECT_STREQ(lib.status_string(CSRGAT_OK), "ok");
  EXPECT_STREQ(lib.status_string(CSRGAT_INVALID_ARGUMENT), "invalid argument");
  EXPECT_STREQ(lib.status_string(CSRGAT_UNSUPPORTED), "unsupported");
  EXPECT_STREQ(lib.status_string(CSRGAT_CUDA_ERROR), "CUDA error");
  EXPECT_STREQ(lib.status_string(CSRGAT_HOST_ERROR), "host error");
  EXPECT_STREQ(lib.status_string(-1), "unknown status");
  EXPECT_STREQ(lib.status_string(99), "unknown status");
  EXPECT_STREQ(csrgat::status_string(csrgat::Status::host_error), "host error");
}

// A shape whose tasks would pass the kernels' 32-bit numbering is refused before any CUDA call
// ((N + chunks) * H >= 2^31: here N * H = 2^31 on its own).
TEST(CApi, ShapeOverTheTaskLimitIsUnsupported) {
  CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.error;
  const int64_t n = 2048;
  const int heads = 1 << 20;
  std::vector<int64_t> rp(n + 1);
  for (int64_t i = 0; i <= n; ++i) rp[i] = i;
  csrgat_shape* s = nullptr;
  EXPECT_EQ(lib.shape_create(rp.data(), n, heads, 1, CSRGAT_STORAGE_F32, CSRGAT_INDEX_I64, &s),
            CSRGAT_UNSUPPORTED);
  EXPECT_EQ(s, nullptr);
  // One head fewer fits (ok on a GPU, a CUDA error without one).
  const int fewer =
      lib.shape_create(rp.data(), n, heads - 1, 1, CSRGAT_STORAGE_F32, CSRGAT_INDEX_I64, &s);
  EXPECT_TRUE(fewer == CSRGAT_OK || fewer == CSRGAT_CUDA_ERROR) << lib.last_error_message();
  lib.shape_destroy(s);
  csrgat::Shape cs;
  EXPECT_EQ(csrgat::Shape::create(rp.data(), n, heads, 1, csrgat::Storage::f32, csrgat::Index::i64, &cs),
            csrgat::Status::unsupported);
}

// The CUDA error behind a CSRGAT_CUDA_ERROR is the library's to tell (its runtime is its own):
// without a GPU, the first call that needs the device fails with one, and it stays readable.
TEST(CApi, LastCudaErrorNamesTheFailure) {
  CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.error;
  const std::vector<int64_t> rp = {0, 2, 3};
  csrgat_shape* s = nullptr;
  const int st = lib.shape_create(rp.data(), 2, 1, 64, CSRGAT_STORAGE_F32, CSRGAT_INDEX_I32, &s);
  if (st == CSRGAT_OK) {  // a machine with a GPU: nothing failed
    EXPECT_EQ(lib.last_cuda_error(), 0);
    EXPECT_STREQ(lib.last_cuda_error_string(), "no error");
    lib.shape_destroy(s);
    return;
  }
  EXPECT_EQ(st, CSRGAT_CUDA_ERROR);
  EXPECT_NE(lib.last_cuda_error(), 0);
  EXPECT_STRNE(lib.last_cuda_error_string(), "no error");
  EXPECT_STRNE(lib.last_cuda_error_string(), "");
}

// Arguments refused before any CUDA call: no device needed.
TEST(CApi, BadArgumentsReturnStatus) {
  CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.error;
  const std::vector<int64_t> rp = {0, 2, 3};
  csrgat_shape* s = reinterpret_cast<csrgat_shape*>(&lib);  // must come back null
  EXPECT_EQ(lib.shape_create(rp.data(), 2, 1, 64, 7, CSRGAT_INDEX_I32, &s), CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(lib.shape_create(rp.data(), 2, 1, 64, CSRGAT_STORAGE_F32, 2, &s), CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.shape_create(nullptr, 2, 1, 64, CSRGAT_STORAGE_F32, CSRGAT_INDEX_I32, &s),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.shape_create(rp.data(), 2, 0, 64, CSRGAT_STORAGE_F32, CSRGAT_INDEX_I32, &s),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.shape_create(rp.data(), 2, 1, 64, CSRGAT_STORAGE_F32, CSRGAT_INDEX_I32, nullptr),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(s, nullptr);
  lib.shape_destroy(nullptr);
  EXPECT_STREQ(lib.shape_variant(nullptr), "");

  float out = 0.f, scores = 0.f, values = 0.f;
  int32_t rp32[3] = {0, 2, 3}, col[3] = {0, 1, 0};
  EXPECT_EQ(lib.aggregate(rp32, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values, 9, 1, 64, &out,
                          nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.aggregate(rp32, col, 2, 3, -1, &scores, &values, CSRGAT_STORAGE_F32, 1, 64, &out,
                          nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.aggregate(nullptr, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values,
                          CSRGAT_STORAGE_F32, 1, 64, &out, nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.aggregate(rp32, col, -1, 3, CSRGAT_INDEX_I32, &scores, &values,
                          CSRGAT_STORAGE_F32, 1, 64, &out, nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  // An empty graph is done before any launch.
  EXPECT_EQ(lib.aggregate(rp32, col, 0, 0, CSRGAT_INDEX_I32, nullptr, &values, CSRGAT_STORAGE_F32,
                          1, 64, &out, nullptr, nullptr, 0),
            CSRGAT_OK);
  // An out storage that is not one; a 16-bit out of another type than the values' is refused
  // before any launch (as any bad argument, before an empty graph's early return).
  csrgat_call* call = reinterpret_cast<csrgat_call*>(&lib);  // must come back null
  EXPECT_EQ(lib.aggregate_out(rp32, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values,
                              CSRGAT_STORAGE_F32, 1, 64, &out, 7, nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.call_create_out(rp32, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values,
                                CSRGAT_STORAGE_F32, 1, 64, &out, -1, nullptr, 0, &call),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(call, nullptr);
  EXPECT_EQ(
      lib.aggregate_out(rp32, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values, CSRGAT_STORAGE_F32, 1,
                        64, &out, CSRGAT_STORAGE_BF16, nullptr, nullptr, 0),
      CSRGAT_UNSUPPORTED);
  EXPECT_EQ(
      lib.aggregate_out(rp32, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values, CSRGAT_STORAGE_BF16, 1,
                        64, &out, CSRGAT_STORAGE_F16, nullptr, nullptr, 0),
      CSRGAT_UNSUPPORTED);
}

// The prepared call's arguments are csrgat_aggregate's, refused at creation; a null call is
// refused at launch.
TEST(CApi, PreparedCallChecksItsArguments) {
  CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.error;
  float out = 0.f, scores = 0.f, values = 0.f;
  int32_t rp32[3] = {0, 2, 3}, col[3] = {0, 1, 0};
  csrgat_call* call = reinterpret_cast<csrgat_call*>(&lib);  // must come back null
  EXPECT_EQ(lib.call_create(rp32, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values, 9, 1, 64, &out, nullptr, 0,
                            &call),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(call, nullptr);
  EXPECT_EQ(lib.call_create(rp32, col, 2, 3, 5, &scores, &values, CSRGAT_STORAGE_F32, 1, 64, &out, nullptr, 0,
                            &call),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.call_create(nullptr, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values, CSRGAT_STORAGE_F32, 1, 64,
                            &out, nullptr, 0, &call),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.call_create(rp32, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values, CSRGAT_STORAGE_F32, 1, 64,
                            &out, nullptr, 0, nullptr),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_EQ(lib.call_create(rp32, col, 2, 3, CSRGAT_INDEX_I32, &scores, &values, CSRGAT_STORAGE_F32, 1 << 16,
                            1 << 15, &out, nullptr, 0, &call),
            CSRGAT_UNSUPPORTED);
  EXPECT_EQ(call, nullptr);
  EXPECT_EQ(lib.call_launch(nullptr, nullptr), CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(lib.call_variant(nullptr), "");
  lib.call_destroy(nullptr);
  // An empty graph: a call that launches nothing.
  ASSERT_EQ(lib.call_create(rp32, col, 0, 0, CSRGAT_INDEX_I32, nullptr, &values, CSRGAT_STORAGE_F32, 1, 64, &out,
                            nullptr, 0, &call),
            CSRGAT_OK);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(lib.call_launch(call, nullptr), CSRGAT_OK);
  EXPECT_STREQ(lib.call_variant(call), "");
  lib.call_destroy(call);
}
