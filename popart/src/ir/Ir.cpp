#include "ir/Ir.hpp"
#include "onnx/OnnxUtil.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/opserialiser.hpp>

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace popart {
namespace {

std::string upper(std::string s) {
  for (auto &c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The checkpoints selected by the options and POPART_DOT_CHECKS
// ("FWD0:FINAL"), upper case.
std::set<std::string> selectedDotChecks(const SessionOptions &options) {
  std::set<std::string> checks;
  for (const auto &c : options.dotChecks)
    checks.insert(upper(c));
  if (const char *env = std::getenv("POPART_DOT_CHECKS")) {
    std::stringstream in(env);
    std::string item;
    while (std::getline(in, item, ':'))
      if (!item.empty())
        checks.insert(upper(item));
  }
  return checks;
}

void setInputShapes(onnx::ModelProto &model, const InputShapeInfo &shapes) {
  for (auto &input : *model.mutable_graph()->mutable_input()) {
    if (!shapes.has(input.name()))
      continue;
    const TensorInfo &info = shapes.get(input.name());
    auto *tt = input.mutable_type()->mutable_tensor_type();
    tt->set_elem_type(getONNXDataTypeAsInt(info.dataType()));
    tt->clear_shape();
    auto *shape = tt->mutable_shape();
    for (auto d : info.shape())
      shape->add_dim()->set_dim_value(d);
  }
}

} // namespace

void Ir::prepare(onnx::ModelProto model_, const InputShapeInfo &shapes,
                 const DataFlow &dataFlow_, const SessionOptions &options_,
                 const Patterns &patterns) {
  model = std::move(model_);
  dataFlow = dataFlow_;
  options = options_;
  dotChecks = selectedDotChecks(options);
  try {
    if (dataFlow.batchesPerStep() <= 0)
      throw error("DataFlow: batchesPerStep must be at least 1, not {}",
                  dataFlow.batchesPerStep());
    if (options.getGlobalReplicationFactor() != 1 ||
        options.getAccumulationFactor() != 1)
      throw error("Replication and gradient accumulation are not supported by "
                  "inference sessions here (replicatedGraphCount {}, "
                  "accumulationFactor {})",
                  options.getGlobalReplicationFactor(),
                  options.getAccumulationFactor());
    const int64_t opset = onnxutil::aiOnnxOpsetVersion(model);
    logging::ir::info("Preparing the IR of a model of ai.onnx opset {} with "
                      "{} nodes",
                      opset, model.graph().node_size());
    setInputShapes(model, shapes);
    {
      // Outputs whose type ONNX could not infer when the model was built
      // (shapes computed from data) are left out of the check: the IR
      // works their types out itself.
      onnx::ModelProto checked = model;
      auto *outputs = checked.mutable_graph()->mutable_output();
      for (int i = outputs->size(); i-- > 0;)
        if (!outputs->Get(i).has_type())
          outputs->DeleteSubrange(i, 1);
      onnxutil::checkModel(checked);
    }
    onnxutil::inferShapes(model);

    importOnnxGraph(model, shapes, options, mainGraph);
    dotCheckpoint("FWD0");
    const int rewrites = applyPatterns(mainGraph, patterns, dataFlow);
    const int folded = foldConstants(mainGraph);
    logging::ir::debug("Patterns made {} rewrites, constant folding {} more",
                       rewrites, folded);
    dotCheckpoint("FWD1");
    checkAnchors();
    schedule = mainGraph.getOpSchedule(options.kahnTieBreaker);
    dotCheckpoint("FINAL");
  } catch (const std::exception &) {
    if (const char *dump = std::getenv("POPART_IR_DUMP")) {
      std::ofstream out(dump);
      out << serialise();
    }
    throw;
  }
  if (const char *dump = std::getenv("POPART_IR_DUMP")) {
    std::ofstream out(dump);
    if (!out)
      throw error("POPART_IR_DUMP: cannot write '{}'", dump);
    out << serialise();
  }
  logging::ir::info("IR prepared: {} ops, {} tensors", mainGraph.getOps().size(),
                    mainGraph.getTensors().size());
}

void Ir::checkAnchors() const {
  for (const auto &id : dataFlow.anchors())
    if (!mainGraph.hasTensor(id))
      throw error("Anchor tensor '{}' is not in the model", id);
}

std::string Ir::serialise() const {
  nlohmann::json j;
  j["tensors"] = nlohmann::json::array();
  for (const auto &p : mainGraph.getTensors()) {
    std::ostringstream info;
    info << p.second->info;
    j["tensors"].push_back({{"id", p.first},
                            {"tensor_type", tensorTypeName(p.second->type)},
                            {"info", info.str()}});
  }
  auto opJson = [](const Op &op) {
    nlohmann::json o;
    o["type"] = op.opid.type;
    o["domain"] = op.opid.domain;
    o["version"] = op.opid.version;
    o["name"] = op.name();
    o["inputs"] = nlohmann::json::array();
    for (Tensor *t : op.inputs)
      o["inputs"].push_back(t ? t->id : "");
    o["outputs"] = nlohmann::json::array();
    for (Tensor *t : op.outputs)
      o["outputs"].push_back(t ? t->id : "");
    OpAttributeMap attrs;
    op.appendAttributes(attrs);
    o["attributes"] = attrs.attributes();
    return o;
  };
  j["maingraph"] = nlohmann::json::array();
  if (!schedule.empty())
    for (const Op *op : schedule)
      j["maingraph"].push_back(opJson(*op));
  else
    for (const auto &p : mainGraph.getOps())
      j["maingraph"].push_back(opJson(*p.second));
  return j.dump(2);
}

void Ir::dotCheckpoint(const std::string &checkpoint) const {
  if (!dotChecks.count(checkpoint) && !dotChecks.count("ALL"))
    return;
  const std::string dir = options.logDir.empty() ? "." : options.logDir;
  const std::string file = dir + "/" + checkpoint + ".dot";
  std::ofstream out(file);
  if (!out)
    throw error("Cannot write the DOT file '{}'", file);
  out << "digraph net {\n  size=\"6,6\";\n";
  int n = 0;
  for (const auto &p : mainGraph.getOps()) {
    if (n < options.firstDotOp || n >= options.finalDotOp) {
      ++n;
      continue;
    }
    ++n;
    const Op &op = *p.second;
    std::string label = op.opid.type + (options.dotOpNames ? " " + op.name() : "");
    out << "  n_" << op.id << " [shape=box, label=\"" << label << "\"];\n";
    for (Tensor *t : op.inputs)
      if (t)
        out << "  \"" << t->id << "\" -> n_" << op.id << ";\n";
    for (Tensor *t : op.outputs)
      if (t) {
        std::ostringstream info;
        info << t->info;
        out << "  \"" << t->id << "\" [color=grey, label=\"" << t->id << "\\n"
            << info.str() << "\"];\n  n_" << op.id << " -> \"" << t->id
            << "\";\n";
      }
  }
  out << "}\n";
  logging::ir::info("Wrote DOT file {} at checkpoint {}", file, checkpoint);
}

} // namespace popart
