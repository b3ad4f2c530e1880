// CPU kernels of the static-graph collective ops (c_allreduce_*, c_broadcast, c_allgather,
// c_reducescatter). They run on the CommRing their ring_id names (paddle/core/comm_ring.h),
// which the distributed layer registers for each process group. A program run without
// init_parallel_env is a world of one rank: on ring 0 the collectives are then copies, as every
// collective of a one-rank group is. use_calc_stream orders GPU streams; a CPU collective has
// finished when the kernel returns.
#pragma once

#include <cstring>
#include <memory>

#include "paddle/common/errors.h"
#include "paddle/core/comm_ring.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"

namespace paddle {

namespace collective {

// The ring of `ring_id`, or null for ring 0 of a one-rank world; `nranks` is the op's attribute
// (0 when the op has none).
inline std::shared_ptr<CommRing> Ring(const char* op, int ring_id, int nranks) {
  std::shared_ptr<CommRing> ring = GetCommRing(ring_id);
  if (ring == nullptr) {
    PD_CHECK(ring_id == 0 && nranks <= 1,
             errors::PreconditionNotMet(op, ": ring_id ", ring_id,
                                        " has no process group; call "
                                        "paddle.distributed.init_parallel_env() (and new_group "
                                        "for a ring other than 0) before running the program"));
    return nullptr;
  }
  PD_CHECK(nranks == 0 || nranks == ring->nranks(),
           errors::InvalidArgument(op, ": attribute nranks is ", nranks, " but ring ", ring_id,
                                   " has ", ring->nranks(), " ranks"));
  return ring;
}

template <typename T, typename Context>
void CopyInto(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (x.numel() > 0) std::memcpy(o, x.data<T>(), x.nbytes());
}

template <typename T, typename Context>
void AllReduce(const Context& ctx, const char* op, const DenseTensor& x, int ring_id, int reduce_op,
               DenseTensor* out) {
  CopyInto<T>(ctx, x, out);
  if (auto ring = Ring(op, ring_id, 0)) ring->AllReduce(out, reduce_op);
}

}  // namespace collective

template <typename T, typename Context>
void CAllreduceSumKernel(const Context& ctx, const DenseTensor& x, int ring_id,
                         bool use_calc_stream, bool use_model_parallel, DenseTensor* out) {
  collective::AllReduce<T>(ctx, "c_allreduce_sum", x, ring_id, 0, out);
}

template <typename T, typename Context>
void CAllreduceMaxKernel(const Context& ctx, const DenseTensor& x, int ring_id,
                         bool use_calc_stream, bool use_model_parallel, DenseTensor* out) {
  collective::AllReduce<T>(ctx, "c_allreduce_max", x, ring_id, 1, out);
}

template <typename T, typename Context>
void CAllreduceMinKernel(const Context& ctx, const DenseTensor& x, int ring_id,
                         bool use_calc_stream, bool use_model_parallel, DenseTensor* out) {
  collective::AllReduce<T>(ctx, "c_allreduce_min", x, ring_id, 2, out);
}

template <typename T, typename Context>
void CAllreduceProdKernel(const Context& ctx, const DenseTensor& x, int ring_id,
                          bool use_calc_stream, bool use_model_parallel, DenseTensor* out) {
  collective::AllReduce<T>(ctx, "c_allreduce_prod", x, ring_id, 3, out);
}

template <typename T, typename Context>
void CBroadcastKernel(const Context& ctx, const DenseTensor& x, int ring_id, int root,
                      bool use_calc_stream, DenseTensor* out) {
  collective::CopyInto<T>(ctx, x, out);
  auto ring = collective::Ring("c_broadcast", ring_id, 0);
  int nranks = ring ? ring->nranks() : 1;
  PD_CHECK(root >= 0 && root < nranks,
           errors::OutOfRange("c_broadcast: attribute root must be in [0, ", nranks, "), received ",
                              root));
  if (ring) ring->Broadcast(out, root);
}

template <typename T, typename Context>
void CAllgatherKernel(const Context& ctx, const DenseTensor& x, int ring_id, int nranks,
                      bool use_calc_stream, DenseTensor* out) {
  auto ring = collective::Ring("c_allgather", ring_id, nranks);
  if (ring == nullptr) return collective::CopyInto<T>(ctx, x, out);
  ctx.template Alloc<T>(out);
  ring->AllGather(x, out);
}

template <typename T, typename Context>
void CReducescatterKernel(const Context& ctx, const DenseTensor& x, int ring_id, int nranks,
                          bool use_calc_stream, DenseTensor* out) {
  auto ring = collective::Ring("c_reducescatter", ring_id, nranks);
  if (ring == nullptr) return collective::CopyInto<T>(ctx, x, out);
  ctx.template Alloc<T>(out);
  ring->ReduceScatter(x, out, 0);
}

}  // namespace paddle
