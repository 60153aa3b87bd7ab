"""One process of the distributed-training tests (test_distributed.py),
started by mpirun: trains a small model with one replica per process
(enableDistributedReplicatedGraphs) and writes its final weights.

Usage: distributed_worker.py <case> <output .npz prefix> [replicas]

With `replicas` (default 1) each process holds that many replicas
(replicatedGraphCount), their gradients summed on its device first.

The case "horovod" trains through horovod.popart instead (hostAllReduce,
DistributedOptimizer, broadcast_weights).

Each process starts from weights of its own (a seed per rank), which
weightsFromHost replaces with rank 0's; each trains on its part of the
combined batch that test_distributed.py trains one process on.
"""
import sys

import numpy as np
import popart

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import distributed_model as model  # noqa: E402

case = sys.argv[1]
prefix = sys.argv[2]
local = int(sys.argv[3]) if len(sys.argv) > 3 else 1
c = model.CASES[case]
opts = popart.SessionOptions()
if c.get("horovod"):
    import horovod.popart as hvd
    hvd.init()
    rank, size = hvd.rank(), hvd.size()
    opts.hostAllReduce = True
else:
    from popart.popart_core import _mpi
    _mpi.init()
    rank, size = _mpi.rank(), _mpi.size()
    opts.enableDistributedReplicatedGraphs = True
    opts.globalReplicationFactor = size * local
    opts.globalReplicaOffset = rank * local
    if local > 1:
        opts.enableReplicatedGraphs = True
        opts.replicatedGraphCount = local
    opts.accumulationAndReplicationReductionType = c["reduction"]
if c["accumulation"] > 1:
    opts.enableGradientAccumulation = True
    opts.accumulationFactor = c["accumulation"]

optimizer = c["optimizer"](1)
session, io = model.training_session(model.REPLICA_BATCH,
                                     model.initial_weights(seed=100 + rank),
                                     opts, optimizer, c["accumulation"],
                                     ipus=local, dropout=c.get("dropout", False))
if c.get("dropout"):
    session.setRandomSeed(7)
session.prepareDevice()
if c.get("horovod"):
    hvd.DistributedOptimizer(optimizer, session, opts)
    hvd.broadcast_weights(session, root_rank=0)
session.weightsFromHost()
anchors = session.initAnchorArrays()
for step in range(model.STEPS):
    xs, labels = model.replicas_data(step, rank * local, local,
                                     c["accumulation"], size * local)
    session.run(popart.PyStepIO({io["x"]: xs, io["label"]: labels}, anchors))
session.weightsToHost()
np.savez(f"{prefix}.{rank}.npz", **model.read_weights(session))
