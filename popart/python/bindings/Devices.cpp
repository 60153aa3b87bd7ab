// DeviceManager (the singleton: popart.DeviceManager() is always the same
// manager), DeviceInfo and the device enums.
#include "Bindings.hpp"

#include <popart/devicemanager.hpp>
#include <popart/error.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

namespace {

// Option values as the C++ manager reads them: Python's True is "true".
std::map<std::string, std::string> deviceOptions(const py::dict &options) {
  std::map<std::string, std::string> out;
  for (const auto &item : options) {
    const auto key = item.first.cast<std::string>();
    const py::handle v = item.second;
    if (py::isinstance<py::bool_>(v))
      out[key] = v.cast<bool>() ? "true" : "false";
    else if (py::isinstance<py::int_>(v) || py::isinstance<py::str>(v))
      out[key] = py::str(v).cast<std::string>();
    else
      throw error("Device option '{}': a value is an int, a bool or a str, not "
                  "a {}",
                  key, std::string(py::str(v.get_type())));
  }
  return out;
}

} // namespace

void bindDevices(py::module_ &m) {
  py::enum_<DeviceType>(m, "DeviceType")
      .value("IpuModel", DeviceType::IpuModel)
      .value("Cpu", DeviceType::Cpu)
      .value("Ipu", DeviceType::Ipu)
      .value("OfflineIpu", DeviceType::OfflineIpu)
      .value("Sim", DeviceType::Sim);
  py::enum_<DeviceConnectionType>(m, "DeviceConnectionType")
      .value("Always", DeviceConnectionType::Always)
      .value("OnDemand", DeviceConnectionType::OnDemand)
      .value("Never", DeviceConnectionType::Never);
  py::enum_<SyncPattern>(m, "SyncPattern")
      .value("Full", SyncPattern::Full)
      .value("SinglePipeline", SyncPattern::SinglePipeline)
      .value("ReplicaAndLadder", SyncPattern::ReplicaAndLadder)
      // The user guide's name of ReplicaAndLadder (earlier releases').
      .value("PingPong", SyncPattern::ReplicaAndLadder);
  py::enum_<DeviceSelectionCriterion>(m, "DeviceSelectionCriterion")
      .value("First", DeviceSelectionCriterion::First)
      .value("Random", DeviceSelectionCriterion::Random);
  m.def("syncPatternFromString", &syncPatternFromString, py::arg("str"));
  m.def("syncPatternToString", &syncPatternToString, py::arg("pattern"));

  {
    py::class_<DeviceInfo, std::shared_ptr<DeviceInfo>> cls(m, "DeviceInfo");
    cls.def("attach", &DeviceInfo::attach);
    cls.def("detach", &DeviceInfo::detach);
    cls.def_property_readonly("isAttached", &DeviceInfo::isAttached);
    cls.def_property_readonly("type", &DeviceInfo::getType);
    cls.def_property_readonly("connectionType", &DeviceInfo::getConnectionType);
    cls.def_property_readonly("version", &DeviceInfo::getVersion);
    cls.def_property_readonly("ipuVersion", &DeviceInfo::getIpuVersion);
    cls.def_property_readonly("id", &DeviceInfo::getId);
    cls.def_property_readonly("numIpus", &DeviceInfo::getNumIpus);
    cls.def_property_readonly("tilesPerIPU", &DeviceInfo::getTilesPerIPU);
    cls.def_property_readonly("tilesPerIpu", &DeviceInfo::getTilesPerIPU);
    cls.def_property_readonly("numWorkerContexts", &DeviceInfo::getNumWorkerContexts);
    cls.def("__enter__", [](DeviceInfo &d) -> DeviceInfo & { return d; },
            py::return_value_policy::reference);
    cls.def("__exit__", [](DeviceInfo &d, const py::args &) { d.detach(); });
    cls.def("__repr__", &DeviceInfo::toString);
  }

  using Manager = DeviceManager;
  py::class_<Manager, std::unique_ptr<Manager, py::nodelete>> cls(m, "DeviceManager");
  cls.def(py::init([]() {
    return std::unique_ptr<Manager, py::nodelete>(&Manager::createDeviceManager());
  }));
  cls.def("enumerateDevices", &Manager::enumerateDevices,
          py::arg("pattern") = SyncPattern::Full, py::arg("numIpus") = 1,
          py::arg("deviceType") = DeviceType::Ipu,
          py::arg("connectionType") = DeviceConnectionType::Always,
          py::arg("tilesPerIPU") = 0);
  cls.def("getDevice", &Manager::getDevice, py::arg("syncPattern") = SyncPattern::Full,
          py::arg("deviceManagerId") = 0,
          py::arg("connectionType") = DeviceConnectionType::Always);
  for (auto [name, method] :
       {std::pair{"acquireAvailableDevice", &Manager::acquireAvailableDevice},
        std::pair{"tryAcquireAvailableDevice", &Manager::tryAcquireAvailableDevice}})
    cls.def(name, method, py::arg("numIpus") = 1, py::arg("tilesPerIpu") = 0,
            py::arg("pattern") = SyncPattern::Full,
            py::arg("connectionType") = DeviceConnectionType::Always,
            py::arg("selectionCriterion") = DeviceSelectionCriterion::First);
  for (auto [name, method] :
       {std::pair{"acquireDeviceById", &Manager::acquireDeviceById},
        std::pair{"tryAcquireDeviceById", &Manager::tryAcquireDeviceById}})
    cls.def(name, method, py::arg("id"), py::arg("pattern") = SyncPattern::Full,
            py::arg("connectionType") = DeviceConnectionType::Always);
  cls.def("createCpuDevice", &Manager::createCpuDevice);
  cls.def(
      "createIpuModelDevice",
      [](Manager &dm, const py::dict &options) {
        return dm.createIpuModelDevice(deviceOptions(options));
      },
      py::arg("opts"));
  cls.def(
      "createHostDevice",
      [](Manager &dm, DeviceType type, const py::dict &options, SyncPattern pattern) {
        return dm.createHostDevice(type, deviceOptions(options), pattern);
      },
      py::arg("type"), py::arg("options") = py::dict(),
      py::arg("syncPattern") = SyncPattern::Full);
  cls.def("setOnDemandAttachTimeout", &Manager::setOnDemandAttachTimeout,
          py::arg("attachTimeout"));
}

} // namespace python
} // namespace popart
