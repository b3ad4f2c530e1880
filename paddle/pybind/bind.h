// The pieces of the libpaddle Python module, one Bind* function per area.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "paddle/common/place.h"
#include "paddle/core/tensor.h"

namespace paddle::pybind {

namespace py = pybind11;

void BindErrors(py::module_& m);
void BindCommon(py::module_& m);
void BindTensor(py::module_& m);
void BindTensorIO(py::module_& m);
void BindOps(py::module_& m);
void BindAutograd(py::module_& m);
void BindRuntime(py::module_& m);
void BindInference(py::module_& m);
void BindDistributed(py::module_& m);

void BindFramework(py::module_& m);
void BindParallelExecutor(py::module_& m);

// A NumPy copy of the tensor's data (on the host).
pybind11::array TensorToNumpy(const Tensor& t);
// A tensor on `place` holding the array's data; `dtype` BFLOAT16 reads uint16 data as bfloat16.
Tensor TensorFromNumpy(const pybind11::array& source, const Place& place, DataType dtype);

// A Python object for `place` of the matching class (CPUPlace, CUDAPlace, CUDAPinnedPlace).
py::object PlaceToPy(const Place& place);
// Accepts a Place object, a string ("cpu", "gpu", "gpu:1") or None (undefined).
Place PlaceFromPy(py::handle obj);

}  // namespace paddle::pybind
