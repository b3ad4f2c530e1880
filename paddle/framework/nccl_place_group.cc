#include "paddle/framework/nccl_place_group.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <sstream>

#include "paddle/common/errors.h"
#include "paddle/core/device_context.h"
#include "paddle/core/nccl_data_type.h"
#include "paddle/kernels/gpu/gpu_check.h"
#include "paddle/kernels/gpu/gpu_context.h"

namespace paddle::framework {

namespace {

ncclDataType_t NcclType(const DenseTensor& t, const std::string& places) {
  std::optional<ncclDataType_t> type = NcclDataType(t.dtype());
  PD_CHECK(
      type.has_value() && IsFloating(t.dtype()),
      errors::Unimplemented("ParallelExecutor: a gradient of data type ", DataTypeName(t.dtype()),
                            " on ", places, "; only floating-point gradients are all-reduced"));
  return *type;
}

// Each gradient's NCCL type, found before a group starts: a throw inside one would leave it open.
std::vector<ncclDataType_t> NcclTypes(const std::vector<std::vector<DenseTensor*>>& bucket,
                                      const std::string& places) {
  std::vector<ncclDataType_t> types;
  for (const std::vector<DenseTensor*>& tensors : bucket) {
    types.push_back(NcclType(*tensors[0], places));
  }
  return types;
}

}  // namespace

struct NCCLPlaceGroup::Impl {
  std::vector<int> devices;
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
  // Recorded on the places' GPUContext streams, waited for by the NCCL streams.
  std::vector<cudaEvent_t> ready;
};

NCCLPlaceGroup::NCCLPlaceGroup(std::vector<Place> places)
    : places_(std::move(places)), impl_(std::make_unique<Impl>()) {
  PD_CHECK(!places_.empty(),
           errors::InvalidArgument("NCCLPlaceGroup: 'places' must name at least one GPU place"));
  for (const Place& place : places_) {
    PD_CHECK(place.is_gpu(), errors::InvalidArgument("NCCLPlaceGroup: every place must be a GPU "
                                                     "place, but received ",
                                                     place.ToString(), " in ", Describe()));
    impl_->devices.push_back(place.device());
  }
  impl_->comms.assign(places_.size(), nullptr);
  ncclResult_t status =
      ncclCommInitAll(impl_->comms.data(), static_cast<int>(places_.size()), impl_->devices.data());
  PD_CHECK(status == ncclSuccess,
           errors::PreconditionNotMet("ParallelExecutor: ncclCommInitAll over ", Describe(),
                                      " failed: ", ncclGetErrorString(status)));
  for (int device : impl_->devices) {
    gpu::DeviceGuard guard(device);
    cudaStream_t stream = nullptr;
    PD_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), device);
    impl_->streams.push_back(stream);
    cudaEvent_t event = nullptr;
    PD_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), device);
    impl_->ready.push_back(event);
  }
}

NCCLPlaceGroup::~NCCLPlaceGroup() {
  for (size_t p = 0; p < impl_->streams.size(); ++p) {
    gpu::DeviceGuard guard(impl_->devices[p]);
    cudaEventDestroy(impl_->ready[p]);
    cudaStreamDestroy(impl_->streams[p]);
  }
  for (ncclComm_t comm : impl_->comms) {
    if (comm != nullptr) ncclCommDestroy(comm);
  }
}

std::string NCCLPlaceGroup::Describe() const {
  std::ostringstream os;
  os << "places [";
  for (size_t p = 0; p < places_.size(); ++p) os << (p > 0 ? ", " : "") << places_[p].ToString();
  os << "]";
  return os.str();
}

