#include "paddle/common/ddim.h"

#include <sstream>

#include "paddle/common/errors.h"

namespace paddle {

namespace {
void CheckRank(size_t rank) {
  PD_CHECK(rank <= static_cast<size_t>(DDim::kMaxRank),
           errors::InvalidArgument("tensors have at most ", DDim::kMaxRank,
                                   " dimensions, received a shape of rank ", rank));
}
}  // namespace

DDim::DDim(std::initializer_list<int64_t> dims) {
  CheckRank(dims.size());
  rank_ = static_cast<int>(dims.size());
  int i = 0;
  for (int64_t d : dims) dims_[i++] = d;
}

DDim::DDim(const std::vector<int64_t>& dims) : DDim(dims.data(), static_cast<int>(dims.size())) {}

DDim::DDim(const int64_t* dims, int rank) {
  CheckRank(static_cast<size_t>(rank));
  rank_ = rank;
  for (int i = 0; i < rank; ++i) dims_[i] = dims[i];
}

int64_t DDim::numel() const {
  int64_t n = 1;
  for (int i = 0; i < rank_; ++i) n *= dims_[i];
  return n;
}

std::string DDim::ToString() const {
  std::ostringstream os;
  os << "[";
  for (int i = 0; i < rank_; ++i) os << (i ? ", " : "") << dims_[i];
  os << "]";
  return os.str();
}

bool DDim::operator==(const DDim& other) const {
  if (rank_ != other.rank_) return false;
  for (int i = 0; i < rank_; ++i) {
    if (dims_[i] != other.dims_[i]) return false;
  }
  return true;
}

int NormalizeAxis(int64_t axis, int rank, const char* op, const char* arg) {
  // A 0-d tensor accepts axis 0 and -1, as in Paddle.
  int bound = rank == 0 ? 1 : rank;
  PD_CHECK(axis >= -bound && axis < bound,
           errors::OutOfRange(op, ": argument '", arg, "' expected to be in range [", -bound, ", ",
                              bound, ") for a tensor of rank ", rank, ", but received ", axis));
  return static_cast<int>(axis < 0 ? axis + bound : axis);
}

int AxisOfDim(int64_t axis, int rank, const char* op, const char* arg) {
  PD_CHECK(rank > 0, errors::OutOfRange(op, ": argument '", arg, "' (", axis,
                                        ") names a dimension, but the tensor is 0-D"));
  return NormalizeAxis(axis, rank, op, arg);
}

std::vector<int64_t> ContiguousStrides(const DDim& dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = 1;
  for (int i = dims.size() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= dims[i];
  }
  return strides;
}

}  // namespace paddle
