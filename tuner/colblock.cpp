#include "tuner/colblock.h"

#include "profiler/check.h"

namespace csrgat::tuner {

std::string ColblockKernel::unsupported(const graphs::Csr64& g, int heads, int feat, int device,
                                        const ColblockOptions& o) {
  return colblock::unsupported(g.num_nodes, g.num_edges(), heads, feat, o.value, device, o);
}

ColblockKernel::ColblockKernel(const graphs::Csr64& g, const int* row_ptr, const int* col,
                               const float* scores, const void* values, float* out, int device,
                               const ColblockOptions& o)
    : scores_(scores), values_(values), out_(out) {
  if (const std::string why = unsupported(g, 1, 128, device, o); !why.empty())
    throw colblock::Unsupported(why);
  if (o.plan_on_device)
    sweep_ =
        std::make_unique<colblock::Sweep>(row_ptr, col, g.num_nodes, g.num_edges(), o, o.value);
  else
    sweep_ = std::make_unique<colblock::Sweep>(
        row_ptr, colblock::build_plan(g.row_ptr, g.col, g.num_nodes, o.rows_per_warp, o.part_shift),
        g.num_nodes, o, o.value);
}

ColblockKernel::~ColblockKernel() = default;

void ColblockKernel::launch(cudaStream_t s) const {
  CSRGAT_CUDA_CHECK(sweep_->launch(scores_, values_, out_, s));
}

unsigned ColblockKernel::timeouts() const {
  return sweep_->timeouts();
}

nlohmann::json ColblockKernel::describe() const {
  return tuner::describe(*sweep_);
}

nlohmann::json describe(const colblock::Sweep& s) {
  const colblock::Sweep::Info& i = s.info();
  const colblock::Geometry& g = s.geometry();
  return {{"value", s.value() == colblock::kBfloat16 ? "bf16" : "f32"},
          {"blocks", i.blocks},
          {"warps_per_block", colblock::kWarpsPerBlock},
          {"smem_per_block", i.smem_per_block},
          {"rows_per_warp", g.rows_per_warp},
          {"register_rows", colblock::kRegisterRows},
          {"ring_slots", colblock::ring_slots(s.value())},
          {"partition_rows", 1 << g.part_shift},
          {"partitions", i.partitions},
          {"lag", g.lag},
          {"first_poll_sleep_ns",
           colblock::poll_pause_ns_for(g.poll_pause_ns, s.value() == colblock::kFloat32)},
          {"l1_policy", g.l1_policy},
          {"kernel", i.kernel},
          {"batches", i.batches},
          {"x", i.x},
          {"plan_bytes", i.plan_bytes},
          {"plan_build_s", i.plan_seconds},
          {"plan_built_on", i.plan_on_device ? "device" : "host"},
          {"barrier_timeouts", s.timeouts()}};
}

}  // namespace csrgat::tuner
