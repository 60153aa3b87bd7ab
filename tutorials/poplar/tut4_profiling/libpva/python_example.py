# Reads the profile.pop that tutorial 4 writes with autoReport, with the
# Python module pva (after `source <sdk>/enable.sh`).
import pva

report = pva.openReport("./profile.pop")

print("Example information from profile:")
print("Number of compute sets:", report.compilation.graph.numComputeSets)
print("Number of tiles on target:", report.compilation.target.numTiles)
print("Version of Poplar used:", report.poplarVersion.string)
