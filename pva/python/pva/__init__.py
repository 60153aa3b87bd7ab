"""pva: the reports (profile.pop) the Poplar Engine writes with the
autoReport options, read with libpva.

    report = pva.openReport("profile.pop")
    report.compilation.target.numTiles
    [tile.memory.total.includingGaps for tile in report.compilation.tiles]
"""

from .pva_core import *  # noqa: F401,F403
