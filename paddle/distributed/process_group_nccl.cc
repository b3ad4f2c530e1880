#include "paddle/distributed/process_group_nccl.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <sstream>
#include <thread>

#include "paddle/common/errors.h"
#include "paddle/core/nccl_data_type.h"

namespace paddle::distributed {

namespace {

void CheckCuda(cudaError_t status, const char* what) {
  PD_CHECK(status == cudaSuccess, errors::PreconditionNotMet("ProcessGroupNCCL: ", what, ": ",
                                                             cudaGetErrorString(status)));
}

void CheckNccl(ncclResult_t status, const char* what) {
  PD_CHECK(status == ncclSuccess, errors::PreconditionNotMet("ProcessGroupNCCL: ", what, ": ",
                                                             ncclGetErrorString(status)));
}

ncclDataType_t NcclType(DataType dtype, const char* op) {
  std::optional<ncclDataType_t> type = NcclDataType(dtype);
  PD_CHECK(type.has_value(), errors::InvalidArgument("paddle.distributed.", op, ": NCCL has no ",
                                                     DataTypeName(dtype), " type"));
  return *type;
}

ncclRedOp_t NcclOp(ReduceOp op) {
  switch (op) {
    case ReduceOp::MAX:
      return ncclMax;
    case ReduceOp::MIN:
      return ncclMin;
    case ReduceOp::PROD:
      return ncclProd;
    case ReduceOp::AVG:
      return ncclAvg;
    default:
      return ncclSum;
  }
}

DenseTensor& GpuDense(const Tensor& t, const char* op, const char* arg, int device) {
  PD_CHECK(t.defined(), errors::InvalidArgument("paddle.distributed.", op, ": `", arg,
                                                "` is an undefined tensor"));
  DenseTensor& d = t.dense();
  PD_CHECK(d.place().is_gpu() && d.place().device() == device,
           errors::InvalidArgument("paddle.distributed.", op, ": the nccl backend needs `", arg,
                                   "` on gpu:", device, ", received a tensor on ",
                                   d.place().ToString()));
  return d;
}

class NcclTask : public Task {
 public:
  NcclTask(cudaEvent_t event, std::vector<Tensor> keep, std::chrono::milliseconds timeout,
           ncclComm_t comm, std::function<std::string(const std::string&)> describe)
      : event_(event),
        keep_(std::move(keep)),
        timeout_(timeout),
        comm_(comm),
        describe_(std::move(describe)) {}
  ~NcclTask() override { cudaEventDestroy(event_); }

  bool IsCompleted() override { return cudaEventQuery(event_) == cudaSuccess; }

