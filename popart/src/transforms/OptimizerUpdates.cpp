#include "transforms/OptimizerUpdates.hpp"
#include "ir/HostData.hpp"
#include "ir/Ir.hpp"
#include "ops/CollectiveOps.hpp"
#include "ops/HostIOOp.hpp"
#include "ops/OptimizerOps.hpp"
#include "transforms/GraphBuilding.hpp"

#include <popart/adam.hpp>
#include <popart/adaptive.hpp>
#include <popart/error.hpp>
#include <popart/graphcoreoperators.hpp>
#include <popart/logging.hpp>
#include <popart/onnxoperators.gen.hpp>
#include <popart/sgd.hpp>
#include <popart/tensornames.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace popart {
namespace {

using ValueFn = std::function<float(const Optimizer &)>;

class WeightUpdates {
public:
  explicit WeightUpdates(Ir &ir)
      : ir(ir), graph(ir.getMainGraph()), options(ir.getSessionOptions()),
        af(ir.getAccumulationFactor()), replicas(ir.getReplicationFactor()) {
    // The update's gradient is the sum over the micro-batches and the
    // replicas of this process; a Mean reduction divides by their count
    // (after the last micro-batch: MeanReductionStrategy::Post). Replicas
    // in other processes are averaged by the host reduction.
    const bool mean =
        options.accumulationAndReplicationReductionType == ReductionType::Mean;
    afDivisor = mean ? static_cast<float>(af * replicas) : 1.0f;
    updateContext = af > 1 ? ExecutionContext::AccumulateOuterFragment
                           : ExecutionContext::Normal;
  }

  void grow(const std::vector<TensorId> &weights);

private:
  /// A scalar of the update: a constant if `isConst`, else an optimiser
  /// tensor named `name` (shared by every weight that uses the same name).
  TensorId scalar(const std::string &name, bool isConst, const ValueFn &value);
  /// An optimiser state tensor of `weight` ("Accl___w" ...), zeros, or
  /// the initializer of that name if the model has one. With `sharded`,
  /// the replica's part of it (replicated tensor sharding): the host keeps
  /// the whole tensor.
  TensorId state(const TensorId &prefixedId, const Tensor &weight,
                 DataType type, bool sharded = false);
  /// Replicated tensor sharding: whether the optimiser state of `w` is
  /// split between the replicas (optimizerStateTensorLocationSettings).
  bool shardsState(const Tensor &w) const;
  /// Replicated tensor sharding of weights (weightTensorLocationSettings):
  /// whether `w` is held in parts, one per replica.
  bool shardsWeight(const Tensor &w) const;
  /// Replicated tensor sharding of gradient accumulators
  /// (accumulatorTensorLocationSettings): whether each replica accumulates
  /// its part of `w`'s gradient, reduce-scattered each micro-batch.
  bool shardsAccumulator(const Tensor &w) const;
  // True if there are replicas to shard w over; a warning otherwise, as
  // the original gives.
  bool replicasToShard(const Tensor &w) const;
  /// Makes variable `w` the replica's part of the weight, which its
  /// update changes, and gives its readers the all-gathered whole.
  void shardWeight(Tensor &w);
  /// The tensor the update of `wid` changes: the weight, or its shard.
  TensorId var(const TensorId &wid) const {
    auto it = weightShards.find(wid);
    return it == weightShards.end() ? wid : it->second;
  }
  /// The weight `wid` given the all-gathered `updatedShard`.
  void gatherIntoWeight(const TensorId &wid, const TensorId &updatedShard);
  /// The gradient the update uses: the gradient itself, or (accumulating)
  /// an accumulator the inner loop adds each micro-batch's gradient to.
  /// With a sharded accumulator (shardsAccumulator), each micro-batch's
  /// gradient is reduce-scattered first, so the accumulator is the
  /// replica's part of the sum over the micro-batches and the replicas.
  TensorId gradientForUpdate(const Tensor &weight, DataType accumType);
  /// Makes op T, connects it, and gives it the update's context.
  template <typename T, typename... Args>
  Op &add(const std::vector<TensorId> &ins, const std::vector<TensorId> &outs,
          ExecutionContext context, Args &&...args) {
    auto op = std::make_unique<T>(std::forward<Args>(args)...);
    op->settings.executionContext = context;
    Op &ref = graph.addOp(std::move(op));
    graph.connect(ref, ins, outs);
    return ref;
  }
  Op::Settings settings(const std::string &name) {
    return Op::Settings(graph, name);
  }
  TensorId tmp(const std::string &base) { return graph.uniqueId(base); }
  void clipGradients();
  /// Each update's gradient summed over the replicas of the process
  /// (ReplicatedAllReduceOp), before clipping and the host reduction.
  void reduceOverReplicas();
  /// Each update's gradient reduced on the host (HostReduceOp), before
  /// clipping, so that every replica clips and applies the same values.
  void reduceOnHost();
  void zeroAccumulators();
  /// Whether the weight's micro-batch gradients go straight into its
  /// velocity (SGD1 with momentum, accumulating, not clipped).
  bool accumulatesIntoVelocity(const Tensor &w) const;
  DataType accumType(const TensorId &w) const;

