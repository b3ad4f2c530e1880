// The ParallelExecutor: per-place scopes and the multi-place executor that
// python/paddle/static/parallel_executor.py drives.
#include <pybind11/stl.h>

#include "paddle/framework/parallel_executor.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

void BindParallelExecutor(py::module_& m) {
  using framework::ParallelExecutor;
  using framework::PlaceScopes;

  py::class_<PlaceScopes, std::shared_ptr<PlaceScopes>>(m, "PlaceScopes")
      .def(py::init([](framework::Scope* scope, const std::vector<py::handle>& places) {
             std::vector<Place> resolved;
             for (py::handle place : places) resolved.push_back(PlaceFromPy(place));
             return std::make_shared<PlaceScopes>(scope, std::move(resolved));
           }),
           py::arg("scope"), py::arg("places"), py::keep_alive<1, 2>())
      .def("size", &PlaceScopes::size)
      .def("local_scope", &PlaceScopes::local, py::return_value_policy::reference_internal);

  py::class_<ParallelExecutor>(m, "NativeParallelExecutor")
      .def(py::init([](const framework::ProgramDesc& program, std::shared_ptr<PlaceScopes> scopes,
                       const std::vector<std::string>& skip_vars, bool enable_inplace,
                       int num_threads, int num_iteration_per_drop_scope,
                       const std::vector<std::string>& gradients, bool fuse_all_reduce,
                       bool reduce_to_owner) {
             framework::ParallelExecutorOptions options;
             options.skip_vars = skip_vars;
             options.enable_inplace = enable_inplace;
             options.num_threads = num_threads;
             options.num_iteration_per_drop_scope = num_iteration_per_drop_scope;
             options.graph = framework::SSAGraphOptions::FromFlags();
             options.graph.gradients = gradients;
             options.graph.fuse_all_reduce = fuse_all_reduce;
             options.graph.reduce_to_owner = reduce_to_owner;
             return std::make_unique<ParallelExecutor>(program, std::move(scopes),
                                                       std::move(options));
           }),
           py::arg("program"), py::arg("place_scopes"), py::arg("skip_vars"),
           py::arg("enable_inplace"), py::arg("num_threads"),
           py::arg("num_iteration_per_drop_scope"), py::arg("gradients"),
           py::arg("fuse_all_reduce"), py::arg("reduce_to_owner"), py::keep_alive<1, 2>(),
           py::keep_alive<1, 3>())
      .def("num_places", &ParallelExecutor::num_places)
      .def("num_threads", &ParallelExecutor::num_threads)
      .def("revision", &ParallelExecutor::revision)
      .def("exec_scope", &ParallelExecutor::ExecScope, py::return_value_policy::reference_internal)
      .def("drop_local_exe_scopes", &ParallelExecutor::DropLocalExecScopes)
      // The gradients all-reduced together, bucket by bucket.
      .def("buckets",
           [](const ParallelExecutor& e) {
             std::vector<std::vector<std::string>> buckets;
             for (const auto& bucket : e.graph().buckets()) buckets.push_back(bucket.gradients);
             return buckets;
           })
      // Reduce: {parameter: the place that updates it}.
      .def("parameter_owners",
           [](const ParallelExecutor& e) {
             std::map<std::string, int> owners;
             for (const auto& b : e.graph().broadcasts()) owners[b.parameter] = b.owner;
             return owners;
           })
      // result[fetch][place]; the workers run without the GIL.
      .def("run", [](ParallelExecutor& e, const std::vector<std::string>& fetch_names) {
        std::vector<std::vector<DenseTensor>> fetched;
        {
          py::gil_scoped_release release;
          fetched = e.Run(fetch_names);
        }
        std::vector<std::vector<Tensor>> out;
        for (auto& per_place : fetched) {
          auto& tensors = out.emplace_back();
          for (DenseTensor& t : per_place) {
            tensors.emplace_back(std::make_shared<DenseTensor>(std::move(t)));
          }
        }
        return out;
      });
}

}  // namespace paddle::pybind