template <typename Enqueue>
void NCCLPlaceGroup::Run(const char* call, Enqueue enqueue) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t p = 0; p < places_.size(); ++p) {
    const int device = impl_->devices[p];
    gpu::DeviceGuard guard(device);
    const auto& context = static_cast<const GPUContext&>(GetDeviceContext(places_[p]));
    PD_CUDA_CHECK(cudaEventRecord(impl_->ready[p], context.stream()), device);
    PD_CUDA_CHECK(cudaStreamWaitEvent(impl_->streams[p], impl_->ready[p], 0), device);
  }
  auto check = [&](ncclResult_t status, const char* what) {
    PD_CHECK(status == ncclSuccess,
             errors::PreconditionNotMet("ParallelExecutor: ", what, " over ", Describe(),
                                        " failed: ", ncclGetErrorString(status)));
  };
  check(ncclGroupStart(), "ncclGroupStart");
  ncclResult_t enqueued = ncclSuccess;
  for (size_t p = 0; p < places_.size() && enqueued == ncclSuccess; ++p) {
    enqueued = enqueue(p, impl_->comms[p], impl_->streams[p]);
  }
  // The group is closed even when a call failed, so the communicators stay usable.
  ncclResult_t ended = ncclGroupEnd();
  check(enqueued, call);
  check(ended, "ncclGroupEnd");
  for (size_t p = 0; p < places_.size(); ++p) {
    PD_CUDA_CHECK(cudaStreamSynchronize(impl_->streams[p]), impl_->devices[p]);
    ncclResult_t async = ncclSuccess;
    check(ncclCommGetAsyncError(impl_->comms[p], &async), "ncclCommGetAsyncError");
    check(async, call);
  }
}

std::vector<std::vector<DenseTensor>> NCCLPlaceGroup::NewBuffers(
    const std::vector<std::vector<DenseTensor*>>& bucket, int root) const {
  std::vector<std::vector<DenseTensor>> sums(bucket.size());
  for (size_t g = 0; g < bucket.size(); ++g) {
    for (size_t p = 0; p < places_.size(); ++p) {
      DenseTensor& sum = sums[g].emplace_back(bucket[g][p]->meta());
      if (root < 0 || static_cast<int>(p) == root) sum.AllocateStorage(places_[p]);
    }
  }
  return sums;
}

void NCCLPlaceGroup::AllReduce(const std::vector<std::vector<DenseTensor*>>& bucket) {
  std::vector<ncclDataType_t> types = NcclTypes(bucket, Describe());
  std::vector<std::vector<DenseTensor>> sums = NewBuffers(bucket, -1);
  Run("ncclAllReduce", [&](size_t p, ncclComm_t comm, cudaStream_t stream) {
    for (size_t g = 0; g < bucket.size(); ++g) {
      const DenseTensor& t = *bucket[g][p];
      ncclResult_t status =
          ncclAllReduce(t.raw_data(), sums[g][p].raw_data(), static_cast<size_t>(t.numel()),
                        types[g], ncclSum, comm, stream);
      if (status != ncclSuccess) return status;
    }
    return ncclSuccess;
  });
  for (size_t g = 0; g < bucket.size(); ++g) {
    for (size_t p = 0; p < places_.size(); ++p) *bucket[g][p] = sums[g][p];
  }
}

void NCCLPlaceGroup::Reduce(const std::vector<std::vector<DenseTensor*>>& bucket, int root) {
  std::vector<ncclDataType_t> types = NcclTypes(bucket, Describe());
  std::vector<std::vector<DenseTensor>> sums = NewBuffers(bucket, root);
  Run("ncclReduce", [&](size_t p, ncclComm_t comm, cudaStream_t stream) {
    for (size_t g = 0; g < bucket.size(); ++g) {
      DenseTensor& t = *bucket[g][p];
      // NCCL writes only the root's receive buffer; the others pass their send buffer.
      void* received = static_cast<int>(p) == root ? sums[g][p].raw_data() : t.raw_data();
      ncclResult_t status = ncclReduce(t.raw_data(), received, static_cast<size_t>(t.numel()),
                                       types[g], ncclSum, root, comm, stream);
      if (status != ncclSuccess) return status;
    }
    return ncclSuccess;
  });
  for (size_t g = 0; g < bucket.size(); ++g) *bucket[g][root] = sums[g][root];
}

void NCCLPlaceGroup::Broadcast(const std::vector<DenseTensor*>& tensors, int root) {
  Run("ncclBroadcast", [&](size_t p, ncclComm_t comm, cudaStream_t stream) {
    DenseTensor& t = *tensors[p];
    return ncclBroadcast(t.raw_data(), t.raw_data(), t.nbytes(), ncclUint8, root, comm, stream);
  });
}

}  // namespace paddle::framework