  // Each returns the id of the updated weight (or shard).
  TensorId growSGD(const SGD &sgd, const Tensor &w);
  TensorId growAdam(const Adam &adam, const Tensor &w);
  TensorId growAdaptive(const Adaptive &ad, const Tensor &w);

  Ir &ir;
  Graph &graph;
  const SessionOptions &options;
  int64_t af;
  int64_t replicas;
  float afDivisor;
  ExecutionContext updateContext;
  // Weight -> the tensor holding the gradient its update uses.
  std::map<TensorId, TensorId> updateGradients;
  // Accumulators to zero after the update (weight -> accumulator alias).
  std::vector<std::pair<TensorId, TensorId>> accumulators;
  std::map<std::string, TensorId> scalars;
  std::set<TensorId> clippedWeights;
  // Replicated tensor sharding: sharded weight -> its shard for the update.
  std::map<TensorId, TensorId> weightShards;
  // Weights that are themselves parts (their own shard in weightShards).
  std::set<TensorId> shardedWeights;
  // Weights whose update gradient is already summed over the replicas
  // (sharded accumulators).
  std::set<TensorId> reducedGradients;
};

TensorId WeightUpdates::scalar(const std::string &name, bool isConst,
                               const ValueFn &value) {
  const float v = value(ir.getOptimizer());
  if (isConst)
    return addScalarConst(graph, reservedConstValuePrefix() + name,
                          DataType::FLOAT, v);
  auto it = scalars.find(name);
  if (it != scalars.end())
    return it->second;
  const TensorId id = reservedOptimizerPrefix() + name;
  Tensor &t = graph.addTensor(id, TensorInfo(DataType::FLOAT, {}),
                              TensorType::Variable,
                              fromDoubles({v}, DataType::FLOAT));
  t.variableKind = VariableKind::HyperParameter;
  ir.getOptimizerTensors().push_back({id, value});
  scalars[name] = id;
  return id;
}

TensorId WeightUpdates::state(const TensorId &id, const Tensor &weight,
                              DataType type, bool sharded) {
  const DataType dt =
      type == DataType::UNDEFINED ? weight.info.dataType() : type;
  const TensorInfo whole(dt, hostInfo(weight).shape());
  // A shard: ceil(n / replicas) elements, its meta shape the whole one.
  const TensorInfo info =
      sharded ? TensorInfo(dt, {(whole.nelms() + replicas - 1) / replicas},
                           whole.shape())
              : whole;
  if (graph.hasTensor(id)) {
    // Optimiser state saved in the model (modelToHost) resumes training.
    Tensor &t = graph.getTensor(id);
    if (t.info.shape() != whole.shape() || t.producer || !t.consumers.empty())
      throw error("The model's tensor '{}' has the name of the optimiser "
                  "state of '{}' but is not such a state",
                  id, weight.id);
    t.type = TensorType::Variable;
    t.variableKind = VariableKind::OptimizerState;
    if (t.info.dataType() != info.dataType())
      t.data = fromDoubles(toDoubles(t.data, t.info.dataType()), info.dataType());
    t.info = info;
    return id;
  }
  Tensor &t = graph.addTensor(
      id, info, TensorType::Variable,
      std::vector<char>(static_cast<std::size_t>(whole.nbytes()), 0));
  t.variableKind = VariableKind::OptimizerState;
  return id;
}

bool WeightUpdates::shardsWeight(const Tensor &w) const {
  const TensorLocationSettings &settings = options.weightTensorLocationSettings;
  const TensorLocation &location = settings.location;
  if (location.replicatedTensorSharding != ReplicatedTensorSharding::On ||
      location.shardingDomain.type == CommGroupType::None ||
      w.info.rank() == 0 ||
      w.info.nelms() < settings.minElementsForReplicatedTensorSharding)
    return false;
  return replicasToShard(w);
}

bool WeightUpdates::shardsAccumulator(const Tensor &w) const {
  const TensorLocationSettings &settings =
      options.accumulatorTensorLocationSettings;
  const TensorLocation &location = settings.location;
  if (af == 1 ||
      location.replicatedTensorSharding != ReplicatedTensorSharding::On ||
      location.shardingDomain.type == CommGroupType::None ||
      w.info.rank() == 0 ||
      hostInfo(w).nelms() < settings.minElementsForReplicatedTensorSharding)
    return false;
  return replicasToShard(w);
}

bool WeightUpdates::replicasToShard(const Tensor &w) const {
  if (replicas > 1)
    return true;
  logging::transform::warn("[StreamingMemory] Unable to shard tensor {} "
                           "due to lack of replication",
                           w.id);
  return false;
}

void WeightUpdates::shardWeight(Tensor &w) {
  // Every reader of the weight (forward, backward and recomputed ops)
  // reads it whole: all-gathered from the replicas' parts each
  // micro-batch.
  const TensorInfo whole = w.info;
  Tensor &gathered = graph.addTensor(tmp(w.id + "_gathered"), whole,
                                     TensorType::ActGrad);
  graph.replaceUses(w, gathered);
  w.info = TensorInfo(whole.dataType(),
                      {(whole.nelms() + replicas - 1) / replicas},
                      whole.shape());
  auto gather = std::make_unique<ReplicatedAllGatherOp>(
      settings(w.id + "/ReplicatedAllGather"));
  gather->settings.executionContext = ExecutionContext::Normal;
  Op &op = graph.addOp(std::move(gather));
  graph.connectInput(op, 0, w.id);
  op.outputs = {&gathered};
  gathered.producer = &op;
  op.setup();
  // The update changes the part in place; its state is sharded with it.
  weightShards[w.id] = w.id;
  shardedWeights.insert(w.id);
}

bool WeightUpdates::shardsState(const Tensor &w) const {
  if (shardedWeights.count(w.id))
    return true;
  const TensorLocationSettings &settings =
      options.optimizerStateTensorLocationSettings;
  const TensorLocation &location = settings.location;
  if (location.replicatedTensorSharding != ReplicatedTensorSharding::On ||
      location.shardingDomain.type == CommGroupType::None)
    return false;
  const Optimizer &opt = ir.getOptimizer();
  const bool hasState =
      opt.type() != OptimizerType::SGD ||
      static_cast<const SGD &>(opt).hasMomentum(w.id);
  if (!hasState || w.info.rank() == 0 ||
      hostInfo(w).nelms() < settings.minElementsForReplicatedTensorSharding)
    return false;
  return replicasToShard(w);
}

void WeightUpdates::gatherIntoWeight(const TensorId &wid,
                                     const TensorId &updatedShard) {
  Op &gather = add<ReplicatedAllGatherOp>(
      {updatedShard}, {tmp(wid + "_gathered")}, updateContext,
      settings(wid + "/ReplicatedAllGather"));
  add<CopyVarUpdateOp>({wid, gather.outId(0)}, {tmp(getUpdatedVarId(wid))},
                       updateContext, Onnx::CustomOperators::CopyVarUpdate_1,
                       settings(wid + "/CopyVarUpdate"), Attributes());
}

TensorId WeightUpdates::gradientForUpdate(const Tensor &w, DataType accumType) {
  TensorId grad = getGradId(w.id);
  if (af == 1)
    return grad;
  const bool sharded = shardsAccumulator(w);
  const TensorId accum =
      state(reservedAccumPrefix() + w.id, w, accumType, sharded);
  if (sharded) {
    grad = add<ReplicatedReduceScatterOp>(
               {grad}, {tmp(grad + "_reduceScattered")},
               ExecutionContext::Normal,
               settings(w.id + "/ReplicatedReduceScatter"),
               CollectiveOperator::Add)
               .outId(0);
    reducedGradients.insert(w.id);
  }
  Op &acc = add<ScaledUpdateOp>({accum, grad}, {tmp(accum + "_accumulated")},
                                ExecutionContext::Normal, "Accumulate",
                                settings(w.id + "/Accumulate"));
  accumulators.push_back({w.id, acc.outId(0)});
  return acc.outId(0);
}

TensorId WeightUpdates::growSGD(const SGD &sgd, const Tensor &w) {
  const TensorId &wid = w.id;
  const TensorId x = var(wid); // the weight, or its shard
  const OptimizerValue lr = sgd.learningRates().get(wid),
                       wd = sgd.weightDecays().get(wid),
                       mm = sgd.momentums().get(wid),
                       dp = sgd.dampenings().get(wid),
                       vs = sgd.velocityScalings().get(wid),
                       nt = sgd.nesterov().get(wid), ls = sgd.lossScaling();
  const std::string scope = sgd.hasSpecific(wid) ? "specific___" + wid
                                                 : std::string("default");
  const float afd = afDivisor;
  auto get = [wid](const Optimizer &o) -> const SGD & {
    return static_cast<const SGD &>(o);
  };
  auto lrOf = [wid, get](const Optimizer &o) {
    return get(o).learningRates().get(wid).val();
  };
  auto wdOf = [wid, get](const Optimizer &o) {
    return get(o).weightDecays().get(wid).val();
  };
  auto mmOf = [wid, get](const Optimizer &o) {
    return get(o).momentums().get(wid).val();
  };
  auto dpOf = [wid, get](const Optimizer &o) {
    return get(o).dampenings().get(wid).val();
  };
  auto vsOf = [wid, get](const Optimizer &o) {
    return get(o).velocityScalings().get(wid).val();
  };
  auto lsOf = [](const Optimizer &o) { return o.getLossScalingVal(); };
  auto allConst = [](std::initializer_list<OptimizerValue> vals) {
    for (const auto &v : vals)
      if (!v.isConst())
        return false;
    return true;
  };

  const TensorId upd = tmp(getUpdatedVarId(x));
  if (!sgd.hasMomentum(wid)) {
    // SGD0: w = (1 - lr (1 - dp) wd) w - lr (1 - dp) / (ls af) g.
    const TensorId g = updateGradients.at(wid);
    const TensorId wdsf0 = scalar(
        "weightDecayScaleFactor0___" + scope, allConst({wd, lr, dp}),
        [=](const Optimizer &o) {
          return 1.0f - lrOf(o) * (1.0f - dpOf(o)) * wdOf(o);
        });
    const TensorId slr0 = scalar(
        "scaledLearningRate0___" + scope, allConst({lr, dp, ls}),
        [=](const Optimizer &o) {
          return -(lrOf(o) * (1.0f - dpOf(o))) / (lsOf(o) * afd);
        });
    return add<ScaledUpdateOp>({x, g, wdsf0, slr0}, {upd}, updateContext,
                               "SGD0VarUpdate", settings(wid + "/SGD0VarUpdate"))
        .outId(0);
  }

  const bool nesterov = !nt.isConst() || nt.val() != 0.0f;
  const DataType acclType = sgd.getAccl1Type();
  const TensorId accl = state(reservedAcclPrefix() + wid, w, acclType,
                              weightShards.count(wid) != 0);
  if (sgd.getSGDAccumulatorAndMomentum() == SGDAccumulatorAndMomentum::Combined) {
    if (nesterov)
      throw error("SGD: Nesterov momentum (weight '{}') needs "
                  "SGDAccumulatorAndMomentum::Separate",
                  wid);
    // SGD1: the velocity v holds mm v + (1 - dm) wd vs w from the last
    // update; each micro-batch adds (1 - dm) vs / (ls af) g to it.
    const TensorId dpsf1 = scalar(
        "dampeningScaleFactor1___" + scope, allConst({dp, vs, ls}),
        [=](const Optimizer &o) {
          return (1.0f - dpOf(o)) * vsOf(o) / (lsOf(o) * afd);
        });
    TensorId v;
    if (updateGradients.count(wid)) {
      // The gradient (accumulated, clipped) is added once per update.
      v = add<ScaledUpdateOp>({accl, updateGradients.at(wid), "", dpsf1},
                              {tmp(accl + "_grad")}, updateContext,
                              "SGD1Accumulate",
                              settings(wid + "/SGD1Accumulate"))
              .outId(0);
    } else {
      // Each micro-batch's gradient goes straight into the velocity.
      v = add<ScaledUpdateOp>({accl, getGradId(wid), "", dpsf1},
                              {tmp(accl + "_grad")}, ExecutionContext::Normal,
                              "SGD1Accumulate",
                              settings(wid + "/SGD1Accumulate"))
              .outId(0);
    }
    const TensorId slr1 = scalar(
        "scaledLearningRate1___" + scope, allConst({lr, vs}),
        [=](const Optimizer &o) { return -lrOf(o) / vsOf(o); });
    Op &varUpdate =
        add<ScaledUpdateOp>({x, v, "", slr1}, {upd}, updateContext,
                            "SGD1VarUpdate", settings(wid + "/SGD1VarUpdate"));
    const TensorId smm1 =
        scalar("scaledMomentum1___" + scope, allConst({mm}),
               [=](const Optimizer &o) { return mmOf(o); });
    const TensorId swd1 = scalar(
        "scaledWeightDecay1___" + scope, allConst({dp, wd, vs}),
        [=](const Optimizer &o) {
          return (1.0f - dpOf(o)) * wdOf(o) * vsOf(o);
        });
    add<ScaledUpdateOp>({v, varUpdate.outId(0), smm1, swd1},
                        {tmp(accl + "_updated")}, updateContext,
                        "SGD1AcclUpdate", settings(wid + "/SGD1AcclUpdate"));
    // The velocity starts as (1 - dm) wd vs w (a zero velocity with the
    // next step's weight decay already in it).
    ir.addStateInitialisation(accl, wid, [=](const Optimizer &o) {
      return (1.0f - dpOf(o)) * wdOf(o) * vsOf(o);
    });
    return varUpdate.outId(0);
  }

  // SGD2: v = mm v + (1 - dm) vs / (ls af) a + (1 - dm) wd vs w, then
  // w = w - lr / vs v (or the Nesterov step).
  const TensorId a = updateGradients.at(wid);
  const TensorId smm2 = scalar("scaledMomentum2___" + scope, allConst({mm}),
                               [=](const Optimizer &o) { return mmOf(o); });
  const TensorId dpsf2 = scalar(
      "dampeningScaleFactor2___" + scope, allConst({dp, vs, ls}),
      [=](const Optimizer &o) {
        return (1.0f - dpOf(o)) * vsOf(o) / (lsOf(o) * afd);
      });
  const TensorId swd2 = scalar(
      "scaledWeightDecay2___" + scope, allConst({dp, wd, vs}),
      [=](const Optimizer &o) { return (1.0f - dpOf(o)) * wdOf(o) * vsOf(o); });
  Op &acclGrad = add<ScaledUpdateOp>({accl, a, smm2, dpsf2},
                                     {tmp(accl + "_grad")}, updateContext,
                                     "SGD2AcclUpdate",
                                     settings(wid + "/SGD2AcclUpdate"));
  Op &acclDecay = add<ScaledUpdateOp>(
      {acclGrad.outId(0), x, "", swd2}, {tmp(accl + "_updated")},
      updateContext, "SGD2AcclUpdate", settings(wid + "/SGD2AcclDecay"));
  const TensorId v = acclDecay.outId(0);
  if (!nesterov) {
    const TensorId slr2 = scalar(
        "scaledLearningRate2___" + scope, allConst({lr, vs}),
        [=](const Optimizer &o) { return -lrOf(o) / vsOf(o); });
    return add<ScaledUpdateOp>({x, v, "", slr2}, {upd}, updateContext,
                               "SGD2VarUpdate", settings(wid + "/SGD2VarUpdate"))
        .outId(0);
  }
  // Nesterov: w = w - lr (a / (ls af) + wd w + mm v / vs), in two steps
  // that each read the weight before the update.
  const TensorId wdsf = scalar(
      "nesterovWeightDecayScaleFactor___" + scope, allConst({lr, wd}),
      [=](const Optimizer &o) { return 1.0f - lrOf(o) * wdOf(o); });
  const TensorId mmsf = scalar(
      "nesterovMomentumScaleFactor___" + scope, allConst({lr, mm, vs}),
      [=](const Optimizer &o) { return -lrOf(o) * mmOf(o) / vsOf(o); });
  const TensorId ngsf = scalar(
      "nesterovGradScaleFactor___" + scope, allConst({lr, ls}),
      [=](const Optimizer &o) { return -lrOf(o) / (lsOf(o) * afd); });
  Op &first = add<ScaledUpdateOp>({x, v, wdsf, mmsf}, {tmp(upd + "_decayed")},
                                  updateContext, "SGD2VarUpdate",
                                  settings(wid + "/SGD2NesterovDecay"));
  return add<ScaledUpdateOp>({first.outId(0), a, "", ngsf}, {upd},
                             updateContext, "SGD2VarUpdate",
                             settings(wid + "/SGD2VarUpdate"))
      .outId(0);
}

TensorId WeightUpdates::growAdam(const Adam &adam, const Tensor &w) {
  const TensorId &wid = w.id;
  const bool sharded = weightShards.count(wid) != 0;
  const std::string scope = adam.hasSpecific(wid) ? "specific___" + wid
                                                  : std::string("default");
  const float afd = afDivisor;
  auto get = [](const Optimizer &o) -> const Adam & {
    return static_cast<const Adam &>(o);
  };
  auto hyper = [&](const char *name, const OptimizerValueMap &m,
                   std::function<const OptimizerValueMap &(const Adam &)> of) {
    const OptimizerValue v = m.get(wid);
    return scalar(std::string(name) + "___" + scope, v.isConst(),
                  [=](const Optimizer &o) { return of(get(o)).get(wid).val(); });
  };
  const TensorId lr = hyper("learningRate", adam.learningRates(),
                            [](const Adam &a) -> const OptimizerValueMap & {
                              return a.learningRates();
                            });
  const TensorId wd = hyper("weightDecay", adam.weightDecays(),
                            [](const Adam &a) -> const OptimizerValueMap & {
                              return a.weightDecays();
                            });
  const TensorId b1 = hyper("beta1", adam.beta1s(),
                            [](const Adam &a) -> const OptimizerValueMap & {
                              return a.beta1s();
                            });
  const TensorId b2 = hyper("beta2", adam.beta2s(),
                            [](const Adam &a) -> const OptimizerValueMap & {
                              return a.beta2s();
                            });
  const TensorId eps = hyper("eps", adam.epss(),
                             [](const Adam &a) -> const OptimizerValueMap & {
                               return a.epss();
                             });
  const TensorId mwn = hyper("maxWeightNorm", adam.maxWeightNorms(),
                             [](const Adam &a) -> const OptimizerValueMap & {
                               return a.maxWeightNorms();
                             });
  const TensorId gradScale = scalar(
      "gradientScale___default", adam.lossScaling().isConst(),
      [=](const Optimizer &o) { return 1.0f / (o.getLossScalingVal() * afd); });
  const TensorId ls =
      scalar("lossScaling___default", adam.lossScaling().isConst(),
             [](const Optimizer &o) { return o.getLossScalingVal(); });
  const TensorId m =
      state(reservedAccl1Prefix() + wid, w, adam.getAccl1Type(), sharded);
  const TensorId v =
      state(reservedAccl2Prefix() + wid, w, adam.getAccl2Type(), sharded);
  const TensorId step = state(
      reservedStepPrefix() + wid,
      Tensor(wid, TensorInfo(DataType::FLOAT, {}), TensorType::Variable),
      DataType::FLOAT);
  Op &update = add<AdamUpdateOp>(
      {var(wid), updateGradients.at(wid), m, v, step, lr, wd, b1, b2, eps,
       gradScale, mwn, ls},
      {tmp(getUpdatedVarId(var(wid)))}, updateContext,
      settings(wid + "/AdamUpdate"), adam.getMode(), adam.getWeightDecayMode(),
      adam.useScaledOptimizerState());
  static_cast<AdamUpdateOp &>(update).sharded = sharded;
  return update.outId(0);
}

TensorId WeightUpdates::growAdaptive(const Adaptive &ad, const Tensor &w) {
  const TensorId &wid = w.id;
  const bool sharded = weightShards.count(wid) != 0;
  const std::string scope = ad.hasSpecific(wid) ? "specific___" + wid
                                                : std::string("default");
  const float afd = afDivisor;
  auto get = [](const Optimizer &o) -> const Adaptive & {
    return static_cast<const Adaptive &>(o);
  };
  using Of = std::function<const OptimizerValueMap &(const Adaptive &)>;
  auto hyper = [&](const char *name, Of of) {
    const OptimizerValue v = of(ad).get(wid);
    return scalar(std::string(name) + "___" + scope, v.isConst(),
                  [=](const Optimizer &o) { return of(get(o)).get(wid).val(); });
  };
  const TensorId lr = hyper("learningRate", [](const Adaptive &a) -> const OptimizerValueMap & {
    return a.learningRates();
  });
  const TensorId wd = hyper("weightDecay", [](const Adaptive &a) -> const OptimizerValueMap & {
    return a.weightDecays();
  });
  const TensorId alpha = hyper("alpha", [](const Adaptive &a) -> const OptimizerValueMap & {
    return a.alphas();
  });
  const TensorId mm = hyper("momentum", [](const Adaptive &a) -> const OptimizerValueMap & {
    return a.momentums();
  });
  const TensorId eps = hyper("eps", [](const Adaptive &a) -> const OptimizerValueMap & {
    return a.epss();
  });
  const TensorId gradScale = scalar(
      "gradientScale___default", ad.lossScaling().isConst(),
      [=](const Optimizer &o) { return 1.0f / (o.getLossScalingVal() * afd); });
  const TensorId v1 =
      state(reservedAccl1Prefix() + wid, w, ad.getAccl1Type(), sharded);
  TensorId v2, v3;
  if (ad.getMode() == AdaptiveMode::CenteredRMSProp ||
      ad.getMode() == AdaptiveMode::AdaDelta)
    v2 = state(reservedAccl2Prefix() + wid, w, ad.getAccl2Type(), sharded);
  const OptimizerValue mmv = ad.momentums().get(wid);
  if (!mmv.isConst() || mmv.val() != 0.0f)
    v3 = state(reservedAccl3Prefix() + wid, w, ad.getAccl3Type(), sharded);
  return add<AdaptiveUpdateOp>({var(wid), updateGradients.at(wid), v1, v2, v3,
                                lr, wd, alpha, mm, eps, gradScale},
                               {tmp(getUpdatedVarId(var(wid)))}, updateContext,
                               settings(wid + "/AdaptiveUpdate"), ad.getMode(),
                               ad.getWeightDecayMode(), ad.isRmspropTFVariant())
      .outId(0);
}

bool WeightUpdates::accumulatesIntoVelocity(const Tensor &w) const {
  const Optimizer &opt = ir.getOptimizer();
  if (opt.type() != OptimizerType::SGD || af == 1 ||
      clippedWeights.count(w.id) || reducesOnHost(options) || replicas > 1)
    return false;
  const auto &sgd = static_cast<const SGD &>(opt);
  return sgd.hasMomentum(w.id) &&
         sgd.getSGDAccumulatorAndMomentum() == SGDAccumulatorAndMomentum::Combined;
}

DataType WeightUpdates::accumType(const TensorId &) const {
  const Optimizer &opt = ir.getOptimizer();
  switch (opt.type()) {
  case OptimizerType::SGD:
    return static_cast<const SGD &>(opt).getAccumType();
  case OptimizerType::Adam:
    return static_cast<const Adam &>(opt).getAccumType();
  default:
    return static_cast<const Adaptive &>(opt).getAccumType();
  }
}

// Each group's gradients are scaled by maxNorm / max(maxNorm, norm), where
// norm is the 2-norm of the group's (unscaled) gradients together.
void WeightUpdates::clipGradients() {
  const Optimizer &opt = ir.getOptimizer();
  const float afd = afDivisor;
  int group = 0;
  for (const auto &clip : opt.getClipNormSettings()) {
    std::vector<TensorId> ws = clip.getWeightIds();
    if (clip.getMode() == ClipNormSettings::Mode::ClipAllWeights)
      for (const auto &p : updateGradients)
        ws.push_back(p.first);
    if (ws.empty())
      continue;
    std::vector<TensorId> sumsOfSquares;
    for (const auto &wid : ws) {
      auto it = updateGradients.find(wid);
      if (it == updateGradients.end())
        throw error("ClipNormSettings: '{}' is not a weight with a gradient",
                    wid);
      const std::string name = wid + "/clipping";
      Op &sq = addBuiltinOp(graph, Onnx::Operators::ReduceSumSquare_11, name,
                            {it->second}, {tmp(it->second + "_sumOfSquares")},
                            {{{"keepdims", 0}}});
      sq.settings.executionContext = updateContext;
      TensorId sumOfSquares = sq.outId(0);
      if (weightShards.count(wid))
        // The replica's part of a reduce-scattered gradient: the parts'
        // sums together (the padding adds nothing).
        sumOfSquares = add<ReplicatedAllReduceOp>(
                           {sumOfSquares}, {tmp(sumOfSquares + "_allReduced")},
                           updateContext, settings(name + "/ReplicatedAllReduce"))
                           .outId(0);
      sumsOfSquares.push_back(sumOfSquares);
    }
    const std::string name = "clipGroup" + std::to_string(group);
    auto op = [&](const OperatorIdentifier &id, std::vector<TensorId> ins,
                  const std::string &out) {
      Op &o = addBuiltinOp(graph, id, name, ins, {tmp(out)});
      o.settings.executionContext = updateContext;
      return o.outId(0);
    };
    TensorId total =
        sumsOfSquares.size() == 1
            ? sumsOfSquares[0]
            : op(Onnx::Operators::Sum_8, sumsOfSquares, name + "_sumOfSquares");
    const TensorId norm = op(Onnx::Operators::Sqrt_6, {total}, name + "_norm");
    const TensorId scale = scalar(
        "gradientScale___default", opt.lossScaling().isConst(),
        [=](const Optimizer &o) { return 1.0f / (o.getLossScalingVal() * afd); });
    const TensorId unscaled =
        op(Onnx::Operators::Mul_7, {norm, scale}, name + "_unscaledNorm");
    const TensorId maxNorm = addScalarConst(
        graph, reservedConstValuePrefix() + name + "_maxNorm", DataType::FLOAT,
        clip.getMaxNorm());
    const TensorId bounded =
        op(Onnx::Operators::Max_8, {unscaled, maxNorm}, name + "_bounded");
    const TensorId factor =
        op(Onnx::Operators::Div_7, {maxNorm, bounded}, name + "_factor");
    for (const auto &wid : ws) {
      const TensorId g = updateGradients.at(wid);
      TensorId f = factor;
      const DataType gradType = graph.getTensor(g).info.dataType();
      if (gradType != DataType::FLOAT) {
        Op &cast = addBuiltinOp(graph, Onnx::Operators::Cast_9, name,
                                {factor}, {tmp(name + "_factorCast")},
                                {{{"to", getONNXDataTypeAsInt(gradType)}}});
        cast.settings.executionContext = updateContext;
        f = cast.outId(0);
      }
      Op &mul = addBuiltinOp(graph, Onnx::Operators::Mul_7, wid + "/clip",
                             {g, f}, {tmp(g + "_clipped")});
      mul.settings.executionContext = updateContext;
      updateGradients[wid] = mul.outId(0);
    }
    ++group;
  }
}

void WeightUpdates::reduceOverReplicas() {
  for (auto &[wid, grad] : updateGradients) {
    if (reducedGradients.count(wid))
      continue;
    if (weightShards.count(wid)) {
      // Replicated tensor sharding: the replica gets its part of the sum.
      grad = add<ReplicatedReduceScatterOp>(
                 {grad}, {tmp(grad + "_reduceScattered")}, updateContext,
                 settings(wid + "/ReplicatedReduceScatter"),
                 CollectiveOperator::Add)
                 .outId(0);
      continue;
    }
    grad = add<ReplicatedAllReduceOp>({grad}, {tmp(grad + "_allReduced")},
                                      updateContext,
                                      settings(wid + "/ReplicatedAllReduce"))
               .outId(0);
  }
}

void WeightUpdates::reduceOnHost() {
  for (auto &[wid, grad] : updateGradients)
    grad = add<HostReduceOp>({grad}, {tmp(grad + "_hostReduced")},
                             updateContext, settings(wid + "/HostReduce"))
               .outId(0);
}

void WeightUpdates::zeroAccumulators() {
  for (const auto &a : accumulators)
    add<AccumulatorZeroOp>({a.second}, {tmp(a.second + "_zeroed")},
                           updateContext, settings(a.first + "/AccumulatorZero"));
}

void WeightUpdates::grow(const std::vector<TensorId> &weights) {
  const Optimizer &opt = ir.getOptimizer();
  for (const auto &clip : opt.getClipNormSettings()) {
    if (clip.getMode() == ClipNormSettings::Mode::ClipAllWeights)
      clippedWeights.insert(weights.begin(), weights.end());
    for (const auto &w : clip.getWeightIds()) {
      if (std::find(weights.begin(), weights.end(), w) == weights.end())
        throw error("ClipNormSettings: '{}' is not a weight the loss depends "
                    "on",
                    w);
      clippedWeights.insert(w);
    }
  }
  for (const auto &wid : weights) {
    Tensor &w = graph.getTensor(wid);
    if (!accumulatesIntoVelocity(w))
      updateGradients[wid] = gradientForUpdate(w, accumType(wid));
    if (updateGradients.count(wid) && shardsWeight(w))
      shardWeight(w);
    else if (updateGradients.count(wid) &&
             (shardsState(w) || reducedGradients.count(wid)))
      // The replica's part of the weight, updated and gathered back.
      weightShards[wid] =
          add<ReplicatedReduceScatterOp>({wid}, {tmp(wid + "_shard")},
                                         updateContext,
                                         settings(wid + "/ReplicatedShard"),
                                         CollectiveOperator::Local)
              .outId(0);
  }
  if (replicas > 1)
    reduceOverReplicas();
  if (reducesOnHost(options))
    reduceOnHost();
  clipGradients();
  for (const auto &wid : weights) {
    const Tensor &w = graph.getTensor(wid);
    TensorId updated;
    switch (opt.type()) {
    case OptimizerType::SGD:
      updated = growSGD(static_cast<const SGD &>(opt), w);
      break;
    case OptimizerType::Adam:
      updated = growAdam(static_cast<const Adam &>(opt), w);
      break;
    case OptimizerType::Adaptive:
      updated = growAdaptive(static_cast<const Adaptive &>(opt), w);
      break;
    default:
      throw error("Unknown optimizer type {}", opt.type_s());
    }
    if (weightShards.count(wid) && !shardedWeights.count(wid))
      gatherIntoWeight(wid, updated);
  }
  zeroAccumulators();
}

} // namespace

