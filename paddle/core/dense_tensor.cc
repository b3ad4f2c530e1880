#include "paddle/core/dense_tensor.h"

#include "paddle/memory/malloc.h"

namespace paddle {

const void* DenseTensor::raw_data() const {
  if (numel() == 0) return nullptr;
  PD_CHECK(initialized(),
           errors::PreconditionNotMet("the tensor of shape ", dims().ToString(),
                                      " holds no data; it must be initialised before it is read"));
  return static_cast<const char*>(holder_->ptr()) + offset_;
}

void* DenseTensor::raw_data() {
  return const_cast<void*>(static_cast<const DenseTensor*>(this)->raw_data());
}

namespace {

// The bytes a tensor of `dims` and `dtype` takes. A shape whose size does not fit in 64 bits (a
// hostile one: [2^40, 2^40]) is ResourceExhausted, a MemoryError naming the shape, rather than a
// wrapped-around size that a kernel would then write past.
size_t CheckedBytes(const DDim& dims, DataType dtype) {
  uint64_t bytes = SizeOf(dtype);
  for (int i = 0; i < dims.size(); ++i) {
    PD_CHECK(dims[i] >= 0,
             errors::InvalidArgument("cannot allocate a tensor of shape ", dims.ToString(),
                                     ": dimension ", i, " is negative"));
    PD_CHECK(!__builtin_mul_overflow(bytes, static_cast<uint64_t>(dims[i]), &bytes),
             errors::ResourceExhausted("cannot allocate a tensor of shape ", dims.ToString(),
                                       " and dtype ", DataTypeName(dtype),
                                       ": it needs more than 2^64 bytes"));
  }
  return bytes;
}

}  // namespace

void* DenseTensor::AllocateStorage(const Place& place) {
  size_t bytes = CheckedBytes(meta_.dims, meta_.dtype);
  // A holder already in place is written through: that is how an in-place op's output lands in
  // its input's buffer.
  bool reusable = holder_ && holder_->place() == place && holder_->size() >= offset_ + bytes;
  if (!reusable) {
    holder_ = memory::Alloc(place, bytes);
    offset_ = 0;
  }
  place_ = place;
  return bytes == 0 ? nullptr : static_cast<char*>(holder_->ptr()) + offset_;
}

void DenseTensor::ShareBufferWith(const DenseTensor& other) {
  holder_ = other.holder_;
  offset_ = other.offset_;
  place_ = other.place();
}

void DenseTensor::CheckType(DataType requested) const {
  PD_INTERNAL_ASSERT(requested == meta_.dtype, "tensor holds ", DataTypeName(meta_.dtype),
                     " but was read as ", DataTypeName(requested));
}

}  // namespace paddle
