// Reducer: DataParallel's gradient synchronisation, as PaddlePaddle's EagerReducer. Parameters
// are grouped into buckets (by the Python side, from comm_buffer_size / last_comm_buffer_size, in
// the order backward produces their gradients). When the last gradient of a bucket has been
// accumulated, the bucket is packed into one flat buffer and its all-reduce (average) starts on
// the process group's communication thread while backward goes on; buckets start in bucket
// order on every rank, which keeps the ranks' collectives matched. When every bucket has
// started, the reducer waits for them and writes the averaged values back into the gradients.
//
// A parameter with a sparse (SelectedRows) gradient, an Embedding(sparse=True) weight, has a
// bucket of its own; its "all-reduce" is Paddle's: every rank's rows and values are gathered
// (all_gather of the row counts, then of the rows and values padded to the largest count), the
// values divided by the number of ranks and the rows merged.
#pragma once

#include <chrono>
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
  // `sparse[i]`: parameter i gets a SelectedRows gradient; it must be alone in its bucket.
  Reducer(std::vector<Tensor> params, std::vector<std::vector<size_t>> buckets,
          std::vector<bool> sparse, std::shared_ptr<ProcessGroup> group,
          bool find_unused_parameters);

  // Arms the reducer for the backward of `outputs` (called by DataParallel's forward while
  // gradients are synchronised). With find_unused_parameters, parameters that `outputs` do not
  // depend on count as ready at once, contributing zeros.
  void PrepareForBackward(const std::vector<Tensor>& outputs);

  // Seconds the last backward waited for the all-reduces once every bucket had started: the
  // communication that did not overlap backward.
  double last_wait_seconds() const { return last_wait_seconds_; }

  // The timeline of the last synchronised backward, in seconds after PrepareForBackward (the
  // end of forward): when each bucket's all-reduce was launched and when it finished, in
  // launch order, and when the last gradient was accumulated (backward's computation ended).
  struct Timeline {
    std::vector<double> launched, finished;
    double last_gradient = 0;
    // Buckets launched before the last gradient arrived: they overlap backward.
    int launched_before_last_gradient = 0;
  };
  const Timeline& last_timeline() const { return last_timeline_; }

 private:
  struct Bucket {
    std::vector<size_t> params;
    std::vector<int64_t> offsets;  // element offset of each parameter in `flat`
    Tensor flat;
    bool sparse = false;
    std::shared_ptr<SelectedRows> gathered;  // a sparse bucket's averaged rows
    size_t pending = 0;
    std::shared_ptr<Task> task;
    std::chrono::steady_clock::time_point launched, gathered_at;
  };

  void MarkReady(size_t param);
  void Launch();
  // A sparse bucket's gather of every rank's rows (synchronous: the row counts decide the
  // sizes of the second gather).
  void GatherRows(Bucket* bucket);
  void Finalize();
  double Since(std::chrono::steady_clock::time_point t) const;

  std::vector<Tensor> params_;
  std::vector<Bucket> buckets_;
  std::vector<size_t> bucket_of_, slot_in_bucket_;
  std::vector<bool> ready_;
  std::shared_ptr<ProcessGroup> group_;
  bool find_unused_;
  bool armed_ = false;
  size_t next_launch_ = 0;
  std::chrono::steady_clock::time_point armed_at_, last_ready_at_;
  double last_wait_seconds_ = 0;
  Timeline last_timeline_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace paddle::distributed