bool reducesOnHost(const SessionOptions &options) {
  return options.hostAllReduce ||
         (options.enableDistributedReplicatedGraphs &&
          options.globalReplicationFactor > 1);
}

TensorId lossScalingTensor(Ir &ir, DataType type) {
  Graph &graph = ir.getMainGraph();
  const Optimizer &opt = ir.getOptimizer();
  const TensorId id = reservedLossScalingPrefix() + getDataTypeInfo(type).name();
  if (graph.hasTensor(id))
    return id;
  Tensor &t = graph.addTensor(id, TensorInfo(type, {}),
                              opt.lossScaling().isConst() ? TensorType::Const
                                                          : TensorType::Variable,
                              fromDoubles({opt.getLossScalingVal()}, type));
  if (!opt.lossScaling().isConst()) {
    t.variableKind = VariableKind::HyperParameter;
    ir.getOptimizerTensors().push_back(
        {id, [](const Optimizer &o) { return o.getLossScalingVal(); }});
  }
  return id;
}

void growOptimizerUpdates(Ir &ir, const std::vector<TensorId> &weights) {
  WeightUpdates(ir).grow(weights);
}

namespace {

// The ops that must run after `op`: its consumers, and their consumers,
// and those ordered after it, transitively.
std::set<const Op *> opsAfter(const Graph &graph, const Op &op) {
  std::set<const Op *> after;
  std::vector<const Op *> stack{&op};
  while (!stack.empty()) {
    const Op *o = stack.back();
    stack.pop_back();
    auto visit = [&](const Op *next) {
      if (after.insert(next).second)
        stack.push_back(next);
    };
    for (const Tensor *out : o->outputs)
      if (out)
        for (const Op *c : out->consumers)
          visit(c);
    auto cons = graph.getTopoCons().find(const_cast<Op *>(o));
    if (cons != graph.getTopoCons().end())
      for (const Op *next : cons->second)
        visit(next);
  }
  return after;
}

} // namespace

void orderInPlaceUpdates(Ir &ir) {
  Graph &graph = ir.getMainGraph();
  for (const auto &p : graph.getOps()) {
    Op &modifier = *p.second;
    std::set<const Op *> after;
    bool computed = false;
    for (int i = 0; i < modifier.inTensorCount(); ++i) {
      if (!modifier.hasInput(i) || !modifier.modifiesInputInPlace(i))
        continue;
      if (!computed) {
        after = opsAfter(graph, modifier);
        computed = true;
      }
      // The other readers run before the change, unless they must run
      // after the modifier anyway (a recomputed batch normalisation, which
      // does not read the running statistics it is given).
      for (Op *reader : modifier.inputs[i]->consumers)
        if (reader != &modifier && !after.count(reader))
          graph.addTopoCon(*reader, modifier);
    }
  }
}

} // namespace popart
