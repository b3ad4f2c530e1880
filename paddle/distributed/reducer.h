// Reducer: DataParallel's gradient synchronisation, as PaddlePaddle's EagerReducer. Parameters
// are grouped into buckets (by the Python side, from comm_buffer_size / last_comm_buffer_size, in
// the order backward produces their gradients). When the last gradient of a bucket has been
// accumulated, the bucket is packed into one flat buffer and its all-reduce (average) starts on
// the process group's communication thread while backward goes on; buckets start in bucket
// order on every rank, which keeps the ranks' collectives matched. When every bucket has
// started, the reducer waits for them and writes the averaged values back into the gradients.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "paddle/core/tensor.h"
#include "paddle/distributed/process_group.h"

namespace paddle::distributed {

class Reducer {
 public:
  // `buckets` lists parameter indices; each parameter appears in exactly one bucket and a
  // bucket's parameters share a dtype.
  Reducer(std::vector<Tensor> params, std::vector<std::vector<size_t>> buckets,
          std::shared_ptr<ProcessGroup> group, bool find_unused_parameters);

  // Arms the reducer for the backward of `outputs` (called by DataParallel's forward while
  // gradients are synchronised). With find_unused_parameters, parameters that `outputs` do not
  // depend on count as ready at once, contributing zeros.
  void PrepareForBackward(const std::vector<Tensor>& outputs);

  // Seconds the last backward waited for the all-reduces once every bucket had started: the
  // communication that did not overlap backward.
  double last_wait_seconds() const { return last_wait_seconds_; }

 private:
  struct Bucket {
    std::vector<size_t> params;
    std::vector<int64_t> offsets;  // element offset of each parameter in `flat`
    Tensor flat;
    size_t pending = 0;
    std::shared_ptr<Task> task;
  };

  void MarkReady(size_t param);
  void Launch();
  void Finalize();

  std::vector<Tensor> params_;
  std::vector<Bucket> buckets_;
  std::vector<size_t> bucket_of_, slot_in_bucket_;
  std::vector<bool> ready_;
  std::shared_ptr<ProcessGroup> group_;
  bool find_unused_;
  bool armed_ = false;
  size_t next_launch_ = 0;
  double last_wait_seconds_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace paddle::distributed