  void Wait() override {
    auto deadline = std::chrono::steady_clock::now() + timeout_;
    while (true) {
      cudaError_t status = cudaEventQuery(event_);
      if (status == cudaSuccess) return;
      PD_CHECK(status == cudaErrorNotReady,
               errors::PreconditionNotMet(describe_(cudaGetErrorString(status))));
      ncclResult_t async_error = ncclSuccess;
      ncclCommGetAsyncError(comm_, &async_error);
      if (async_error != ncclSuccess || std::chrono::steady_clock::now() >= deadline) {
        ncclCommAbort(comm_);
        PD_THROW(errors::PreconditionNotMet(
            describe_(async_error != ncclSuccess ? ncclGetErrorString(async_error) : "timed out")));
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

 private:
  cudaEvent_t event_;
  std::vector<Tensor> keep_;
  std::chrono::milliseconds timeout_;
  ncclComm_t comm_;
  std::function<std::string(const std::string&)> describe_;
};

}  // namespace

struct ProcessGroupNCCL::Impl {
  int device = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
};

ProcessGroupNCCL::ProcessGroupNCCL(std::shared_ptr<TCPStore> store, int device,
                                   GroupOptions options)
    : ProcessGroup(std::move(options)), store_(std::move(store)), impl_(std::make_unique<Impl>()) {
  PD_CHECK(options_.rank >= 0 && options_.rank < options_.size,
           errors::OutOfRange("paddle.distributed: the rank must be in [0, ", options_.size,
                              "), received ", options_.rank));
  if (options_.ranks.empty()) {
    for (int r = 0; r < options_.size; ++r) options_.ranks.push_back(r);
  }
  impl_->device = device;
  CheckCuda(cudaSetDevice(device), "cudaSetDevice");
  std::string key = "pg/" + std::to_string(options_.gid) + "/nccl_unique_id";
  ncclUniqueId id;
  if (options_.rank == 0) {
    CheckNccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    const auto* bytes = reinterpret_cast<const uint8_t*>(&id);
    store_->Set(key, std::vector<uint8_t>(bytes, bytes + sizeof(id)));
  } else {
    std::vector<uint8_t> bytes = store_->Get(key);
    PD_CHECK(bytes.size() == sizeof(id),
             errors::PreconditionNotMet("ProcessGroupNCCL: the stored NCCL id has ", bytes.size(),
                                        " bytes, expected ", sizeof(id)));
    std::memcpy(&id, bytes.data(), sizeof(id));
  }
  CheckNccl(ncclCommInitRank(&impl_->comm, options_.size, id, options_.rank), "ncclCommInitRank");
  CheckCuda(cudaStreamCreate(&impl_->stream), "cudaStreamCreate");
}

ProcessGroupNCCL::~ProcessGroupNCCL() {
  if (impl_->stream != nullptr) cudaStreamDestroy(impl_->stream);
  if (impl_->comm != nullptr) ncclCommDestroy(impl_->comm);
}

std::string ProcessGroupNCCL::DescribeFailure(const char* name, const std::string& cause) const {
  std::vector<int> dead = store_->DeadRanksOrMasterGone();
  std::ostringstream os;
  os << "paddle.distributed: " << name << " failed on rank " << options_.ranks[options_.rank]
     << " of " << options_.size << ": ";
  if (dead == std::vector<int>{-1}) {
    os << "rank 0 (the store master) exited";
  } else if (!dead.empty()) {
    os << "rank(s)";
    for (int r : dead) os << " " << r;
    os << " exited";
  } else {
    os << "a peer did not take part within the timeout";
  }
  os << " [nccl: " << cause << "]";
  return os.str();
}

std::shared_ptr<Task> ProcessGroupNCCL::Finish(const char* name, std::vector<Tensor> keep,
                                               bool sync_op) {
  cudaEvent_t event;
  CheckCuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate");
  CheckCuda(cudaEventRecord(event, impl_->stream), "cudaEventRecord");
  auto task = std::make_shared<NcclTask>(
      event, std::move(keep), options_.timeout, impl_->comm,
      [this, name](const std::string& cause) { return DescribeFailure(name, cause); });
  if (sync_op) task->Wait();
  return task;
}

std::shared_ptr<Task> ProcessGroupNCCL::AllReduce(Tensor tensor, ReduceOp op, bool sync_op) {
  DenseTensor& t = GpuDense(tensor, "all_reduce", "tensor", impl_->device);
  CheckNccl(
      ncclAllReduce(t.raw_data(), t.raw_data(), static_cast<size_t>(t.numel()),
                    NcclType(t.dtype(), "all_reduce"), NcclOp(op), impl_->comm, impl_->stream),
      "ncclAllReduce");
  return Finish("all_reduce", {tensor}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::Broadcast(Tensor tensor, int root, bool sync_op) {
  DenseTensor& t = GpuDense(tensor, "broadcast", "tensor", impl_->device);
  CheckNccl(ncclBroadcast(t.raw_data(), t.raw_data(), t.nbytes(), ncclUint8, root, impl_->comm,
                          impl_->stream),
            "ncclBroadcast");
  return Finish("broadcast", {tensor}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::Reduce(Tensor tensor, int root, ReduceOp op, bool sync_op) {
  DenseTensor& t = GpuDense(tensor, "reduce", "tensor", impl_->device);
  CheckNccl(ncclReduce(t.raw_data(), t.raw_data(), static_cast<size_t>(t.numel()),
                       NcclType(t.dtype(), "reduce"), NcclOp(op), root, impl_->comm, impl_->stream),
            "ncclReduce");
  return Finish("reduce", {tensor}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::AllGather(Tensor out, Tensor in, bool sync_op) {
  DenseTensor& o = GpuDense(out, "all_gather", "out", impl_->device);
  DenseTensor& i = GpuDense(in, "all_gather", "tensor", impl_->device);
  CheckNccl(
      ncclAllGather(i.raw_data(), o.raw_data(), i.nbytes(), ncclUint8, impl_->comm, impl_->stream),
      "ncclAllGather");
  return Finish("all_gather", {out, in}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::ReduceScatter(Tensor out, Tensor in, ReduceOp op,
                                                      bool sync_op) {
  DenseTensor& o = GpuDense(out, "reduce_scatter", "tensor", impl_->device);
  DenseTensor& i = GpuDense(in, "reduce_scatter", "tensor_list", impl_->device);
  CheckNccl(ncclReduceScatter(i.raw_data(), o.raw_data(), static_cast<size_t>(o.numel()),
                              NcclType(o.dtype(), "reduce_scatter"), NcclOp(op), impl_->comm,
                              impl_->stream),
            "ncclReduceScatter");
  return Finish("reduce_scatter", {out, in}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::Scatter(Tensor out, Tensor in, int root, bool sync_op) {
  DenseTensor& o = GpuDense(out, "scatter", "tensor", impl_->device);
  CheckNccl(ncclGroupStart(), "ncclGroupStart");
  if (options_.rank == root) {
    auto* base =
        static_cast<uint8_t*>(GpuDense(in, "scatter", "tensor_list", impl_->device).raw_data());
    for (int r = 0; r < options_.size; ++r) {
      CheckNccl(
          ncclSend(base + r * o.nbytes(), o.nbytes(), ncclUint8, r, impl_->comm, impl_->stream),
          "ncclSend");
    }
  }
  CheckNccl(ncclRecv(o.raw_data(), o.nbytes(), ncclUint8, root, impl_->comm, impl_->stream),
            "ncclRecv");
  CheckNccl(ncclGroupEnd(), "ncclGroupEnd");
  return Finish("scatter", {out, in}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::AllToAll(Tensor out, Tensor in, bool sync_op) {
  DenseTensor& o = GpuDense(out, "alltoall", "out", impl_->device);
  DenseTensor& i = GpuDense(in, "alltoall", "in", impl_->device);
  size_t chunk = i.nbytes() / static_cast<size_t>(options_.size);
  CheckNccl(ncclGroupStart(), "ncclGroupStart");
  for (int r = 0; r < options_.size; ++r) {
    CheckNccl(ncclSend(static_cast<uint8_t*>(i.raw_data()) + r * chunk, chunk, ncclUint8, r,
                       impl_->comm, impl_->stream),
              "ncclSend");
    CheckNccl(ncclRecv(static_cast<uint8_t*>(o.raw_data()) + r * chunk, chunk, ncclUint8, r,
                       impl_->comm, impl_->stream),
              "ncclRecv");
  }
  CheckNccl(ncclGroupEnd(), "ncclGroupEnd");
  return Finish("alltoall", {out, in}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::Send(Tensor tensor, int dst, bool sync_op) {
  DenseTensor& t = GpuDense(tensor, "send", "tensor", impl_->device);
  CheckNccl(ncclSend(t.raw_data(), t.nbytes(), ncclUint8, dst, impl_->comm, impl_->stream),
            "ncclSend");
  return Finish("send", {tensor}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::Recv(Tensor tensor, int src, bool sync_op) {
  DenseTensor& t = GpuDense(tensor, "recv", "tensor", impl_->device);
  CheckNccl(ncclRecv(t.raw_data(), t.nbytes(), ncclUint8, src, impl_->comm, impl_->stream),
            "ncclRecv");
  return Finish("recv", {tensor}, sync_op);
}

std::shared_ptr<Task> ProcessGroupNCCL::Barrier() {
  // An all-reduce of one element, waited for: every rank has reached it when it completes.
  void* scratch = nullptr;
  CheckCuda(cudaMalloc(&scratch, sizeof(float)), "cudaMalloc");
  ncclResult_t status =
      ncclAllReduce(scratch, scratch, 1, ncclFloat32, ncclSum, impl_->comm, impl_->stream);
  std::shared_ptr<Task> task;
  if (status == ncclSuccess) task = Finish("barrier", {}, true);
  cudaFree(scratch);
  CheckNccl(status, "ncclAllReduce");
  return task;
}

}  // namespace paddle::distributed
