// paddle.base.libpaddle.distributed: the TCPStore, the process groups, their tasks and
// DataParallel's reducer. Every call that may wait on other ranks releases the GIL.
#include <pybind11/chrono.h>
#include <pybind11/stl.h>

#include "paddle/distributed/process_group_gloo.h"
#ifdef PADDLE_WITH_CUDA
#include "paddle/distributed/process_group_nccl.h"
#endif
#include "paddle/distributed/reducer.h"
#include "paddle/distributed/tcp_store.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

namespace {

using distributed::ProcessGroup;
using distributed::ReduceOp;
using distributed::Task;
using distributed::TCPStore;

std::chrono::milliseconds Millis(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000.0));
}

}  // namespace

void BindDistributed(py::module_& parent) {
  py::module_ m = parent.def_submodule("distributed", "process groups and collectives");

  py::enum_<ReduceOp>(m, "ReduceOp")
      .value("SUM", ReduceOp::SUM)
      .value("MAX", ReduceOp::MAX)
      .value("MIN", ReduceOp::MIN)
      .value("PROD", ReduceOp::PROD)
      .value("AVG", ReduceOp::AVG);

  py::class_<TCPStore, std::shared_ptr<TCPStore>>(m, "TCPStore")
      .def(
          py::init([](const std::string& host, int port, bool is_master, int rank, double timeout) {
            py::gil_scoped_release release;
            return std::make_shared<TCPStore>(host, port, is_master, rank, Millis(timeout));
          }),
          py::arg("hostname"), py::arg("port"), py::arg("is_master"), py::arg("rank"),
          py::arg("timeout") = 900.0)
      .def_property_readonly("port", &TCPStore::port)
      .def("set",
           [](TCPStore& s, const std::string& key, const py::bytes& value) {
             std::string v = value;
             py::gil_scoped_release release;
             s.Set(key, std::vector<uint8_t>(v.begin(), v.end()));
           })
      .def("get",
           [](TCPStore& s, const std::string& key) {
             std::vector<uint8_t> v;
             {
               py::gil_scoped_release release;
               v = s.Get(key);
             }
             return py::bytes(reinterpret_cast<const char*>(v.data()), v.size());
           })
      .def("add", &TCPStore::Add, py::call_guard<py::gil_scoped_release>())
      .def("check", &TCPStore::Check, py::call_guard<py::gil_scoped_release>())
      .def(
          "wait",
          [](TCPStore& s, const std::vector<std::string>& keys, double timeout) {
            s.Wait(keys, Millis(timeout));
          },
          py::arg("keys"), py::arg("timeout"), py::call_guard<py::gil_scoped_release>())
      .def("dead_ranks", &TCPStore::DeadRanks, py::call_guard<py::gil_scoped_release>());

  py::class_<Task, std::shared_ptr<Task>>(m, "Task")
      .def(
          "wait",
          [](Task& t) {
            t.Wait();
            return true;
          },
          py::call_guard<py::gil_scoped_release>())
      .def("is_completed", &Task::IsCompleted);

  auto release = py::call_guard<py::gil_scoped_release>();
  py::class_<ProcessGroup, std::shared_ptr<ProcessGroup>>(m, "ProcessGroup")
      .def("rank", &ProcessGroup::rank)
      .def("size", &ProcessGroup::size)
      .def_property_readonly("gid", &ProcessGroup::gid)
      .def("name", &ProcessGroup::backend)
      .def("all_reduce", &ProcessGroup::AllReduce, py::arg("tensor"), py::arg("op"),
           py::arg("sync_op"), release)
      .def("broadcast", &ProcessGroup::Broadcast, py::arg("tensor"), py::arg("src"),
           py::arg("sync_op"), release)
      .def("reduce", &ProcessGroup::Reduce, py::arg("tensor"), py::arg("dst"), py::arg("op"),
           py::arg("sync_op"), release)
      .def("all_gather", &ProcessGroup::AllGather, py::arg("out"), py::arg("tensor"),
           py::arg("sync_op"), release)
      .def("reduce_scatter", &ProcessGroup::ReduceScatter, py::arg("out"), py::arg("tensor"),
           py::arg("op"), py::arg("sync_op"), release)
      .def("scatter", &ProcessGroup::Scatter, py::arg("out"), py::arg("tensor"), py::arg("src"),
           py::arg("sync_op"), release)
      .def("alltoall", &ProcessGroup::AllToAll, py::arg("out"), py::arg("tensor"),
           py::arg("sync_op"), release)
      .def("send", &ProcessGroup::Send, py::arg("tensor"), py::arg("dst"), py::arg("sync_op"),
           release)
      .def("recv", &ProcessGroup::Recv, py::arg("tensor"), py::arg("src"), py::arg("sync_op"),
           release)
      .def("barrier", &ProcessGroup::Barrier, release);

  py::class_<distributed::ProcessGroupGloo, ProcessGroup,
             std::shared_ptr<distributed::ProcessGroupGloo>>(m, "ProcessGroupGloo")
      .def(py::init([](std::shared_ptr<TCPStore> store, int rank, int size, int gid,
                       std::vector<int> ranks, double timeout, const std::string& iface,
                       const std::string& hostname, bool check_tensors) {
             py::gil_scoped_release release;
             distributed::GroupOptions options;
             options.rank = rank;
             options.size = size;
             options.gid = gid;
             options.ranks = std::move(ranks);
             options.timeout = Millis(timeout);
             options.check_tensors = check_tensors;
             return std::make_shared<distributed::ProcessGroupGloo>(
                 std::move(store), distributed::CreateGlooDevice(iface, hostname), options);
           }),
           py::arg("store"), py::arg("rank"), py::arg("size"), py::arg("gid"), py::arg("ranks"),
           py::arg("timeout"), py::arg("iface"), py::arg("hostname"), py::arg("check_tensors"));

#ifdef PADDLE_WITH_CUDA
  py::class_<distributed::ProcessGroupNCCL, ProcessGroup,
             std::shared_ptr<distributed::ProcessGroupNCCL>>(m, "ProcessGroupNCCL")
      .def(py::init([](std::shared_ptr<TCPStore> store, int rank, int size, int gid,
                       std::vector<int> ranks, double timeout, int device) {
             py::gil_scoped_release release;
             distributed::GroupOptions options;
             options.rank = rank;
             options.size = size;
             options.gid = gid;
             options.ranks = std::move(ranks);
             options.timeout = Millis(timeout);
             return std::make_shared<distributed::ProcessGroupNCCL>(std::move(store), device,
                                                                    options);
           }),
           py::arg("store"), py::arg("rank"), py::arg("size"), py::arg("gid"), py::arg("ranks"),
           py::arg("timeout"), py::arg("device"));
#endif

  m.def("register_ring", &distributed::RegisterCommRing, py::arg("ring_id"), py::arg("group"),
        "Makes `group` (None: none) the ring `ring_id` of the static-graph collective ops");

  py::class_<distributed::Reducer, std::shared_ptr<distributed::Reducer>>(m, "Reducer")
      .def(py::init<std::vector<Tensor>, std::vector<std::vector<size_t>>, std::vector<bool>,
                    std::shared_ptr<ProcessGroup>, bool>(),
           py::arg("params"), py::arg("buckets"), py::arg("sparse"), py::arg("group"),
           py::arg("find_unused_parameters"))
      .def("prepare_for_backward", &distributed::Reducer::PrepareForBackward, py::arg("outputs"))
      .def_property_readonly("last_wait_seconds", &distributed::Reducer::last_wait_seconds)
      .def_property_readonly(
          "last_timeline",
          [](const distributed::Reducer& r) {
            const auto& t = r.last_timeline();
            py::dict d;
            d["launched"] = t.launched;
            d["finished"] = t.finished;
            d["last_gradient"] = t.last_gradient;
            d["launched_before_last_gradient"] = t.launched_before_last_gradient;
            return d;
          },
          "The last synchronised backward, in seconds after the end of forward: each bucket's "
          "launch and finish (launch order), the last gradient's arrival, and how many buckets "
          "were launched before it");
}

}  // namespace paddle::pybind
