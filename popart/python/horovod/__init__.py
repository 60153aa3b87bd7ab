"""horovod: the part of Horovod this SDK needs, its PopART extension
(horovod.popart), over popart's MPI layer. Installed only where Horovod
itself is not."""
