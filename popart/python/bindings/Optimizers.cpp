// The optimisers: OptimizerValue, ClipNormSettings, the enums, and SGD,
// ConstSGD, Adam and Adaptive made from dicts of {name: (value, isConst)}
// with the original module's keywords and defaults.
#include "Bindings.hpp"

#include <popart/adam.hpp>
#include <popart/adaptive.hpp>
#include <popart/error.hpp>
#include <popart/sgd.hpp>

#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <sstream>

namespace popart {
namespace python {

namespace {

using ValueDict = std::map<std::string, std::pair<float, bool>>;

/// {"defaultLearningRate": (0.1, False), ...} as the C++ map; a value that
/// is not a (float, bool) pair is a popart::error naming its key. Unknown
/// keys are left for the optimiser's constructor, which names them.
ValueDict valueDict(const py::dict &values, const char *optimizer) {
  ValueDict out;
  for (const auto &item : values) {
    if (!py::isinstance<py::str>(item.first))
      throw error("{}: a key of the optimizer map must be a str, not {}",
                  optimizer, std::string(py::repr(item.first)));
    const auto key = item.first.cast<std::string>();
    const py::handle v = item.second;
    bool ok = py::isinstance<py::tuple>(v) && py::len(v) == 2;
    if (ok) {
      const py::tuple t = py::reinterpret_borrow<py::tuple>(v);
      ok = (py::isinstance<py::float_>(t[0]) || py::isinstance<py::int_>(t[0])) &&
           py::isinstance<py::bool_>(t[1]);
    }
    if (!ok)
      throw error("{}: the value of '{}' must be a tuple (value, isConst) of a "
                  "float and a bool, not {}",
                  optimizer, key, std::string(py::repr(v)));
    out[key] = v.cast<std::pair<float, bool>>();
  }
  return out;
}

template <class T> std::string toString(const T &value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

/// insertSpecific(weight, {"learningRate": (value, isConst), ...}).
template <class O> void bindInsertSpecific(py::class_<O, Optimizer> &cls, const char *name) {
  cls.def(
      "insertSpecific",
      [name](O &self, const TensorId &id, const py::dict &values) {
        self.insertSpecific(id, valueDict(values, name));
      },
      py::arg("weight"), py::arg("values"));
}

void bindEnums(py::module_ &m) {
  py::enum_<WeightDecayMode>(m, "WeightDecayMode")
      .value("Decay", WeightDecayMode::Decay)
      .value("L2Regularization", WeightDecayMode::L2Regularization);
  py::enum_<SGDAccumulatorAndMomentum>(m, "SGDAccumulatorAndMomentum")
      .value("Combined", SGDAccumulatorAndMomentum::Combined)
      .value("Separate", SGDAccumulatorAndMomentum::Separate);
  py::enum_<AdamMode>(m, "AdamMode")
      .value("Adam", AdamMode::Adam)
      .value("AdamNoBias", AdamMode::AdamNoBias)
      .value("AdaMax", AdamMode::AdaMax)
      .value("Lamb", AdamMode::Lamb)
      .value("LambNoBias", AdamMode::LambNoBias);
  py::enum_<AdaptiveMode>(m, "AdaptiveMode")
      .value("AdaGrad", AdaptiveMode::AdaGrad)
      .value("RMSProp", AdaptiveMode::RMSProp)
      .value("CenteredRMSProp", AdaptiveMode::CenteredRMSProp)
      .value("AdaDelta", AdaptiveMode::AdaDelta);
  py::enum_<OptimizerType>(m, "OptimizerType")
      .value("SGD", OptimizerType::SGD)
      .value("Adam", OptimizerType::Adam)
      .value("Adaptive", OptimizerType::Adaptive);
}

void bindValues(py::module_ &m) {
  py::class_<OptimizerValue> value(m, "OptimizerValue");
  value.def(py::init<>());
  value.def(py::init<float>(), py::arg("val"));
  value.def(py::init<float, bool>(), py::arg("val"), py::arg("isConst"));
  value.def(py::init<std::pair<float, bool>>(), py::arg("valueAndIsConst"));
  value.def("val", &OptimizerValue::val);
  value.def("isConst", &OptimizerValue::isConst);
  value.def("validReplacement", &OptimizerValue::validReplacement, py::arg("rhs"));
  value.def(py::self == py::self);
  value.def(py::self != py::self);
  value.def("__repr__", [](const OptimizerValue &v) {
    return "OptimizerValue(" + toString(v.val()) + ", " +
           (v.isConst() ? "True" : "False") + ")";
  });
  py::implicitly_convertible<py::float_, OptimizerValue>();
  py::implicitly_convertible<py::tuple, OptimizerValue>();

  py::class_<OptimizerValueMap>(m, "OptimizerValueMap")
      .def("getDefault", &OptimizerValueMap::getDefault)
      .def("get", &OptimizerValueMap::get, py::arg("id"))
      .def("hasSpecific",
           py::overload_cast<const TensorId &>(&OptimizerValueMap::hasSpecific,
                                               py::const_),
           py::arg("id"))
      .def("getSpecifics", &OptimizerValueMap::getSpecifics);

  py::class_<ClipNormSettings> clip(m, "ClipNormSettings");
  clip.def(py::init<const std::vector<TensorId> &, float>(), py::arg("weightIds"),
           py::arg("maxNorm"));
  clip.def_static("clipWeights", &ClipNormSettings::clipWeights,
                  py::arg("weightIds"), py::arg("maxNorm"));
  clip.def_static("clipAllWeights", &ClipNormSettings::clipAllWeights,
                  py::arg("maxNorm"));
  clip.def_readwrite("weightIds", &ClipNormSettings::weightIds);
  clip.def_readwrite("maxNorm", &ClipNormSettings::maxNorm);
  clip.def(py::self == py::self);
}

void bindSGD(py::module_ &m) {
  py::class_<SGD, Optimizer> sgd(m, "SGD");
  sgd.def(py::init([](const py::dict &values, const std::vector<ClipNormSettings> &clip,
                      SGDAccumulatorAndMomentum accMm, DataType accumType,
                      DataType accl1Type, const DebugContext &dc) {
            return SGD(valueDict(values, "SGD"), clip, accMm, accumType, accl1Type, dc);
          }),
          py::arg("pyd"), py::arg("clip_norm_settings") = std::vector<ClipNormSettings>{},
          py::arg("accumulatorAndMomentum") = SGDAccumulatorAndMomentum::Combined,
          py::arg("accumType") = DataType::UNDEFINED,
          py::arg("accl1Type") = DataType::UNDEFINED,
          py::arg("debugContext") = std::string("sgd"));
  sgd.def(py::init<>());
  bindInsertSpecific(sgd, "SGD");
  sgd.def("learningRates", &SGD::learningRates);
  sgd.def("weightDecays", &SGD::weightDecays);
  sgd.def("momentums", &SGD::momentums);
  sgd.def("dampenings", &SGD::dampenings);
  sgd.def("velocityScalings", &SGD::velocityScalings);
  sgd.def("nesterov", &SGD::nesterov);
  sgd.def("getSGDAccumulatorAndMomentum", &SGD::getSGDAccumulatorAndMomentum);

  py::class_<ConstSGD, SGD>(m, "ConstSGD")
      .def(py::init<float, float, float, const std::vector<ClipNormSettings> &>(),
           py::arg("learning_rate"), py::arg("weight_decay") = 0.0f,
           py::arg("loss_scaling") = 1.0f,
           py::arg("clip_norm_settings") = std::vector<ClipNormSettings>{});
}

void bindAdam(py::module_ &m) {
  py::class_<Adam, Optimizer> adam(m, "Adam");
  adam.def(py::init([](const py::dict &values, AdamMode mode, WeightDecayMode wdMode,
                       DataType accumType, DataType accl1Type, DataType accl2Type,
                       const std::vector<ClipNormSettings> &clip, bool scaledState,
                       const DebugContext &dc) {
             return Adam(valueDict(values, "Adam"), mode, wdMode, accumType,
                         accl1Type, accl2Type, clip, scaledState, dc);
           }),
           py::arg("values"), py::arg("mode") = AdamMode::Adam,
           py::arg("weight_decay_mode") = WeightDecayMode::Decay,
           // The accumulator as the weight; the moments in FLOAT.
           py::arg("accum_type") = DataType::UNDEFINED,
           py::arg("accl1_type") = DataType::FLOAT,
           py::arg("accl2_type") = DataType::FLOAT,
           py::arg("clip_norm_settings") = std::vector<ClipNormSettings>{},
           py::arg("scaled_optimizer_state") = false,
           py::arg("debugContext") = std::string("adam"));
  bindInsertSpecific(adam, "Adam");
  adam.def("learningRates", &Adam::learningRates);
  adam.def("weightDecays", &Adam::weightDecays);
  adam.def("beta1s", &Adam::beta1s);
  adam.def("beta2s", &Adam::beta2s);
  adam.def("epss", &Adam::epss);
  adam.def("maxWeightNorms", &Adam::maxWeightNorms);
  adam.def("getMode", &Adam::getMode);
  adam.def("getWeightDecayMode", &Adam::getWeightDecayMode);
}

void bindAdaptive(py::module_ &m) {
  py::class_<Adaptive, Optimizer> adaptive(m, "Adaptive");
  adaptive.def(
      py::init([](const py::dict &values, AdaptiveMode mode, WeightDecayMode wdMode,
                  DataType accumType, DataType accl1Type, DataType accl2Type,
                  DataType accl3Type, bool tfVariant, const DebugContext &dc) {
        return Adaptive(valueDict(values, "Adaptive"), mode, wdMode, accumType,
                        accl1Type, accl2Type, accl3Type, tfVariant, dc);
      }),
      py::arg("values"), py::arg("mode") = AdaptiveMode::RMSProp,
      py::arg("weight_decay_mode") = WeightDecayMode::Decay,
      // The accumulator and accl3 as the weight; accl1 and accl2 in FLOAT.
      py::arg("accum_type") = DataType::UNDEFINED,
      py::arg("accl1_type") = DataType::FLOAT, py::arg("accl2_type") = DataType::FLOAT,
      py::arg("accl3_type") = DataType::UNDEFINED,
      py::arg("rmsprop_tf_variant") = false,
      py::arg("debugContext") = std::string("adaptive"));
  bindInsertSpecific(adaptive, "Adaptive");
  adaptive.def("learningRates", &Adaptive::learningRates);
  adaptive.def("weightDecays", &Adaptive::weightDecays);
  adaptive.def("alphas", &Adaptive::alphas);
  adaptive.def("momentums", &Adaptive::momentums);
  adaptive.def("epss", &Adaptive::epss);
  adaptive.def("getMode", &Adaptive::getMode);
  adaptive.def("getWeightDecayMode", &Adaptive::getWeightDecayMode);
}

} // namespace

void bindOptimizers(py::module_ &m) {
  bindEnums(m);
  bindValues(m);
  py::class_<Optimizer> optimizer(m, "Optimizer");
  optimizer.def("type", &Optimizer::type);
  optimizer.def("type_s", &Optimizer::type_s);
  optimizer.def("getLossScalingVal", &Optimizer::getLossScalingVal);
  optimizer.def("lossScaling", &Optimizer::lossScaling);
  optimizer.def("getClipNormSettings", &Optimizer::getClipNormSettings);
  optimizer.def("validReplacement", &Optimizer::validReplacement, py::arg("other"));
  optimizer.def("hasSpecific",
                py::overload_cast<const TensorId &>(&Optimizer::hasSpecific, py::const_),
                py::arg("w"));
  bindSGD(m);
  bindAdam(m);
  bindAdaptive(m);
}

} // namespace python
} // namespace popart
