#!/usr/bin/env bash
# Installs the SDK from the build tree, then moves the installed tree
# elsewhere: everything the compatibility tests build runs against the
# moved copy, through its enable.sh, as a user whose SDK was unpacked in a
# directory of their choosing.
#   install_sdk.sh <build dir> <destination>
set -euo pipefail
build=$1 dest=$2
rm -rf "$dest" "$dest.installed"
cmake --install "$build" --prefix "$dest.installed" > /dev/null
mv "$dest.installed" "$dest"
# enable.sh finds its own directory, wherever the shell is.
out=$(cd / && bash -c "source '$dest/enable.sh' && echo \$POPLAR_SDK_ENABLED")
[ "$out" = "$dest" ] || { echo "FAIL: enable.sh gave '$out'"; exit 1; }
echo "installed into $dest (enable.sh: ok)"
