"""Distributed replicated training over MPI: `mpirun -np 2` on this
machine (loopback only), one replica per process, against one process
training on the combined batch; and horovod.popart, the guide's Horovod
API, over the same MPI layer."""
import os
import pathlib
import subprocess
import sys

import numpy as np
import popart
import pytest

import distributed_model as model

HERE = pathlib.Path(__file__).resolve().parent


def mpirun(args, np_=2, timeout=120):
    """Runs `python args...` in `np_` processes; their output."""
    env = dict(os.environ,
               OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    command = [
        "mpirun", "-np", str(np_), "--oversubscribe",
        # Loopback only, over TCP: no network, no shared-memory setup.
        "--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo",
        "--mca", "oob_tcp_if_include", "lo", sys.executable, *map(str, args)
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def single_process_weights(case):
    """The weights of one process training on the combined batch."""
    c = model.CASES[case]
    opts = popart.SessionOptions()
    if c["accumulation"] > 1:
        opts.enableGradientAccumulation = True
        opts.accumulationFactor = c["accumulation"]
    session, io = model.training_session(
        model.REPLICAS * model.REPLICA_BATCH, model.initial_weights(100),
        opts, c["optimizer"](model.reference_scale(case)), c["accumulation"])
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    for step in range(model.STEPS):
        xs, labels = model.combined_data(step, c["accumulation"])
        session.run(popart.PyStepIO({io["x"]: xs, io["label"]: labels}, anchors))
    session.weightsToHost()
    return model.read_weights(session)


def replicated_process_weights(case, replicas):
    """The weights of one process holding all the replicas
    (replicatedGraphCount), each on its part of the combined batch."""
    c = model.CASES[case]
    opts = popart.SessionOptions()
    opts.enableReplicatedGraphs = True
    opts.replicatedGraphCount = replicas
    opts.accumulationAndReplicationReductionType = c["reduction"]
    if c["accumulation"] > 1:
        opts.enableGradientAccumulation = True
        opts.accumulationFactor = c["accumulation"]
    session, io = model.training_session(
        model.REPLICA_BATCH, model.initial_weights(100), opts,
        c["optimizer"](1), c["accumulation"], ipus=replicas,
        dropout=c.get("dropout", False))
    if c.get("dropout"):
        session.setRandomSeed(7)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    for step in range(model.STEPS):
        xs, labels = model.replicas_data(step, 0, replicas, c["accumulation"],
                                         replicas)
        session.run(popart.PyStepIO({io["x"]: xs, io["label"]: labels}, anchors))
    session.weightsToHost()
    return model.read_weights(session)


def assert_weights_of_every_rank(prefix, expected, ranks=model.REPLICAS):
    start = model.initial_weights(100)
    for rank in range(ranks):
        got = np.load(f"{prefix}.{rank}.npz")
        for name, want in expected.items():
            # Trained (far from the start), and as the one process.
            assert np.max(np.abs(want - start[name])) > 0.05
            np.testing.assert_allclose(got[name], want, rtol=1e-5, atol=1e-7,
                                       err_msg=f"rank {rank}, {name}")


@pytest.mark.parametrize("case", ["mean_momentum", "sum_accumulate", "horovod"])
def test_two_processes_train_as_one_on_the_combined_batch(case, tmp_path):
    mpirun([HERE / "distributed_worker.py", case, tmp_path / "weights"])
    assert_weights_of_every_rank(tmp_path / "weights",
                                 single_process_weights(case))
    if case != "horovod":
        # And as one process of two replicas (replicatedGraphCount 2).
        assert_weights_of_every_rank(tmp_path / "weights",
                                     replicated_process_weights(case, 2))


def test_two_processes_of_two_replicas_train_as_one_process_of_four(tmp_path):
    """Each process sums its replicas' gradients on its device, then the
    processes over MPI: globalReplicationFactor 4, offsets 0 and 2."""
    mpirun([HERE / "distributed_worker.py", "mean_momentum",
            tmp_path / "weights", 2])
    assert_weights_of_every_rank(tmp_path / "weights",
                                 replicated_process_weights("mean_momentum", 4))


def test_replicas_of_a_job_draw_as_the_replicas_of_one_process(tmp_path):
    """Dropout masks come from each replica's global index: two processes
    train as one process of two replicas, and not as if both drew the same
    mask (which one replica of the combined batch cannot tell apart)."""
    mpirun([HERE / "distributed_worker.py", "dropout", tmp_path / "weights"])
    assert_weights_of_every_rank(tmp_path / "weights",
                                 replicated_process_weights("dropout", 2))


def test_a_job_that_does_not_hold_the_replicas_is_refused(tmp_path):
    script = tmp_path / "offsets.py"
    script.write_text(f"""
import os, sys
sys.path.insert(0, {str(HERE)!r})
import popart, distributed_model as model
opts = popart.SessionOptions()
opts.enableDistributedReplicatedGraphs = True
opts.globalReplicationFactor = 2
opts.globalReplicaOffset = 1  # in both processes
try:
    model.training_session(3, model.initial_weights(0), opts,
                           popart.ConstSGD(0.1), 1)
except popart.popart_exception as e:
    # A file per process: mpirun may interleave the processes' output.
    rank = os.environ["OMPI_COMM_WORLD_RANK"]
    with open({str(tmp_path)!r} + "/refused." + rank, "w") as f:
        f.write(str(e))
""")
    mpirun([script])
    for rank in range(2):
        message = (tmp_path / f"refused.{rank}").read_text()
        assert ("SessionOptions::globalReplicaOffset is 1 in the processes "
                "of ranks 0 and 1") in message


def test_distributed_options_are_checked():
    def session(**options):
        opts = popart.SessionOptions()
        for k, v in options.items():
            setattr(opts, k, v)
        return model.training_session(3, model.initial_weights(0), opts,
                                      popart.ConstSGD(0.1), 1)

    # One process (not started by mpirun) holds one replica.
    with pytest.raises(popart.popart_exception,
                       match="globalReplicationFactor is 2, but the job has 1"):
        session(enableDistributedReplicatedGraphs=True,
                globalReplicationFactor=2)
    with pytest.raises(popart.popart_exception,
                       match="globalReplicaOffset is 2: it must be a replica"):
        session(enableDistributedReplicatedGraphs=True,
                globalReplicationFactor=2, globalReplicaOffset=2)
    for field, value in (("globalReplicaOffset", 1),
                         ("globalReplicationFactor", 2)):
        with pytest.raises(popart.popart_exception,
                           match=f"SessionOptions::{field} is not supported "
                           "here: .*enableDistributedReplicatedGraphs is false"):
            session(**{field: value})


def test_host_all_reduce_streams_the_gradients_through_the_host():
    opts = popart.SessionOptions()
    opts.hostAllReduce = True
    session, io = model.training_session(3, model.initial_weights(0), opts,
                                         popart.ConstSGD(0.1), 1)
    with pytest.raises(popart.popart_exception, match="call prepareDevice"):
        session.connectStreamToCallback("gradientLoad__x", lambda a: None)
    session.prepareDevice()
    grads = {w: popart.reservedGradientPrefix() + w for w in ("b1", "w1", "w2")}
    assert session.getHostReduceStreamIds() == [
        f"gradient{kind}__{grads[w]}" for w in sorted(grads)
        for kind in ("Store", "Load")
    ]
    session.weightsFromHost()
    # The host reduction of the one process (no callbacks connected) is
    # the gradient itself; a callback given instead sets the gradient the
    # update uses: zero here, so w1 keeps its value.
    seen = {}
    session.connectStreamToCallback("gradientStore__" + grads["w1"],
                                    lambda a: seen.update(w1=a.copy()))
    session.connectStreamToCallback("gradientLoad__" + grads["w1"],
                                    lambda a: a.fill(0))
    anchors = session.initAnchorArrays()
    xs, labels = model.replica_data(0, 0, 1)
    session.run(popart.PyStepIO({io["x"]: xs, io["label"]: labels}, anchors))
    session.weightsToHost()
    after = model.read_weights(session)
    start = model.initial_weights(0)
    np.testing.assert_array_equal(after["w1"], start["w1"])
    assert np.max(np.abs(after["w2"] - start["w2"])) > 1e-3
    assert seen["w1"].shape == (model.IN * model.HIDDEN, )
    assert np.max(np.abs(seen["w1"])) > 0
    with pytest.raises(popart.popart_exception, match="moves no tensor"):
        session.connectStreamToCallback("gradientLoad__nothing", lambda a: 0)


def test_host_all_reduce_needs_training():
    opts = popart.SessionOptions()
    opts.hostAllReduce = True
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    y = b.aiOnnx.relu([x])
    with pytest.raises(popart.popart_exception,
                       match="SessionOptions::hostAllReduce: gradients are "
                       "reduced in a TrainingSession only"):
        popart.InferenceSession(b.getModelProto(),
                                popart.DataFlow(1, [y]),
                                popart.DeviceManager().createCpuDevice(),
                                userOptions=opts)


def test_horovod_popart_is_the_sdks_over_mpi():
    import horovod.popart as hvd
    hvd.init()
    assert (hvd.rank(), hvd.size(), hvd.local_rank(), hvd.local_size()) == (0, 1, 0, 1)
    a = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(hvd.allreduce(a), a)
    np.testing.assert_array_equal(hvd.broadcast(a, root_rank=0), a)
    opts = popart.SessionOptions()
    session, _ = model.training_session(3, model.initial_weights(0), opts,
                                        popart.ConstSGD(0.1), 1)
    with pytest.raises(ValueError, match="hostAllReduce"):
        hvd.DistributedOptimizer(popart.ConstSGD(0.1), session, opts)
