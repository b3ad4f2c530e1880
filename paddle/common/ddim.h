// DDim: the dimensions of a tensor, stored inline (no heap) because every op call builds several.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace paddle {

class DDim {
 public:
  static constexpr int kMaxRank = 9;

  DDim() = default;
  DDim(std::initializer_list<int64_t> dims);
  explicit DDim(const std::vector<int64_t>& dims);
  DDim(const int64_t* dims, int rank);

  int size() const { return rank_; }
  int64_t operator[](int i) const { return dims_[i]; }
  int64_t& operator[](int i) { return dims_[i]; }
  const int64_t* data() const { return dims_.data(); }

  // Product of all dims; 1 for a 0-d tensor.
  int64_t numel() const;
  std::vector<int64_t> ToVector() const { return {dims_.begin(), dims_.begin() + rank_}; }
  std::string ToString() const;  // "[2, 3]"

  bool operator==(const DDim& other) const;
  bool operator!=(const DDim& other) const { return !(*this == other); }

 private:
  std::array<int64_t, kMaxRank> dims_{};
  int rank_ = 0;
};

// Normalises an axis in [-rank, rank) to [0, rank); throws OutOfRange naming `op` and `arg`.
int NormalizeAxis(int64_t axis, int rank, const char* op, const char* arg = "axis");
// NormalizeAxis for an op that reads the size of dimension `axis`: a 0-d tensor has none, so
// there it is OutOfRange too, naming the op and `arg`.
int AxisOfDim(int64_t axis, int rank, const char* op, const char* arg = "axis");

// Row-major strides in elements.
std::vector<int64_t> ContiguousStrides(const DDim& dims);

}  // namespace paddle
