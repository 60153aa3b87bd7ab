"""SessionOptions (every field of the C++ class, dict, list and set fields
writing through), the enums, Patterns, DeviceManager and DeviceInfo,
logging and the reserved tensor-name prefixes."""

import pathlib
import re

import popart
import pytest

HEADER = pathlib.Path(__file__).resolve().parents[2] / "include" / "popart" / "sessionoptions.hpp"


def session_option_fields():
    """The public fields of popart::SessionOptions, read from its header."""
    text = HEADER.read_text()
    body = text[text.index("class POPART_API SessionOptions"):]
    body = body[body.index("public:"):body.index("\n};")]
    fields = re.findall(r"^\s+[\w:<>, ]+?\s(\w+)(?:\s*=[^;]*)?;\s*$", body, re.MULTILINE)
    return [f for f in fields if f not in {"const"}]


def test_every_field_is_a_property():
    fields = session_option_fields()
    assert len(fields) >= 70  # the parse found them
    options = popart.SessionOptions()
    missing = [f for f in fields if not hasattr(options, f)]
    assert missing == []


def test_defaults_and_types():
    o = popart.SessionOptions()
    assert (o.constantWeights, o.enableOutlining, o.outlineThreshold, o.cachePath,
            o.kahnTieBreaker) == (True, True, 1.0, "session_cache", "greedy")
    assert o.virtualGraphMode == popart.VirtualGraphMode.Off
    assert o.autoRecomputation == popart.RecomputationType.NoRecompute
    assert o.mergeVarUpdate == popart.MergeVarUpdateType.Off
    assert o.syntheticDataMode == popart.SyntheticDataMode.Off
    assert o.accumulationAndReplicationReductionType == popart.ReductionType.Sum
    assert o.hardwareInstrumentations == {popart.Instrumentation.Outer}
    o.virtualGraphMode = popart.VirtualGraphMode.Manual
    o.replicatedGraphCount = 2
    o.enableReplicatedGraphs = True
    assert (o.virtualGraphMode, o.getGlobalReplicationFactor()) == \
        (popart.VirtualGraphMode.Manual, 2)
    with pytest.raises(TypeError):
        o.firstDotOp = "many"
    with pytest.raises(AttributeError):
        o.noSuchOption = True


def test_container_fields_write_through():
    o = popart.SessionOptions()
    o.engineOptions = {"debug.instrument": "true"}
    o.engineOptions["autoReport.all"] = "true"
    o.engineOptions.update({"a": "b"})
    del o.engineOptions["a"]
    assert o.engineOptions == {"debug.instrument": "true", "autoReport.all": "true"}
    o.reportOptions["showExecutionSteps"] = "true"
    o.convolutionOptions.setdefault("partialsType", "half")
    o.dotChecks.add("Fwd0")
    o.customCodelets.append("codelets.cpp")
    o.customCodelets += ["more.cpp"]
    o.virtualGraphSplitRatios.extend([0.5, 0.5])
    o.bufferingDepthMap["x"] = 2
    o.hardwareInstrumentations.add(popart.Instrumentation.Inner)
    assert o.reportOptions == {"showExecutionSteps": "true"}
    assert o.convolutionOptions == {"partialsType": "half"}
    assert o.dotChecks == {"Fwd0"}
    assert o.customCodelets == ["codelets.cpp", "more.cpp"]
    assert o.virtualGraphSplitRatios == [0.5, 0.5]
    assert o.bufferingDepthMap == {"x": 2}
    assert o.hardwareInstrumentations == {popart.Instrumentation.Outer,
                                          popart.Instrumentation.Inner}


def test_patterns():
    assert popart.Patterns().isPatternEnabled("PreUniRepl")
    minimal = popart.Patterns(popart.PatternsLevel.Minimal)
    assert not minimal.PreUniRepl and not minimal.InPlace
    minimal.PreUniRepl = True
    assert minimal.isPatternEnabled("PreUniRepl")
    minimal.enablePattern("OpToIdentity", True).enableRuntimeAsserts(False)
    assert minimal.OpToIdentity
    named = popart.Patterns(["OpToIdentity"])
    assert named.OpToIdentity and not named.PreUniRepl
    for name in popart.Patterns.getAllPreAliasPatternNames():
        assert hasattr(minimal, name)
    with pytest.raises(AttributeError):
        minimal.NotAPattern = True
    with pytest.raises(popart.popart_exception, match="'NotAPattern'"):
        popart.Patterns(["NotAPattern"])


def test_devices():
    manager = popart.DeviceManager()
    assert manager.enumerateDevices() == []
    assert manager.tryAcquireAvailableDevice(numIpus=1) is None
    assert manager.tryAcquireDeviceById(0) is None
    with pytest.raises(popart.popart_exception, match="2 IPUs"):
        manager.acquireAvailableDevice(2)
    cpu = manager.createCpuDevice()
    assert cpu.type == popart.DeviceType.Cpu
    with manager.createIpuModelDevice({"numIPUs": 2, "tilesPerIPU": 8,
                                       "ipuVersion": "ipu1",
                                       "compileIPUCode": True}) as model:
        assert (model.type, model.numIpus, model.tilesPerIPU, model.ipuVersion) == \
            (popart.DeviceType.IpuModel, 2, 8, "ipu1")
        assert "NumTilesPerIPU:8" in repr(model)
    with pytest.raises(popart.popart_exception, match="'numIPU'"):
        manager.createIpuModelDevice({"numIPU": 2})
    with pytest.raises(popart.popart_exception, match="'tilesPerIPU'"):
        manager.createIpuModelDevice({"tilesPerIPU": 1.5})
    host = manager.createHostDevice(popart.DeviceType.IpuModel, {"tilesPerIPU": 2})
    assert host.tilesPerIPU == 2
    assert popart.syncPatternToString(popart.SyncPattern.SinglePipeline) == "singlePipeline"


def test_logging(tmp_path):
    logger = popart.getLogger()
    assert logger.name == "all"
    logger.setLevel("OFF")
    popart.getLogger("session").setLevel("DEBUG")
    popart.getLogger("session").setLevel("OFF")
    with pytest.raises(popart.popart_exception, match="'LOUD'"):
        logger.setLevel("LOUD")


def test_reserved_prefixes():
    assert popart.reservedGradientPrefix() == "Gradient___"
    assert popart.reservedAccumPrefix() == "Accum___"
    assert popart.reservedStashedPrefix() == "Stashed___"
    assert popart.reservedRandomSeedPrefix() == "randomSeed___"
    assert popart.getGradId("w") == "Gradient___w"
    assert popart.reservedGradientPrefix() in popart.reservedPrefixes()
