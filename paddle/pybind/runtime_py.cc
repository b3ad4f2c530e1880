// Process-wide settings: flags, the random seed, the default place, devices, memory stats and
// what the CPU libraries report.
#include <pybind11/stl.h>

#include "paddle/common/flags.h"
#include "paddle/core/device_context.h"
#include "paddle/core/generator.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/kernels/funcs/onednn_info.h"
#include "paddle/memory/malloc.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

void BindRuntime(py::module_& m) {
  m.def("_list_flags", &flags::List);
  m.def("_get_flag", &flags::Get, py::arg("name"));
  m.def("_set_flag", &flags::Set, py::arg("name"), py::arg("value"));
  m.def("_flag_type", &flags::TypeOf, py::arg("name"));

  m.def(
      "_seed", [](uint64_t seed) { DefaultGenerator().Seed(seed); }, py::arg("seed"));
  m.def("_initial_seed", []() { return DefaultGenerator().seed(); });
  m.def("_rng_state", []() { return py::bytes(DefaultGenerator().State()); });
  m.def(
      "_set_rng_state", [](const std::string& state) { return DefaultGenerator().SetState(state); },
      py::arg("state"));

  m.def("_set_default_place",
        [](py::object place) { imperative::SetDefaultPlace(PlaceFromPy(place)); });
  m.def("_default_place", []() { return PlaceToPy(imperative::DefaultPlace()); });
  m.def("get_cuda_device_count", &GetGPUDeviceCount);
  m.def("is_compiled_with_cuda", []() {
#ifdef PADDLE_WITH_CUDA
    return true;
#else
    return false;
#endif
  });

  m.def("_memory_allocated",
        [](py::object place) { return memory::StatCurrent(PlaceFromPy(place)); });
  m.def("_max_memory_allocated",
        [](py::object place) { return memory::StatPeak(PlaceFromPy(place)); });
  m.def("_reset_max_memory_allocated",
        [](py::object place) { memory::ResetPeak(PlaceFromPy(place)); });
  m.def("_memory_reserved",
        [](py::object place) { return memory::ReservedCurrent(PlaceFromPy(place)); });
  m.def("_max_memory_reserved",
        [](py::object place) { return memory::ReservedPeak(PlaceFromPy(place)); });
  m.def("_reset_max_memory_reserved",
        [](py::object place) { memory::ResetReservedPeak(PlaceFromPy(place)); });
  m.def("_onednn_info", []() {
    funcs::onednn::LibraryInfo info = funcs::onednn::Info();
    py::dict d;
    d["version"] = info.version;
    d["isa"] = info.isa;
    d["threads"] = info.threads;
    return d;
  });
  m.def("_release_memory", [](py::object place) { return memory::Release(PlaceFromPy(place)); });
}

}  // namespace paddle::pybind
